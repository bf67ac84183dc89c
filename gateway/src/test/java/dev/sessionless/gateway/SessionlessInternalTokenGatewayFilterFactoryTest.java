package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TraceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The filter's decisions one at a time, on WebFlux's mock exchange: the failures a live gateway
 * cannot be made to have (keys that cannot sign, a session store that fails, a session that has
 * ended), and the exact headers a routed request leaves with. {@link GatewayEdgeEndToEndTest}
 * runs the same filter in a real gateway.
 */
@Timeout(30)
class SessionlessInternalTokenGatewayFilterFactoryTest {
  private static final String ISSUER = "https://gateway.example";
  private static final KeySet KEYS = KeySet.of(TokenKey.generate("gw-1", Algorithm.ES256));
  private static final EdgeSession ALICE = EdgeSession.builder().sessionId("ws-abc").subject("alice")
      .put("plan", "gold").put("cart", "3").build();

  private final AtomicReference<ServerWebExchange> routed = new AtomicReference<>();
  private final GatewayFilterChain chain = exchange -> {
    routed.set(exchange);
    return Mono.empty();
  };

  private static SessionlessInternalTokenGatewayFilterFactory factory(KeySet keys, EdgeSessionResolver sessions) {
    return new SessionlessInternalTokenGatewayFilterFactory(InternalTokenMinter.builder().keys(keys).issuer(ISSUER).build(),
        sessions, "Authorization", Map.of("billing", List.of("plan", "cart")), List.of("SESSIONLESS", "SESSION"));
  }

  private static GatewayFilter filter(EdgeSessionResolver sessions, String audience) {
    return factory(KEYS, sessions).apply(c -> c.setAudience(audience));
  }

  private static MockServerWebExchange browser(String traceparent) {
    MockServerHttpRequest.BaseBuilder<?> r = MockServerHttpRequest.get("/billing/x")
        .header("Authorization", "Bearer from-the-browser")
        .header("Cookie", "SESSION=secret; theme=dark; SESSIONLESS.1=chunk");
    if (traceparent != null) {
      r.header("traceparent", traceparent);
    }
    return MockServerWebExchange.from(r);
  }

  private static InternalToken verify(String authorization, String audience) {
    assertTrue(authorization.startsWith("Bearer "), authorization);
    return InternalTokenVerifier.builder().audience(audience).issuer(ISSUER, KEYS).build()
        .verify(authorization.substring("Bearer ".length()));
  }

  @Test
  void aRoutedRequestLeavesWithTheGatewaysTokenAChildTraceAndNoSessionCookie() {
    TraceContext browserTrace = TraceContext.newTrace();
    filter((e, names) -> Mono.just(ALICE), "billing").filter(browser(browserTrace.header()), chain).block();

    var headers = routed.get().getRequest().getHeaders();
    assertEquals(1, headers.get("Authorization").size(), "the browser's header is replaced, not joined");
    InternalToken token = verify(headers.getFirst("Authorization"), "billing");
    assertEquals("alice", token.subject().orElseThrow());
    assertEquals("ws-abc", token.sessionId());
    assertEquals(List.of(ISSUER), token.actors());
    assertEquals(java.util.Set.of("plan", "cart"), token.stateNames(), "the grant, as the route names none");
    TraceContext child = TraceContext.parse(headers.getFirst("traceparent")).orElseThrow();
    assertEquals(browserTrace.traceId(), child.traceId());
    assertFalse(browserTrace.spanId().equals(child.spanId()));
    assertEquals(List.of("theme=dark"), headers.get("Cookie"));
  }

  @Test
  void aRouteNarrowsTheGrantAndCannotWidenIt() {
    SessionlessInternalTokenGatewayFilterFactory f = factory(KEYS, (e, names) -> Mono.just(ALICE));
    f.apply(c -> c.setAudience("billing").setState(List.of("plan"))).filter(browser(null), chain).block();
    assertEquals(java.util.Set.of("plan"),
        verify(routed.get().getRequest().getHeaders().getFirst("Authorization"), "billing").stateNames());

    IllegalArgumentException wider = assertThrows(IllegalArgumentException.class,
        () -> f.apply(c -> c.setAudience("billing").setState(List.of("plan", "csrf"))));
    assertTrue(wider.getMessage().contains("[csrf]") && wider.getMessage().contains("grants.billing"),
        wider.getMessage());
  }

