package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * The WebFlux journey on three real Reactor Netty servers over loopback: a browser session at the
 * edge (WebFlux's own {@code WebSession}), the edge calling orders (A) and orders calling billing
 * (B) with real WebClients, the token passed on through Reactor's {@code Context} only (no
 * ThreadLocal on an event loop), each service verifying from its caller's JWKS over real HTTP
 * through the keyring's HTTP source; the edge rotates its signing key during the test and orders
 * picks it up without a restart.
 */
@Timeout(120)
class ReactiveEdgeToServicesTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  <T extends AutoCloseable> T open(T c) {
    open.add(c);
    return c;
  }

  static Mono<Void> write(ServerWebExchange exchange, String body) {
    return exchange.getResponse().writeWith(Mono.just(
        exchange.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
  }

  /** The kid in a compact token's header, as the receiving service saw it. */
  static String kid(ServerWebExchange exchange) {
    String bearer = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
    String header = new String(Base64.getUrlDecoder().decode(bearer.substring(7).split("\\.")[0]), StandardCharsets.UTF_8);
    int at = header.indexOf("\"kid\":\"") + 7;
    return header.substring(at, header.indexOf('"', at));
  }

  /** Billing (B): what reached it. */
  static final WebHandler BILLING = exchange -> ReactiveCallContext.current().flatMap(c -> {
    InternalToken t = c.token().orElseThrow();
    return write(exchange, String.join(",", t.subject().orElse("-"), c.traceId(), t.audience(),
        String.valueOf(t.actors()), String.valueOf(t.stateNames()), t.get("tenant", String.class).orElse("-")));
  });

  /** Orders (A): passes the call on to billing with nothing but the WebClient filter and Reactor's Context. */
  static WebHandler orders(WebClient billing) {
    return exchange -> ReactiveCallContext.token().flatMap(t -> billing.get().uri("/pay").retrieve()
        .bodyToMono(String.class)
        .flatMap(b -> write(exchange, kid(exchange) + ";" + t.stateNames() + ";" + b)));
  }

  /** The edge: /login starts a session, every other path calls orders on the user's behalf. */
  static WebHandler edge(WebClient orders) {
    return exchange -> {
      if (exchange.getRequest().getPath().value().equals("/login")) {
        return exchange.getSession().flatMap(s -> {
          s.getAttributes().put("user", "alice");
          s.getAttributes().put("tenant", "t-7");
          s.getAttributes().put("cart", List.of("book"));
          s.getAttributes().put("csrf", "secret-at-the-edge");
          return exchange.getResponse().setComplete();
        });
      }
      return orders.get().uri("/orders").retrieve().bodyToMono(String.class).flatMap(b -> write(exchange, b));
    };
  }

  /** The three tiers; the edge's keys are live so they can rotate. Returns the edge's root client. */
  WebClient start(KeySource edgeSource, List<Keyring> ordersKeyrings, WebFilter... edgeFilters) {
    KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
    JwksWebHandler edgeJwks = JwksWebHandler.builder().keys(edgeSource).maxAge(Duration.ofSeconds(1)).build();
    JwksWebHandler ordersJwks = JwksWebHandler.builder().keys(orderKeys).build();
    LoopbackNetty ordersHost = open(new LoopbackNetty(e -> Mono.error(new IllegalStateException("not started")),
        ordersJwks.at("/jwks.json")));
    // Billing learns the orders service's keys from its JWKS.
    Keyring ordersPublic = open(Keyring.builder().jwksUrl(ordersHost.root.resolve("jwks.json"))
        .httpAllowInsecurePlainHttp(true).build());
    LoopbackNetty billing = open(new LoopbackNetty(BILLING, InternalTokenWebFilter.builder()
        .verifier(InternalTokenVerifier.builder().audience("billing").issuer(ORDERS, ordersPublic).build()).build()));
    // Orders: the edge's keys through a keyring over the edge's JWKS, refreshed as its max-age asks.
    LoopbackNetty edgeKeysHost = open(new LoopbackNetty(e -> Mono.empty(), edgeJwks.at("/jwks.json")));
    Keyring edgePublic = open(Keyring.builder().jwksUrl(edgeKeysHost.root.resolve("jwks.json"))
        .httpAllowInsecurePlainHttp(true).httpRefreshBounds(Duration.ofMillis(200), Duration.ofSeconds(1)).build());
    ordersKeyrings.add(edgePublic);
    OutgoingTokens ordersOut = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(orderKeys)
        .algorithm(Algorithm.EDDSA).issuer(ORDERS).build()).grant("billing", "tenant").build();
    LoopbackNetty orders = open(new LoopbackNetty(
        orders(LoopbackNetty.client(billing.root, new InternalTokenExchangeFilter(ordersOut, "billing"))),
        ordersJwks.at("/jwks.json"),
        InternalTokenWebFilter.builder().verifier(InternalTokenVerifier.builder().audience("orders")
            .issuer(EDGE, edgePublic).build()).build(),
        // An edge filter behind the receiving one (a service that also serves browsers): calls
        // made while serving a verified token still re-mint from the token.
        EdgeContextWebFilter.builder().build()));
    OutgoingTokens edgeOut = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeSource)
        .issuer(EDGE).build()).grant("orders", "tenant", "cart").build();
    List<WebFilter> filters = new ArrayList<>(List.of(edgeFilters));
    filters.add(edgeJwks.at("/jwks.json"));
    LoopbackNetty edge = open(new LoopbackNetty(
        edge(LoopbackNetty.client(orders.root, new InternalTokenExchangeFilter(edgeOut, "orders"))),
        filters.toArray(new WebFilter[0])));
    return LoopbackNetty.client(edge.root);
  }

  static ResponseEntity<String> get(WebClient browser, String path, String cookie) {
    return browser.get().uri(path).headers(h -> {
      h.set("traceparent", "00-" + TRACE + "-00f067aa0ba902b7-01");
      if (cookie != null) {
        h.set(HttpHeaders.COOKIE, cookie);
      }
    }).exchangeToMono(r -> r.toEntity(String.class)).block(Duration.ofSeconds(30));
  }

  @Test
  void theSubjectAndTraceReachBillingNarrowedAtEachHopThroughAKeyRotationWithoutARestart() throws Exception {
    Instant start = Instant.now();
    TokenKey edge1 = TokenKey.generate("edge-1", Algorithm.ES256);
    TokenKey edge2 = TokenKey.generate("edge-2", Algorithm.ES256);
    AtomicReference<KeySet> edgeKeys = new AtomicReference<>(KeySet.of(edge1));
    List<Keyring> ordersKeyrings = new ArrayList<>();
    WebClient browser = start(edgeKeys::get, ordersKeyrings,
        EdgeContextWebFilter.builder().subjectAttribute("user").build());

    ResponseEntity<String> login = get(browser, "/login", null);
    assertEquals(200, login.getStatusCode().value());
    String cookie = login.getHeaders().getFirst(HttpHeaders.SET_COOKIE).split(";")[0];
    String expected = ";[tenant, cart];alice," + TRACE + ",billing,[" + ORDERS + ", " + EDGE + "],[tenant],t-7";
    ResponseEntity<String> before = get(browser, "/checkout", cookie);
    assertEquals(200, before.getStatusCode().value(), before.getBody());
    assertEquals("edge-1" + expected, before.getBody(),
        "orders got the edge's grant (csrf stays at the edge), billing the orders grant, one trace, the actors chain");

    // Rotation, step 1: publish edge-2 ahead of use; wait (a guard, not timing) until orders has it.
    Instant now = Instant.now();
    edgeKeys.set(KeySet.of(edge1, edge2.withLifecycle(now, now.plus(Duration.ofDays(1)), null, null)));
    Instant guard = Instant.now().plus(Duration.ofMinutes(1));
    while (ordersKeyrings.get(0).current().key("edge-2").isEmpty()) {
      assertTrue(Instant.now().isBefore(guard), "orders never learned edge-2");
      Thread.sleep(20); // polling a condition: the keyring refreshes on its own thread
    }
    // Step 2: edge-2 signs from now on; the running services keep answering.
    now = Instant.now();
    edgeKeys.set(KeySet.of(edge1.withLifecycle(null, start.minusSeconds(1), now, now.plus(Duration.ofHours(1))),
        edge2.withLifecycle(now.minusSeconds(1), now.minusSeconds(1), null, null)));
    ResponseEntity<String> after = get(browser, "/checkout", cookie);
    assertEquals(200, after.getStatusCode().value(), after.getBody());
    assertEquals("edge-2" + expected, after.getBody());
  }

  @Test
  void theAuthenticatedPrincipalIsTheSubjectWhenTheSessionNamesNone() {
    WebFilter principal = (exchange, chain) -> chain.filter(exchange.mutate()
        .principal(Mono.just((Principal) () -> "bob")).build());
    WebClient browser = start(KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)), new ArrayList<>(), principal,
        EdgeContextWebFilter.builder().build());
    ResponseEntity<String> r = get(browser, "/checkout", null);
    assertEquals(200, r.getStatusCode().value(), r.getBody());
    assertNotNull(r.getBody());
    assertTrue(r.getBody().startsWith("edge-1;[];bob," + TRACE + ",billing,"), r.getBody());
  }

  @Test
  void aCallWithoutASignedInUserGets401AtTheEdgeNotA500() {
    WebClient browser = start(KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)), new ArrayList<>(),
        EdgeContextWebFilter.builder().subjectAttribute("user").build());
    ResponseEntity<String> r = get(browser, "/checkout", null);
    assertEquals(401, r.getStatusCode().value(), r.getBody());
    assertEquals("sign in first: this page acts on behalf of a signed-in user\n", r.getBody());
    assertEquals("no-store", r.getHeaders().getFirst(HttpHeaders.CACHE_CONTROL));
  }
}
