package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway in the Transaction Token profile ({@code sessionless.propagation.profile=txn-token},
 * issue 40's {@code TokenProfile.TXN_TOKEN}), all real on loopback: the gateway of {@link
 * GatewayEdgeEndToEndTest} ({@link EdgeGatewayApp}, its routes unchanged) with the profile, trust
 * domain and scope set, and a downstream WebFlux service on Reactor Netty whose {@link
 * InternalTokenWebFilter} verifies {@code TXN_TOKEN} for the trust domain with the gateway's
 * public keys from its JWKS endpoint.
 */
@Timeout(120)
class GatewayTransactionTokenTest {
  private static final String ISSUER = "https://gateway.example";
  private static final String TRUST_DOMAIN = "shop.example";

  @TempDir
  static Path dir;
  static LoopbackService orders;
  static ConfigurableApplicationContext gateway;
  static Keyring gatewayPublic;
  static URI gatewayRoot;

  @BeforeAll
  @Timeout(120)
  static void start() throws Exception {
    Path keysFile = dir.resolve("gateway-signing-keys.jwks");
    Files.writeString(keysFile, KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)).toJwksWithSecrets());
    orders = new LoopbackService("orders");
    gateway = EdgeGatewayApp.start(keysFile, orders.root, orders.root, "sessionless.propagation.profile=txn-token",
        "sessionless.propagation.send.trust-domain=" + TRUST_DOMAIN, "sessionless.propagation.send.scope=orders.read");
    gatewayRoot = EdgeGatewayApp.root(gateway);
    gatewayPublic = Keyring.builder().jwksUrl(gatewayRoot.resolve("/.well-known/jwks.json"))
        .httpAllowInsecurePlainHttp(true).build();
    orders.verifyWith(InternalTokenWebFilter.builder().verifier(InternalTokenVerifier.builder()
        .profile(TokenProfile.TXN_TOKEN).audience(TRUST_DOMAIN).issuer(ISSUER, gatewayPublic).build()).build());
  }

  @AfterAll
  static void stop() throws Exception {
    EdgeGatewayApp.closeAll(gatewayPublic, gateway, orders);
  }

  @Test
  void aRoutedCallCarriesATransactionTokenInTxnTokenThatTheServiceAcceptsAndNoBrowserCookie() throws Exception {
    Browser browser = new Browser(gatewayRoot);
    assertEquals(302, browser.login(EdgeGatewayApp.USER, EdgeGatewayApp.PASSWORD).statusCode());
    assertTrue(browser.cookies.containsKey("SESSION"), String.valueOf(browser.cookies.keySet()));
    browser.cookies.put("theme", "dark");
    TraceContext browserTrace = TraceContext.newTrace();

    HttpResponse<String> r = browser.get("/orders/api/items", "traceparent", browserTrace.header());
    assertEquals(200, r.statusCode(), r.body());
    Map<String, String> seen = Browser.lines(r);
    assertEquals("txn-token", seen.get("profile"), String.valueOf(seen));
    assertEquals(TRUST_DOMAIN, seen.get("aud"), "a Transaction Token's audience is the trust domain");
    assertEquals(EdgeGatewayApp.USER, seen.get("sub"));
    assertEquals("[orders.read]", seen.get("scope"), "sessionless.propagation.send.scope");
    assertEquals("present", seen.get("txn-token"));
    assertEquals("absent", seen.get("authorization"), "no Bearer token beside it");
    assertEquals("theme=dark", seen.get("cookie"), "the browser's session cookie stays at the gateway");
    assertTrue(seen.get("rctx").contains(browserTrace.traceId()), "the browser's trace id in rctx: " + seen);
  }

  @Test
  void aTxnTokenTheBrowserSendsNeverReachesTheService() throws Exception {
    Browser anonymous = new Browser(gatewayRoot);
    // The catalog route forwards a request without a session, without a token.
    Map<String, String> open = Browser.lines(anonymous.get("/catalog/public/shelf", "Txn-Token", "forged"));
    assertEquals("orders", open.get("service"), String.valueOf(open));
    assertEquals("absent", open.get("txn-token"), "the browser's own Txn-Token is removed");

    Browser browser = new Browser(gatewayRoot);
    assertEquals(302, browser.login(EdgeGatewayApp.USER, EdgeGatewayApp.PASSWORD).statusCode());
    HttpResponse<String> r = browser.get("/orders/api/items", "Txn-Token", "forged");
    assertEquals(200, r.statusCode(), "the gateway's token replaces the browser's: " + r.body());
    assertEquals(EdgeGatewayApp.USER, Browser.lines(r).get("sub"));
  }
}
