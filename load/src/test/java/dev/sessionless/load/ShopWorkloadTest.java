package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sessionless.load.internal.ShopWorkload;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shop's requests: what a user asks for never repeats soon, so neither does its session; and
 * each user's cookie jar keeps, replaces and deletes cookies as a browser does.
 */
class ShopWorkloadTest {
  /** What the server sets on its first four replies, and what it then expects to be sent. */
  private static final String[][] SET_COOKIES = {
      {"SESSION=abc.Max-Age=0x; Path=/; HttpOnly", "OTHER=1; Max-Age=60"},
      {"OTHER=; Max-Age=0", "SESSION=def; Expires=Thu, 01 Jan 2099 00:00:00 GMT"},
      {"SESSION=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"},
      {}};

  @Test
  void cookieJarKeepsReplacesAndDeletesCookiesByTheirAttributesNotTheirValues() throws Exception {
    List<String> sent = new ArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/shop/", exchange -> {
      int k = sent.size();
      sent.add(String.valueOf(exchange.getRequestHeaders().getFirst("Cookie")));
      for (String c : SET_COOKIES[k]) {
        exchange.getResponseHeaders().add("Set-Cookie", c);
      }
      byte[] body = ("viewed=" + Math.min(k + 1, 2) + " items=0").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    HttpClient client = HttpClient.newHttpClient(); // not AutoCloseable before JDK 21
    try {
      ShopWorkload shop = new ShopWorkload(List.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/")),
          ShopWorkload.Routing.STICKY);
      Workload.VirtualUser user = shop.newUser(1);
      for (int i = 0; i < SET_COOKIES.length; i++) {
        HttpResponse<String> r = client.send(user.next(), HttpResponse.BodyHandlers.ofString());
        assertTrue(user.accept(r), "reply " + i + " accepted");
      }
    } finally {
      server.stop(0);
    }
    assertEquals(List.of(
        "null",
        "SESSION=abc.Max-Age=0x; OTHER=1", // "Max-Age=0" inside a value deletes nothing
        "SESSION=def", // OTHER deleted by Max-Age=0, SESSION replaced
        "null"), // deleted by an expiry in 1970
        sent);
  }

  @Test
  void itemIdsKeepOneLengthAndDoNotComeBackWithinAMillionRequests() {
    ShopWorkload shop = new ShopWorkload(List.of(URI.create("http://127.0.0.1:1/")), ShopWorkload.Routing.STICKY);
    Workload.VirtualUser user = shop.newUser(7);
    Set<String> items = new HashSet<>();
    Set<Integer> lengths = new HashSet<>();
    int asked = 0;
    for (int i = 0; i < 6_000; i++) {
      HttpRequest r = user.next();
      String q = r.uri().getQuery();
      if (q != null) {
        asked++;
        items.add(q);
        lengths.add(q.length());
      }
    }
    assertTrue(asked >= 5_000, "at least five of every six steps name an item: " + asked);
    assertEquals(asked, items.size(), "no item asked for twice");
    assertEquals(Set.of("item=sku-7-000000".length()), lengths);
    assertTrue(items.contains("item=sku-7-000000") && items.contains("item=sku-7-004999"), "numbered from zero");
  }
}
