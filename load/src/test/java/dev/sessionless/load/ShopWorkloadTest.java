package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.ShopWorkload;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
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
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        int k = sent.size();
        sent.add(String.valueOf(req.getHeader("Cookie")));
        for (String c : SET_COOKIES[k]) {
          res.addHeader("Set-Cookie", c);
        }
        res.getWriter().print("viewed=" + Math.min(k + 1, 2) + " items=0");
      }
    }), "/shop/*");
    server.setHandler(context);
    server.start();
    HttpClient client = HttpClient.newHttpClient(); // not AutoCloseable before JDK 21
    try {
      ShopWorkload shop = new ShopWorkload(List.of(URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/")),
          ShopWorkload.Routing.STICKY);
      Workload.VirtualUser user = shop.newUser(1);
      for (int i = 0; i < SET_COOKIES.length; i++) {
        HttpResponse<String> r = client.send(user.next(), HttpResponse.BodyHandlers.ofString());
        assertTrue(user.accept(r), "reply " + i + " accepted");
      }
    } finally {
      server.stop();
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
