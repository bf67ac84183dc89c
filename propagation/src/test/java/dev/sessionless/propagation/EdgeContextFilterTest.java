package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The edge's filter in a real Jetty 12 on loopback, called over real HTTP. */
@Timeout(60)
class EdgeContextFilterTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final OutgoingTokens OUTGOING = OutgoingTokens.builder().minter(InternalTokenMinter.builder()
      .keys(KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256))).issuer("https://edge.example").build())
      .grant("orders", "cart").build();

  /** A page that calls orders on the user's behalf ({@code /order}), and one that fails otherwise. */
  static final class Pages extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      if (req.getRequestURI().equals("/login")) {
        req.getSession(true).setAttribute("user", "alice");
        resp.getWriter().write("ok");
        return;
      }
      if (req.getRequestURI().equals("/broken")) {
        throw new IllegalStateException("a bug of the application's own");
      }
      String token = OUTGOING.tokenFor("orders");
      resp.getWriter().write(token.isEmpty() ? "none" : "minted");
    }
  }

  private static LoopbackJetty edge() throws Exception {
    return new LoopbackJetty((ServletContextHandler context) -> {
      context.setSessionHandler(new SessionHandler());
      context.addFilter(new FilterHolder(EdgeContextFilter.builder().subjectAttribute("user").build()), "/*",
          EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new Pages()), "/*");
    });
  }

  private static HttpResponse<String> get(URI uri, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aCallOnBehalfOfAUserWithoutASessionIs401NotA500() throws Exception {
    try (LoopbackJetty edge = edge()) {
      HttpResponse<String> r = get(edge.root().resolve("order"));
      assertEquals(401, r.statusCode(), r.body());
      assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
      assertFalse(r.body().contains("Exception") || r.body().contains("at dev.sessionless"), r.body());

      String cookie = get(edge.root().resolve("login")).headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
      HttpResponse<String> signedIn = get(edge.root().resolve("order"), "Cookie", cookie);
      assertEquals(200, signedIn.statusCode(), signedIn.body());
      assertEquals("minted", signedIn.body());
    }
  }

  @Test
  void anotherIllegalStateExceptionOfTheApplicationStaysAServerError() throws Exception {
    try (LoopbackJetty edge = edge()) {
      assertEquals(500, get(edge.root().resolve("broken")).statusCode());
    }
  }
}
