package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenInterceptor;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.EdgeApp;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.JwksApp;
import dev.sessionless.spring.boot.it.MiddleApp;
import dev.sessionless.spring.boot.it.OrdersApp;
import dev.sessionless.spring.boot.it.SecureEdgeApp;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sending side: an edge configured only by {@code sessionless.propagation.send.*} mints
 * internal tokens from the browser's session for a receiving service that learns the edge's keys
 * from the JWKS endpoint the edge serves; all over real HTTP on loopback, on Tomcat and Jetty.
 */
class PropagationEdgeTest {
  private static final String EDGE = "https://edge.example";

  @TempDir
  Path dir;

  private Path file(String name, KeySet keys) throws Exception {
    return Files.writeString(dir.resolve(name), keys.toJwksWithSecrets());
  }

  private Instance edge(String container) throws Exception {
    return Instance.start(EdgeApp.class, Containers.only(container),
        "sessionless.keys.file=" + file("session.jwks", KeySet.of(TokenKey.generate("s1", Algorithm.DIR_A256GCM))),
        "sessionless.propagation.send.issuer=" + EDGE,
        "sessionless.propagation.send.keys-file=" + file("edge.jwks",
            KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256))),
        "sessionless.propagation.send.grants.orders=cart",
        "sessionless.propagation.send.subject-attribute=user");
  }

  private static Instance orders(String container, Instance edge) {
    return Instance.start(OrdersApp.class, Containers.only(container), "sessionless.enabled=false",
        "sessionless.propagation.receive.audience=orders",
        "sessionless.propagation.receive.issuers[0].issuer=" + EDGE,
        "sessionless.propagation.receive.issuers[0].jwks-url=" + edge.uri("/.well-known/jwks.json"),
        "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true",
        "sessionless.propagation.receive.url-patterns=/internal/*");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void theEdgeMintsFromTheBrowserSessionAndTheServiceVerifiesWithTheEdgesJwks(String container) throws Exception {
    try (Instance edge = edge(container); Instance orders = orders(container, edge)) {
      Browser browser = new Browser();
      HttpResponse<String> anonymous = checkout(browser, edge, orders);
      assertEquals(401, anonymous.statusCode(), "a call on behalf of nobody, before login: " + anonymous.body());
      assertFalse(anonymous.body().contains("Exception"), anonymous.body());
      assertEquals("ok", browser.postForm(edge.uri("/login"), Map.of("user", "alice")).body());
      HttpResponse<String> r = checkout(browser, edge, orders);
      assertEquals(200, r.statusCode(), r.body());
      assertEquals("alice InternalTokenAuthentication ROLE_INTERNAL iss=" + EDGE + " cart=book same=true", r.body(),
          "the session's subject and only the granted state value reached orders");
    }
  }

  @Test
  void aServiceThatReceivesAndCallsFurtherReMintsTheIncomingTokenNarrower() throws Exception {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    Path edgeKeyFile = file("edge.jwks", edgeKeys);
    try (Instance edgeJwks = Instance.start(JwksApp.class, Containers.only("jetty"), "sessionless.enabled=false",
            "test.issuer-keys=" + edgeKeyFile);
        Instance orders = Instance.start(MiddleApp.class, Containers.only("jetty"), "sessionless.enabled=false",
            "sessionless.propagation.receive.audience=orders",
            "sessionless.propagation.receive.issuers[0].issuer=" + EDGE,
            "sessionless.propagation.receive.issuers[0].jwks-url=" + edgeJwks.uri("/.well-known/jwks.json"),
            "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true",
            // url-patterns left at /*: every path needs a token, yet billing fetches the JWKS
            "sessionless.propagation.send.issuer=https://orders.internal",
            "sessionless.propagation.send.keys-file=" + file("orders.jwks",
                KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA))),
            "sessionless.propagation.send.grants.billing=cart,card");
        Instance billing = Instance.start(OrdersApp.class, Containers.only("jetty"), "sessionless.enabled=false",
            "sessionless.propagation.receive.audience=billing",
            "sessionless.propagation.receive.issuers[0].issuer=https://orders.internal",
            "sessionless.propagation.receive.issuers[0].jwks-url=" + orders.uri("/.well-known/jwks.json"),
            "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true")) {
      String token = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build().mint(
          EdgeSession.builder().sessionId("s-1").subject("alice").put("cart", "book").put("card", "4111").build(),
          "orders", Set.of("cart"));
      HttpResponse<String> r = new Browser().get(orders.uri("/internal/checkout?billing="
          + URLEncoder.encode(billing.uri("").toString(), StandardCharsets.UTF_8)), "Authorization", "Bearer " + token);
      assertEquals(200, r.statusCode(), r.body());
      assertEquals("alice InternalTokenAuthentication ROLE_INTERNAL iss=https://orders.internal cart=book same=true",
          r.body(), "billing got orders' re-mint of the edge's token: same user, the cart it carried");
      assertEquals(401, new Browser().get(billing.uri("/internal/whoami"), "Authorization", "Bearer " + token)
          .statusCode(), "the edge's token for orders is not billing's");
      // orders receives on every path, and still serves its keys without a token, ahead of the filter
      HttpResponse<String> jwks = new Browser().get(orders.uri("/.well-known/jwks.json"));
      assertEquals(200, jwks.statusCode(), jwks.body());
      assertTrue(jwks.body().contains("\"kid\":\"orders-1\""), jwks.body());
      assertEquals(401, new Browser().get(orders.uri("/anything")).statusCode(), "every other path needs a token");
    }
  }

  @Test
  void behindSpringSecurityLoginTheLoggedInUserIsTheTokensSubject() throws Exception {
    try (Instance edge = Instance.start(SecureEdgeApp.class, Containers.only("tomcat"),
            "sessionless.keys.file=" + file("session.jwks", KeySet.of(TokenKey.generate("s1", Algorithm.DIR_A256GCM))),
            "sessionless.propagation.send.issuer=" + EDGE,
            "sessionless.propagation.send.keys-file=" + file("edge.jwks",
                KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256))),
            "sessionless.propagation.send.grants.orders=cart");
        Instance orders = orders("tomcat", edge)) {
      Browser browser = new Browser();
      Matcher csrf = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(
          browser.get(edge.uri("/login")).body());
      assertTrue(csrf.find(), "the login page has a CSRF field");
      HttpResponse<String> login = browser.postForm(edge.uri("/login"),
          Map.of("username", "alice", "password", "secret", "_csrf", csrf.group(1)));
      assertEquals(302, login.statusCode(), login.body());
      HttpResponse<String> r = checkout(browser, edge, orders);
      assertEquals(200, r.statusCode(), r.body());
      assertEquals("alice InternalTokenAuthentication ROLE_INTERNAL iss=" + EDGE + " cart=- same=true", r.body(),
          "no subject-attribute: the name of the Spring Security login");
    }
  }

  @Test
  void theJwksEndpointPublishesOnlyPublicKeys() throws Exception {
    try (Instance edge = edge("jetty")) {
      HttpResponse<String> r = new Browser().get(edge.uri("/.well-known/jwks.json"));
      assertEquals(200, r.statusCode());
      assertEquals("application/jwk-set+json", r.headers().firstValue("Content-Type").orElseThrow().split(";")[0]);
      assertTrue(r.body().contains("\"kid\":\"edge-1\""), r.body());
      assertFalse(r.body().contains("\"d\""), "no private member");
      assertFalse(r.body().contains("\"s1\""), "the session keys are not published");
      assertTrue(r.headers().firstValue("Cache-Control").orElseThrow().contains("max-age=300"));
    }
  }

  @Test
  void theOutgoingTokensFollowTheGrantsAndTheMinterSignsWithTheKeyFile() throws Exception {
    try (Instance edge = edge("tomcat")) {
      OutgoingTokens outgoing = edge.context.getBean(OutgoingTokens.class);
      assertEquals("OutgoingTokens[{orders=[cart]}]", outgoing.toString());
      assertThrows(IllegalArgumentException.class, () -> new InternalTokenInterceptor(outgoing, "billing"),
          "no grant, no interceptor");
      assertEquals("InternalTokenMinter[iss=" + EDGE + ", alg=ES256, ttl=60s]",
          edge.context.getBean(InternalTokenMinter.class).toString());
      assertFalse(edge.context.getBean(InternalTokenSigningKeys.class).keyring().status().closed());
    }
  }

  @Test
  void underSpringSecurityTheJwksEndpointIsPublicAndTheRestIsNot() throws Exception {
    try (Instance app = Instance.start(OrdersApp.class, Containers.only("tomcat"), "sessionless.keys.ephemeral=true",
        "sessionless.propagation.send.issuer=" + EDGE,
        "sessionless.propagation.send.keys-file=" + file("edge.jwks", KeySet.of(TokenKey.generate("e", Algorithm.EDDSA))),
        "sessionless.propagation.send.grants.billing=tenant",
        "sessionless.propagation.send.jwks.path=/keys.json")) {
      HttpResponse<String> r = new Browser().get(app.uri("/keys.json"));
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.body().contains("\"alg\":\"EdDSA\""), r.body());
      assertEquals(401, new Browser().get(app.uri("/public/hello")).statusCode(), "other paths keep their rules");
      assertEquals(401, new Browser().get(app.uri("/.well-known/jwks.json")).statusCode(), "not at the default path");
    }
  }

  /** The browser asks the edge to check out, which calls orders with an internal token. */
  private static HttpResponse<String> checkout(Browser browser, Instance edge, Instance orders) throws Exception {
    return browser.get(edge.uri("/checkout?orders=" + URLEncoder.encode(orders.uri("").toString(), StandardCharsets.UTF_8)));
  }
}
