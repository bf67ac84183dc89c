package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Cloud Gateway as the edge, all real on loopback: the gateway is a Boot WebFlux
 * application on Reactor Netty with Spring Security's form login and the {@code
 * SessionlessInternalToken} route filter ({@link EdgeGatewayApp}); the orders and billing
 * services are WebFlux applications on their own Reactor Netty servers with {@link
 * InternalTokenWebFilter}, each verifying its own audience with the gateway's public keys, which
 * it fetches from the gateway's JWKS endpoint (the keyring's HTTP key source).
 */
@Timeout(120)
class GatewayEdgeEndToEndTest {
  private static final String ISSUER = "https://gateway.example";
  private static final Duration GUARD = Duration.ofSeconds(60);

  @TempDir
  static Path dir;
  static Path keysFile;
  static TokenKey edge1 = TokenKey.generate("edge-1", Algorithm.ES256);
  static LoopbackService orders;
  static LoopbackService billing;
  static ConfigurableApplicationContext gateway;
  static URI gatewayRoot;
  static final List<Keyring> serviceKeyrings = new ArrayList<>();

  @BeforeAll
  @Timeout(120)
  static void start() throws Exception {
    keysFile = dir.resolve("gateway-signing-keys.jwks");
    writeKeys(KeySet.of(edge1));
    orders = new LoopbackService("orders");
    billing = new LoopbackService("billing");
    // Verifiers may hold the document a second: the rotation below is quick.
    gateway = EdgeGatewayApp.start(keysFile, orders.root, billing.root, "sessionless.propagation.send.jwks.max-age=1s");
    gatewayRoot = EdgeGatewayApp.root(gateway);
    URI jwks = gatewayRoot.resolve("/.well-known/jwks.json");
    for (LoopbackService service : List.of(orders, billing)) {
      Keyring gatewayPublic = Keyring.builder().jwksUrl(jwks).httpAllowInsecurePlainHttp(true)
          .httpRefreshBounds(Duration.ofMillis(200), Duration.ofSeconds(1)).build();
      serviceKeyrings.add(gatewayPublic);
      service.verifyWith(InternalTokenWebFilter.builder().verifier(InternalTokenVerifier.builder()
          .audience(service.name).issuer(ISSUER, gatewayPublic).build()).build());
    }
  }

  @AfterAll
  static void stop() throws Exception {
    EdgeGatewayApp.closeAll(serviceKeyrings.toArray(AutoCloseable[]::new));
    EdgeGatewayApp.closeAll(gateway, orders, billing);
  }

