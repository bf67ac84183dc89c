package dev.sessionless.load.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ceiling baseline's cookie, on real Jetty nodes over loopback. */
class PaddingCookieHandlerTest {
  @Test
  void takesItsCookieOutOfTheHeaderWhereverItIsAndOnlyByItsWholeName() {
    assertEquals(null, PaddingCookieHandler.without(null));
    assertEquals("JSESSIONID=abc", PaddingCookieHandler.without("JSESSIONID=abc"));
    assertEquals("XPAD=abc", PaddingCookieHandler.without("XPAD=abc"));
    assertEquals(null, PaddingCookieHandler.without("PAD=abc"));
    assertEquals("JSESSIONID=node01", PaddingCookieHandler.without("PAD=abc; JSESSIONID=node01"));
    assertEquals("JSESSIONID=node01", PaddingCookieHandler.without("JSESSIONID=node01; PAD=abcde"));
    assertEquals("a=1; b=2", PaddingCookieHandler.without("a=1; PAD=xyz; b=2"));
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
        HttpRequest.Builder b = HttpRequest.newBuilder(browse).timeout(Duration.ofSeconds(30));
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
