package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * The WebFlux receiving filter's journeys on a real Reactor Netty server, called by a real
 * WebClient over loopback, with the issuer's JWKS served by {@link JwksWebHandler} on another
 * Reactor Netty server and read through the keyring's HTTP source: every refusal the servlet
 * filter's journeys ({@code InternalTokenFilterJourneys}) have, answered the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class InternalTokenWebFilterTest {
  static final String EDGE = "https://edge.example";
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build();
  static final String REFUSED_BODY = "an internal token for this service is required\n";
  private LoopbackNetty jwks;
  private Keyring edgePublic;
  private LoopbackNetty service;

  @BeforeAll
  void startJwks() {
    jwks = new LoopbackNetty(e -> Mono.empty(), JwksWebHandler.builder().keys(edgeKeys).build().at("/jwks.json"));
    edgePublic = Keyring.builder().jwksUrl(jwks.root.resolve("jwks.json")).httpAllowInsecurePlainHttp(true).build();
  }

  @AfterAll
  void stopJwks() {
    edgePublic.close();
    jwks.close();
  }

  @AfterEach
  void stopService() {
    if (service != null) {
      service.close();
      service = null;
    }
  }

  /** What the handler sees: the attribute, and the call context from Reactor's Context (no ThreadLocal). */
  static final WebHandler ECHO = exchange -> ReactiveCallContext.current().zipWith(ReactiveCallContext.token())
      .flatMap(found -> {
        CallContext c = found.getT1();
        InternalToken t = InternalTokenWebFilter.token(exchange).orElseThrow();
        String body = String.join("|", t.issuer(), t.subject().orElse("-"), t.sessionId(),
            t.get("tenant", String.class).orElse("-"), String.valueOf(t.actors()), c.traceId(),
            String.valueOf(c.token().orElseThrow() == t && found.getT2() == t), c.trace().spanId(),
            String.valueOf(CallContext.current().isPresent()));
        return exchange.getResponse().writeWith(Mono.just(
            exchange.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
      });

  WebClient serve(InternalTokenVerifier verifier, Predicate<InternalToken> check, WebHandler handler) {
    service = new LoopbackNetty(handler, InternalTokenWebFilter.builder().verifier(verifier).check(check).build());
    return LoopbackNetty.client(service.root);
  }

  WebClient serve(KeySource keys, Predicate<InternalToken> check) {
    return serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, keys).build(), check, ECHO);
  }

  WebClient serve() {
    return serve(edgePublic, t -> true);
  }

  static String token(String audience) {
    return token(edge, audience);
  }

  static String token(InternalTokenMinter minter, String audience) {
    return minter.mint(EdgeSession.builder().sessionId("s-42").subject("alice").authTime(Instant.now().minusSeconds(60))
        .expiresAt(Instant.now().plusSeconds(600)).put("tenant", "t-7").put("cart", List.of("book")).build(),
        audience, Set.of("tenant"));
  }

  static ResponseEntity<String> get(WebClient client, String... headers) {
    return client.get().uri("/orders").headers(h -> {
      for (int i = 0; i < headers.length; i += 2) {
        h.set(headers[i], headers[i + 1]);
      }
    }).exchangeToMono(r -> r.toEntity(String.class)).block(Duration.ofSeconds(30));
  }

  static void assertRefused(ResponseEntity<String> r, String challenge) {
    assertEquals(401, r.getStatusCode().value(), r.getBody());
    assertEquals(challenge, r.getHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE));
    assertEquals("no-store", r.getHeaders().getFirst(HttpHeaders.CACHE_CONTROL));
    assertEquals("text/plain;charset=UTF-8", r.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE));
    assertEquals(REFUSED_BODY, r.getBody(), "the servlet filter's body, no details");
  }

  @Test
  void verifiedClaimsReachTheHandlerAsAttributeAndInReactorsContext() {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    ResponseEntity<String> r = get(serve(), "Authorization", "Bearer " + token("orders"), "traceparent", traceparent);
    assertEquals(200, r.getStatusCode().value(), r.getBody());
    assertEquals(EDGE + "|alice|s-42|t-7|[" + EDGE + "]|4bf92f3577b34da6a3ce929d0e0e4736|true|00f067aa0ba902b7|false",
        r.getBody(), "the context comes from Reactor's Context; no thread-bound one on the event loop");
  }

  @Test
  void missingTokenGets401WithABearerChallenge() {
    WebClient client = serve();
    assertRefused(get(client), "Bearer");
    assertRefused(get(client, "Authorization", "Basic YWxpY2U6cHc="), "Bearer");
  }

  @Test
  void forgedExpiredWrongAudienceAndUnknownKeyTokensGet401InvalidTokenWithoutDetails() {
    WebClient client = serve();
    FakeClock past = new FakeClock(Instant.now().minus(Duration.ofHours(2)));
    String expired = token(InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).clock(past).build(), "orders");
    String unknownKey = token(InternalTokenMinter.builder().keys(KeySet.of(TokenKey.generate("edge-9", Algorithm.ES256)))
        .issuer(EDGE).build(), "orders");
    String forged = token(InternalTokenMinter.builder().keys(KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)))
        .issuer(EDGE).build(), "orders");
    String[] bad = {token("billing"), "not.a.token", token("orders") + "x", expired, unknownKey, forged};
    for (String t : bad) {
      assertRefused(get(client, "Authorization", "Bearer " + t), "Bearer error=\"invalid_token\"");
    }
  }

  @Test
  void aRevokedSessionGets401AndARevocationSourceThatCannotVouchGets503() {
    RevocationStore store = RevocationStore.inMemory(Clock.systemUTC());
    WebClient client = serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic)
        .revocation(store).build(), t -> true, ECHO);
    String token = token("orders");
    assertEquals(200, get(client, "Authorization", "Bearer " + token).getStatusCode().value());
    store.revokeSession("s-42", Instant.now().plusSeconds(3600));
    assertRefused(get(client, "Authorization", "Bearer " + token), "Bearer error=\"invalid_token\"");
    stopService();
    RevocationSource stale = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "the published list is too stale");
      }

      @Override
      public Optional<Instant> notBefore(String subject) {
        return Optional.empty();
      }
    };
    ResponseEntity<String> r = get(serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic)
        .revocation(stale).build(), t -> true, ECHO), "Authorization", "Bearer " + token);
    assertEquals(503, r.getStatusCode().value());
    assertEquals("5", r.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
    assertFalse(r.getBody().contains("stale"), r.getBody());
  }

  @Test
  void aBrowserSessionTokenAsBearerIsRefusedAndTheHeaderIsConfigurable() {
    String session = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256))).issuer(EDGE)
        .audience("orders").timeToLive(Duration.ofMinutes(30)).build()
        .encode(Claims.builder().subject("alice").put("tenant", "t-7").build());
    assertRefused(get(serve(), "Authorization", "Bearer " + session), "Bearer error=\"invalid_token\"");
    stopService();
    service = new LoopbackNetty(ECHO, InternalTokenWebFilter.builder().header("X-Internal-Token").verifier(
        InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).build()).build());
    WebClient client = LoopbackNetty.client(service.root);
    assertEquals(200, get(client, "X-Internal-Token", "Bearer " + token("orders")).getStatusCode().value());
    assertRefused(get(client, "Authorization", "Bearer " + token("orders")), "Bearer");
  }

  @Test
  void theCheckAfterVerificationCanRefuseAToken() {
    assertRefused(get(serve(edgePublic, t -> false), "Authorization", "Bearer " + token("orders")),
        "Bearer error=\"invalid_token\"");
  }

  @Test
  void aKeySourceOutageGets503WithRetryAfterNotA401() {
    KeySource stale = () -> {
      throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "the issuer's JWKS is too stale");
    };
    ResponseEntity<String> r = get(serve(stale, t -> true), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, r.getStatusCode().value());
    assertNull(r.getHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE), "not the caller's fault");
    assertEquals("5", r.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
    assertEquals("the token cannot be verified now\n", r.getBody());
  }

  @Test
  void aFailingCheckOnThisSideGets503WithoutDetails() {
    ResponseEntity<String> r = get(serve(edgePublic, t -> {
      throw new IllegalStateException("revocation list unreachable");
    }), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, r.getStatusCode().value());
    assertFalse(r.getBody().contains("unreachable"), r.getBody());
  }

  @Test
  void aTokenThatLapsesBeforeItCanBeRemintedIsTheCallersExpiredToken401Not500() {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T10:00:00Z"));
    InternalTokenMinter edgeAtClock = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).clock(clock).build();
    String token = token(edgeAtClock, "orders");
    InternalTokenMinter orders = InternalTokenMinter.builder().issuer("orders")
        .keys(KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256))).clock(clock).build();
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(orders).grant("billing", "tenant").build();
    WebHandler remints = exchange -> ReactiveCallContext.current()
        .map(c -> outgoing.tokenFor(c, "billing"))
        .flatMap(t -> exchange.getResponse().setComplete());
    WebClient client = serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).clock(clock)
        .build(), t -> true, remints);
    clock.set(Instant.parse("2026-01-01T10:00:58Z"));
    assertEquals(200, get(client, "Authorization", "Bearer " + token).getStatusCode().value());
    clock.set(Instant.parse("2026-01-01T10:01:10Z")); // 10 s into the verifier's leeway
    assertRefused(get(client, "Authorization", "Bearer " + token),
        "Bearer error=\"invalid_token\", error_description=\"The access token expired\"");
  }

  @Test
  void anotherFailureOfTheApplicationIsNotTurnedIntoA401() {
    WebClient client = serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).build(),
        t -> true, exchange -> Mono.error(new TokenException(TokenException.Reason.EXPIRED, "another token")));
    assertEquals(500, get(client, "Authorization", "Bearer " + token("orders")).getStatusCode().value(),
        "the caller's token is fresh: an EXPIRED from elsewhere is the application's own failure");
  }
}