  private static void writeKeys(KeySet keys) throws Exception {
    Path tmp = Files.createTempFile(dir, "keys", ".tmp");
    Files.writeString(tmp, keys.toJwksWithSecrets());
    Files.move(tmp, keysFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static Browser loggedIn() throws Exception {
    Browser browser = new Browser(gatewayRoot);
    HttpResponse<String> login = browser.login(EdgeGatewayApp.USER, EdgeGatewayApp.PASSWORD);
    assertEquals(302, login.statusCode(), login.body());
    assertEquals("/", login.headers().firstValue("Location").orElse(""), "a successful login goes home");
    return browser;
  }

  @Test
  void aRoutedCallReachesEachServiceWithATokenForThatServicesAudienceAndTheUsersSubject() throws Exception {
    Browser browser = loggedIn();
    assertEquals(204, browser.get("/me/state?cart=3-items&plan=gold").statusCode());
    TraceContext browserTrace = TraceContext.newTrace();

    Map<String, String> atOrders = Browser.lines(browser.get("/orders/api/items", "traceparent", browserTrace.header()));
    assertEquals("orders", atOrders.get("service"), String.valueOf(atOrders));
    assertEquals("/api/items", atOrders.get("path"));
    assertEquals("orders", atOrders.get("aud"));
    assertEquals(EdgeGatewayApp.USER, atOrders.get("sub"));
    assertEquals("[" + ISSUER + "]", atOrders.get("actors"), "the gateway is the actor");
    assertEquals("{}", atOrders.get("state"), "orders has no grant and its route names no state");

    Map<String, String> atBilling = Browser.lines(browser.get("/billing/api/invoices"));
    assertEquals("billing", atBilling.get("aud"), String.valueOf(atBilling));
    assertEquals(EdgeGatewayApp.USER, atBilling.get("sub"));
    assertEquals("{plan=gold}", atBilling.get("state"), "the route narrows the grant [plan, cart] to plan");

    // One session id for both, which is not the session cookie's value.
    assertEquals(atOrders.get("sid"), atBilling.get("sid"));
    assertTrue(atOrders.get("sid").startsWith("ws-"), atOrders.get("sid"));
    assertFalse(atOrders.get("sid").contains(browser.cookies.get("SESSION")), "the cookie never travels as sid");
    // The browser's trace goes on downstream as a child; a call without one starts a new trace.
    TraceContext downstream = TraceContext.parse(atOrders.get("traceparent")).orElseThrow();
    assertEquals(browserTrace.traceId(), downstream.traceId());
    assertNotEquals(browserTrace.spanId(), downstream.spanId());
    assertTrue(TraceContext.parse(atBilling.get("traceparent")).isPresent(), atBilling.get("traceparent"));
  }

  @Test
  void aServiceRefusesATokenMintedForAnotherService() throws Exception {
    Browser browser = loggedIn();
    assertEquals(200, browser.get("/billing/api/invoices").statusCode());
    String billingToken = billing.lastAuthorization.get();
    assertTrue(billingToken != null && billingToken.startsWith("Bearer "), String.valueOf(billingToken));

    HttpResponse<String> replayed = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(orders.root.resolve("/api/items")).header("Authorization", billingToken)
            .timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(401, replayed.statusCode(), replayed.body());
    assertEquals("Bearer error=\"invalid_token\"", replayed.headers().firstValue("WWW-Authenticate").orElse(""));
  }

  @Test
  void theBrowsersSessionCookiesStayAtTheGatewayAndItsOtherCookiesPassOn() throws Exception {
    Browser browser = loggedIn();
    assertTrue(browser.cookies.containsKey("SESSION"), String.valueOf(browser.cookies.keySet()));
    browser.cookies.put("theme", "dark");
    browser.cookies.put("SESSIONLESS", "a-token");
    browser.cookies.put("SESSIONLESS.1", "its-second-chunk");
    browser.cookies.put("SESSIONLESS.1x", "not-a-chunk");

    for (String path : List.of("/orders/api/items", "/billing/api/invoices", "/catalog/public/shelf")) {
      Map<String, String> seen = Browser.lines(browser.get(path));
      assertEquals("theme=dark; SESSIONLESS.1x=not-a-chunk", seen.get("cookie"), path + ": " + seen);
      assertEquals("present", seen.get("authorization"), path);
    }
  }

  @Test
  void withoutLoginTheDefaultPolicyRefusesAtTheGatewayAndForwardSendsNoToken() throws Exception {
    Browser anonymous = new Browser(gatewayRoot);
    // Spring Security first: a guarded route sends the browser to the login page.
    HttpResponse<String> guarded = anonymous.get("/orders/api/items");
    assertEquals(302, guarded.statusCode());
    assertTrue(guarded.headers().firstValue("Location").orElse("").endsWith("/login"));

    // A route Spring Security lets through: the filter's default policy refuses it.
    billing.lastAuthorization.set("untouched");
    orders.lastAuthorization.set("untouched");
    HttpResponse<String> refused = anonymous.get("/unguarded/api/items", "Authorization", "Bearer forged");
    assertEquals(401, refused.statusCode(), refused.body());
    assertEquals("sign in first\n", refused.body());
    assertEquals("no-store", refused.headers().firstValue("Cache-Control").orElse(""));
    assertEquals("untouched", orders.lastAuthorization.get(), "the request never reached the service");

    // The catalog route forwards without a session: no token, and the browser's own header is gone.
    Map<String, String> open = Browser.lines(anonymous.get("/catalog/public/shelf", "Authorization", "Bearer forged"));
    assertEquals("orders", open.get("service"), String.valueOf(open));
    assertEquals("absent", open.get("authorization"));
    assertNull(orders.lastAuthorization.get(), "no Authorization header reached orders");
  }

  @Test
  void aKeyRotationAtTheGatewayIsPickedUpByBothServicesWithoutARestart() throws Exception {
    Browser browser = loggedIn();
    assertEquals("edge-1", Browser.lines(browser.get("/orders/api/items")).get("kid"));

    // Step 1: publish edge-2 ahead of use; both services learn it through their JWKS refresh.
    TokenKey edge2 = TokenKey.generate("edge-2", Algorithm.ES256);
    Instant now = Instant.now();
    writeKeys(KeySet.of(edge1, edge2.withLifecycle(now, now.plus(Duration.ofDays(1)), null, null)));
    Instant guard = Instant.now().plus(GUARD);
    for (Keyring k : serviceKeyrings) {
      while (k.current().key("edge-2").isEmpty()) {
        assertTrue(Instant.now().isBefore(guard), "a service never learned edge-2 from the gateway's JWKS");
        Thread.sleep(50); // polling a condition with a bound, not timing
      }
    }
    // Step 2: edge-2 signs from now on; edge-1 retires and still verifies what is in flight.
    now = Instant.now();
    writeKeys(KeySet.of(edge1.withLifecycle(null, now.minusSeconds(3600), now, now.plus(Duration.ofHours(1))),
        edge2.withLifecycle(now.minusSeconds(1), now.minusSeconds(1), null, null)));
    guard = Instant.now().plus(GUARD);
    Map<String, String> atOrders;
    do {
      assertTrue(Instant.now().isBefore(guard), "the gateway never signed with edge-2");
      Thread.sleep(50); // the gateway re-reads its key file on its own thread
      atOrders = Browser.lines(browser.get("/orders/api/items"));
      assertEquals("orders", atOrders.get("aud"), "every call during the rotation is accepted: " + atOrders);
    } while (!"edge-2".equals(atOrders.get("kid")));

    Map<String, String> atBilling = Browser.lines(browser.get("/billing/api/invoices"));
    assertEquals("edge-2", atBilling.get("kid"), String.valueOf(atBilling));
    assertEquals("billing", atBilling.get("aud"));
    assertEquals(EdgeGatewayApp.USER, atBilling.get("sub"));
    // The JWKS now publishes both keys; the services were never restarted.
    String published = HttpClient.newHttpClient().send(HttpRequest.newBuilder(gatewayRoot.resolve(
        "/.well-known/jwks.json")).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString()).body();
    Set<String> kids = Arrays.stream(published.split("\"kid\"\\s*:\\s*\"")).skip(1)
        .map(s -> s.substring(0, s.indexOf('"'))).collect(Collectors.toSet());
    assertEquals(Set.of("edge-1", "edge-2"), kids, published);
  }
}
