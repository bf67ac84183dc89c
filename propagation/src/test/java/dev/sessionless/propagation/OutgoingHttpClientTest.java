package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code java.net.http} wrapper calling a real Jetty service behind {@link
 * InternalTokenFilter}: from the edge (minted from the session) and from a service (re-minted).
 */
class OutgoingHttpClientTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
  static final TraceContext TRACE = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").orElseThrow();
  static LoopbackJetty edgeJwks;
  static LoopbackJetty ordersJwks;
  static Keyring edgePublic;
  static Keyring ordersPublic;
  static LoopbackJetty billing;

  @BeforeAll
  static void start() throws Exception {
    edgeJwks = new LoopbackJetty(JwksServlet.builder().keys(edgeKeys).build());
    ordersJwks = new LoopbackJetty(JwksServlet.builder().keys(orderKeys).build());
    edgePublic = Keyring.builder().jwksUrl(edgeJwks.uri).httpAllowInsecurePlainHttp(true).build();
    ordersPublic = Keyring.builder().jwksUrl(ordersJwks.uri).httpAllowInsecurePlainHttp(true).build();
    InternalTokenFilter filter = InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
        .audience("billing").issuer(EDGE, edgePublic).issuer(ORDERS, ordersPublic).build()).build();
    billing = new LoopbackJetty(context -> {
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new InternalTokenFilterTest.Echo()), "/*");
    });
  }

  @AfterAll
  static void stop() throws Exception {
    billing.close();
    edgePublic.close();
    ordersPublic.close();
    edgeJwks.close();
    ordersJwks.close();
  }

  static EdgeSession session() {
    return EdgeSession.builder().sessionId("s-9").subject("carol").expiresAt(Instant.now().plusSeconds(900))
        .put("tenant", "t-3").put("cart", List.of("tea")).build();
  }

  static OutgoingTokens outgoing(String issuer, KeySet keys, Algorithm alg) {
    return OutgoingTokens.builder()
        .minter(InternalTokenMinter.builder().keys(keys).algorithm(alg).issuer(issuer).build())
        .grant("billing", "tenant").build();
  }

  static HttpRequest request() {
    return HttpRequest.newBuilder(billing.root.resolve("invoices")).timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer stale").build();
  }

  static String[] fields(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    return r.body().split("\\|");
  }

  @Test
  void aCallFromTheEdgeCarriesATokenMintedFromTheSessionAndAChildTraceparent() throws Exception {
    HttpClient http = outgoing(EDGE, edgeKeys, Algorithm.ES256).httpClient(HttpClient.newHttpClient(), "billing");
    try (CallContext.Scope s = CallContext.ofSession(TRACE, () -> Optional.of(session())).open()) {
      String[] f = fields(http.send(request(), HttpResponse.BodyHandlers.ofString()));
      assertEquals(List.of(EDGE, "carol", "s-9", "t-3", "[" + EDGE + "]"), List.of(f).subList(0, 5));
      assertEquals(TRACE.traceId(), f[5], "the same trace");
      assertNotEquals(TRACE.spanId(), f[7], "a new span for the call");
      assertEquals("[tenant]", f[8], "only the granted state");
    }
  }

  @Test
  void sendAsyncAttachesHeadersComputedOnTheCallingThread() throws Exception {
    HttpClient http = outgoing(EDGE, edgeKeys, Algorithm.ES256).httpClient(HttpClient.newHttpClient(), "billing");
    java.util.concurrent.CompletableFuture<HttpResponse<String>> f;
    try (CallContext.Scope s = CallContext.ofSession(TRACE, () -> Optional.of(session())).open()) {
      f = http.sendAsync(request(), HttpResponse.BodyHandlers.ofString());
    }
    assertEquals(TRACE.traceId(), fields(f.get(30, java.util.concurrent.TimeUnit.SECONDS))[5]);
  }

  @Test
  void aCallFromAServiceCarriesANarrowerReMintWithTheActorChain() throws Exception {
    InternalTokenVerifier ordersVerifier = InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).build();
    InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build();
    InternalToken atOrders = ordersVerifier.verify(edge.mint(session(), "orders", List.of("tenant", "cart")));
    HttpClient http = outgoing(ORDERS, orderKeys, Algorithm.EDDSA).httpClient(HttpClient.newHttpClient(), "billing");
    try (CallContext.Scope s = CallContext.of(TRACE, atOrders).open()) {
      String[] f = fields(http.send(request(), HttpResponse.BodyHandlers.ofString()));
      assertEquals(List.of(ORDERS, "carol", "s-9", "t-3", "[" + ORDERS + ", " + EDGE + "]"), List.of(f).subList(0, 5));
      assertEquals("[tenant]", f[8]);
      assertEquals(TRACE.traceId(), f[5]);
    }
  }

  @Test
  void withoutACallContextOrAGrantNothingIsSent() {
    OutgoingTokens out = outgoing(EDGE, edgeKeys, Algorithm.ES256);
    HttpClient http = out.httpClient(HttpClient.newHttpClient(), "billing");
    assertThrows(IllegalStateException.class, () -> http.send(request(), HttpResponse.BodyHandlers.ofString()));
    assertThrows(IllegalArgumentException.class, () -> out.httpClient(HttpClient.newHttpClient(), "orders"));
    try (CallContext.Scope s = CallContext.ofSession(TRACE, Optional::empty).open()) {
      assertThrows(IllegalStateException.class, () -> out.tokenFor("billing"), "no session, no user to act for");
      assertThrows(IllegalArgumentException.class, () -> out.tokenFor("orders"));
    }
  }

  @Test
  void scopesRestoreTheEnclosingContext() {
    CallContext outer = CallContext.ofSession(TRACE, () -> Optional.of(session()));
    CallContext inner = CallContext.ofSession(TraceContext.newTrace(), Optional::empty);
    try (CallContext.Scope a = outer.open()) {
      try (CallContext.Scope b = inner.open()) {
        assertEquals(inner, CallContext.current().orElseThrow());
      }
      assertEquals(outer, CallContext.current().orElseThrow());
      assertEquals("trace=" + TRACE.traceId() + " sid=s-9", outer.toString());
    }
    assertEquals(Optional.empty(), CallContext.current());
  }
}