  @Test
  void aRouteWithoutAnAudienceIsRefusedWhenItIsBuilt() {
    SessionlessInternalTokenGatewayFilterFactory f = factory(KEYS, (e, names) -> Mono.empty());
    assertThrows(IllegalArgumentException.class, () -> f.apply(c -> c.setAudience(" ")));
    assertThrows(IllegalArgumentException.class, () -> f.apply(c -> { }));
    assertEquals(List.of("audience"), f.shortcutFieldOrder());
    assertEquals("SessionlessInternalToken", f.name());
  }

  @Test
  void withoutASessionTheDefaultRefusesWith401AndForwardSendsNoToken() {
    MockServerWebExchange refused = browser(null);
    filter((e, names) -> Mono.empty(), "orders").filter(refused, chain).block();
    assertEquals(HttpStatus.UNAUTHORIZED, refused.getResponse().getStatusCode());
    assertEquals("no-store", refused.getResponse().getHeaders().getCacheControl());
    assertEquals("sign in first\n", refused.getResponse().getBodyAsString().block());
    assertNull(routed.get(), "the request did not go on");

    factory(KEYS, (e, names) -> Mono.empty())
        .apply(c -> c.setAudience("orders").setWithoutSession(SessionlessInternalTokenGatewayFilterFactory.WithoutSession.FORWARD))
        .filter(browser(null), chain).block();
    var headers = routed.get().getRequest().getHeaders();
    assertNull(headers.get("Authorization"), "no token, and not the browser's either");
    assertEquals(List.of("theme=dark"), headers.get("Cookie"));
  }

  @Test
  void aSessionThatHasEndedIsAnswered401NotMinted() {
    EdgeSession ended = EdgeSession.builder().sessionId("s").subject("alice")
        .expiresAt(Instant.now().minusSeconds(5)).build();
    MockServerWebExchange exchange = browser(null);
    filter((e, names) -> Mono.just(ended), "orders").filter(exchange, chain).block();
    assertEquals(HttpStatus.UNAUTHORIZED, exchange.getResponse().getStatusCode());
    assertNull(routed.get());
  }

  @Test
  void keysThatCannotSignNowAreAnOutage503WithRetryAfter() {
    Instant now = Instant.now();
    KeySet notYet = KeySet.of(TokenKey.generate("gw-2", Algorithm.ES256)
        .withLifecycle(now, now.plus(Duration.ofDays(1)), null, null));
    MockServerWebExchange exchange = browser(null);
    factory(notYet, (e, names) -> Mono.just(ALICE)).apply(c -> c.setAudience("orders")).filter(exchange, chain).block();
    assertEquals(HttpStatus.SERVICE_UNAVAILABLE, exchange.getResponse().getStatusCode());
    assertEquals("5", exchange.getResponse().getHeaders().getFirst("Retry-After"));
    assertNull(routed.get());
  }

  @Test
  void aSessionStoreThatFailsIsAnOutage503AndTheChainsOwnErrorsPassOn() {
    MockServerWebExchange exchange = browser(null);
    filter((e, names) -> Mono.error(new IllegalStateException("session store down")), "orders")
        .filter(exchange, chain).block();
    assertEquals(HttpStatus.SERVICE_UNAVAILABLE, exchange.getResponse().getStatusCode());
    assertEquals("5", exchange.getResponse().getHeaders().getFirst("Retry-After"));

    RuntimeException downstream = new RuntimeException("connection refused");
    RuntimeException passed = assertThrows(RuntimeException.class, () -> filter((e, names) -> Mono.just(ALICE), "orders")
        .filter(browser(null), e -> Mono.error(downstream)).block());
    assertSame(downstream, passed, "the gateway's own error handling answers the downstream failure");
  }

  @Test
  void toStringNamesTheRouteNeverATokenOrKey() {
    GatewayFilter f = factory(KEYS, (e, names) -> Mono.just(ALICE)).apply(c -> c.setAudience("billing")
        .setState(List.of("plan")));
    assertEquals("SessionlessInternalToken[audience=billing, state=[plan], without-session=refuse]", f.toString());
    String factory = factory(KEYS, (e, names) -> Mono.just(ALICE)).toString();
    assertFalse(factory.contains("\"d\""), factory);
  }
}
