package dev.sessionless.load.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ceiling baseline's cookie, on real Jetty nodes over loopback. */
class PaddingCookieFilterTest {
  @Test
  void findsItsCookieAnywhereInTheHeaderAndOnlyByItsWholeName() {
    assertEquals(-1, PaddingCookieFilter.carried(null));
    assertEquals(-1, PaddingCookieFilter.carried("JSESSIONID=abc"));
    assertEquals(-1, PaddingCookieFilter.carried("XPAD=abc"));
    assertEquals(3, PaddingCookieFilter.carried("PAD=abc"));
    assertEquals(3, PaddingCookieFilter.carried("PAD=abc; JSESSIONID=node01"));
    assertEquals(5, PaddingCookieFilter.carried("JSESSIONID=node01; PAD=abcde"));
  }

  /**
   * Every reply sets a new opaque value of the asked length with the Sessionless cookie's
   * attributes, beside the container's own session: the shop still keeps its session (sticky).
   */
  @Test
  void everyReplySetsAFreshCookieOfTheAskedLengthBesideTheContainersSession() throws Exception {
    try (Cluster cluster = Cluster.startPadded(1, 0, 100)) {
      HttpClient client = HttpClient.newHttpClient();
      URI browse = cluster.nodes().get(0).resolve("/shop/browse?item=a");
      Set<String> values = new HashSet<>();
      String session = null;
      for (int i = 0; i < 3; i++) {
        HttpRequest.Builder b = HttpRequest.newBuilder(browse);
        if (session != null) {
          b.header("Cookie", session + "; " + values.iterator().next());
        }
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("viewed=" + (i + 1) + " items=0", r.body()); // the session holds across requests
        List<String> setCookies = r.headers().allValues("set-cookie");
        String pad = setCookies.stream().filter(c -> c.startsWith("PAD=")).findFirst().orElseThrow();
        assertTrue(pad.endsWith("; Path=/; HttpOnly; SameSite=Lax"), pad);
        String value = pad.substring(0, pad.indexOf(';'));
        assertEquals(100, value.length() - "PAD=".length(), value);
        assertTrue(values.add(value), "a new value every reply: " + value);
        if (session == null) {
          session = setCookies.stream().filter(c -> c.startsWith("JSESSIONID=")).findFirst().orElseThrow().split(";")[0];
        }
      }
      assertNotEquals(null, session);
    }
  }
}
