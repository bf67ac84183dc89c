package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Transaction Token profile: the same minter and verifier as the internal profile, with the
 * draft's claims ({@link TransactionTokens}) and the same narrowing, expiry and refusals.
 */
@Timeout(30)
class TransactionTokenProfileTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final String DOMAIN = "trust-domain.example";
  static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
  static final KeySet EDGE_KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final KeySet ORDER_KEYS = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
  static final TraceContext TRACE = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
      .orElseThrow();

  private final FakeClock clock = new FakeClock(T0);

  InternalTokenMinter edge() {
    return InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE).clock(clock)
        .profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).scope("trade.stocks", "trade.read").build();
  }

  InternalTokenMinter orders() {
    return InternalTokenMinter.builder().keys(ORDER_KEYS).algorithm(Algorithm.EDDSA).issuer(ORDERS).clock(clock)
        .profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).scope("trade.stocks").build();
  }

  InternalTokenVerifier verifier(String trustDomain) {
    return InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN).audience(trustDomain)
        .issuer(EDGE, publicOf(EDGE_KEYS)).issuer(ORDERS, publicOf(ORDER_KEYS)).clock(clock).build();
  }

  static KeySet publicOf(KeySet keys) {
    return KeySet.of(keys.keys().stream().map(TokenKey::publicOnly).toList());
  }

  static EdgeSession session() {
    return EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(T0.plusSeconds(1800))
        .authTime(T0.minusSeconds(60)).put("cart", List.of("book", "pen")).put("tenant", "t-1").build();
  }

  static String header(String token) {
    return new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);
  }

  static Reason refused(InternalTokenVerifier v, String token) {
    TokenException e = assertThrows(TokenException.class, () -> v.verify(token));
    assertTrue(e.reason().isRejection(), e.reason() + " is a rejection");
    return e.reason();
  }

  @Test
  void edgeMintsATransactionTokenWithTheDraftsClaims() {
    String token = edge().mint(session(), "orders", Set.of("cart", "absent"), TRACE);
    assertTrue(header(token).contains("\"typ\":\"txntoken+jwt\""), header(token));
    InternalToken t = verifier(DOMAIN).verify(token);
    assertEquals(TokenProfile.TXN_TOKEN, t.profile());
    assertEquals(DOMAIN, t.audience(), "aud is the trust domain, not the callee");
    assertEquals(EDGE, t.issuer());
    assertEquals("alice", t.subject().orElseThrow());
    UUID.fromString(t.transactionId().orElseThrow());
    assertEquals(Set.of("trade.stocks", "trade.read"), t.scope());
    assertEquals(EDGE, t.claim(TransactionTokens.REQUESTING_WORKLOAD_CLAIM, String.class).orElseThrow());
    assertEquals(Map.of(TransactionTokens.TRACE_ID, TRACE.traceId()), t.requestContext());
    assertEquals(Set.of("cart"), t.stateNames(), "only the granted values the session has, in tctx");
    assertEquals(List.of("book", "pen"), t.get("cart", List.class).orElseThrow());
    assertEquals(Map.of("cart", List.of("book", "pen")),
        t.claim(TransactionTokens.TRANSACTION_CONTEXT_CLAIM, Map.class).orElseThrow());
    assertTrue(t.token().stateNames().isEmpty(), "no st: the values are in tctx");
    assertEquals("s-1", t.sessionId());
    assertEquals(T0.minusSeconds(60), t.authTime().orElseThrow());
    assertEquals(List.of(EDGE), t.actors());
    assertEquals(T0, t.token().issuedAt());
    assertEquals(T0.plusSeconds(60), t.expiresAt(), "short-lived: the minter's 60 s");
  }

  @Test
  void remintKeepsTxnSubAudAndRequestContextAndOnlyNarrows() {
    InternalToken atOrders = verifier(DOMAIN).verify(edge().mint(session(), "orders", Set.of("cart", "tenant"), TRACE));
    clock.advance(Duration.ofSeconds(5));
    InternalToken atBilling = verifier(DOMAIN).verify(orders().remint(atOrders, "billing", Set.of("tenant"),
        Set.of("trade.stocks")));
    assertEquals(atOrders.transactionId(), atBilling.transactionId());
    assertEquals("alice", atBilling.subject().orElseThrow());
    assertEquals(DOMAIN, atBilling.audience());
    assertEquals(atOrders.requestContext(), atBilling.requestContext());
    assertEquals(Set.of("trade.stocks"), atBilling.scope());
    assertEquals(Set.of("tenant"), atBilling.stateNames());
    assertEquals("t-1", atBilling.get("tenant", String.class).orElseThrow());
    assertEquals(List.of(ORDERS, EDGE), atBilling.actors());
    assertEquals(ORDERS, atBilling.claim(TransactionTokens.REQUESTING_WORKLOAD_CLAIM, String.class).orElseThrow());
    assertEquals(atOrders.expiresAt(), atBilling.expiresAt(), "cut to the parent's expiry");
    InternalToken kept = verifier(DOMAIN).verify(orders().remint(atOrders, "billing", Set.of("cart")));
    assertEquals(atOrders.scope(), kept.scope(), "without a scope, the parent's");
  }

  @Test
  void minterRefusesToWidenTheScopeOnRemint() {
    InternalToken atOrders = verifier(DOMAIN).verify(edge().mint(session(), "orders", Set.of(), TRACE));
    assertThrows(IllegalArgumentException.class,
        () -> orders().remint(atOrders, "billing", Set.of(), Set.of("trade.stocks", "admin")));
  }

  @Test
  void internalProfileTokenIsRefusedWhereATransactionTokenIsExpectedAndViceVersa() {
    String internal = InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE).clock(clock).build()
        .mint(session(), DOMAIN, Set.of("cart"));
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(verifier(DOMAIN), internal));
    String txn = edge().mint(session(), "orders", Set.of("cart"));
    InternalTokenVerifier internalVerifier = InternalTokenVerifier.builder().audience(DOMAIN)
        .issuer(EDGE, publicOf(EDGE_KEYS)).clock(clock).build();
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(internalVerifier, txn));
  }

  @Test
  void tokenOfAnotherTrustDomainIsRefusedAsWrongAudience() {
    assertEquals(Reason.WRONG_AUDIENCE, refused(verifier("other-domain.example"),
        edge().mint(session(), "orders", Set.of())));
  }

  @Test
  void expiredTransactionTokenIsRefused() {
    String token = edge().mint(session(), "orders", Set.of());
    clock.advance(Duration.ofSeconds(60 + 31));
    assertEquals(Reason.EXPIRED, refused(verifier(DOMAIN), token));
  }

  @Test
  void forgedTransactionTokensAreRefused() {
    String token = edge().mint(session(), "orders", Set.of("cart"));
    String[] p = token.split("\\.");
    String payload = new String(Base64.getUrlDecoder().decode(p[1]), StandardCharsets.UTF_8)
        .replace("\"alice\"", "\"mallory\"");
    String tampered = p[0] + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + p[2];
    assertEquals(Reason.BAD_SIGNATURE, refused(verifier(DOMAIN), tampered));
    KeySet impostor = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    String signedByAnother = InternalTokenMinter.builder().keys(impostor).issuer(EDGE).clock(clock)
        .profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).scope("trade.stocks").build()
        .mint(session(), "orders", Set.of());
    assertEquals(Reason.BAD_SIGNATURE, refused(verifier(DOMAIN), signedByAnother));
  }

  /** A re-mint by orders, signed by hand: what a buggy minter could write. */
  String byHand(Claims claims) {
    return TokenCodec.builder().keys(ORDER_KEYS).algorithm(Algorithm.EDDSA).issuer(ORDERS).audience(DOMAIN)
        .timeToLive(Duration.ofSeconds(30)).clock(clock).tokenType(TransactionTokens.TOKEN_TYPE).build().encode(claims);
  }

  static Claims.Builder remint(String scope, List<String> parentScope, Map<String, Object> tctx, List<String> parentSt) {
    return Claims.builder().subject("alice").claim("sid", "s-1").claim("txn", "t-0001").claim("scope", scope)
        .claim("req_wl", ORDERS).claim("rctx", Map.of()).claim("tctx", tctx)
        .claim("act", Map.of("sub", ORDERS, "act", Map.of("sub", EDGE)))
        .claim("sl_parent", Map.of("exp", T0.plusSeconds(60).getEpochSecond(), "st", parentSt, "scope", parentScope));
  }

  @Test
  void widenedScopeOrTransactionContextOnRemintIsRefusedAsWidened() {
    assertEquals(Reason.WIDENED, refused(verifier(DOMAIN),
        byHand(remint("trade.stocks admin", List.of("trade.stocks"), Map.of(), List.of()).build())));
    assertEquals(Reason.WIDENED, refused(verifier(DOMAIN),
        byHand(remint("trade.stocks", List.of("trade.stocks"), Map.of("role", "admin"), List.of("tenant")).build())));
    InternalToken honest = verifier(DOMAIN).verify(
        byHand(remint("trade.stocks", List.of("trade.stocks", "trade.read"), Map.of("tenant", "t-1"),
            List.of("tenant", "cart")).build()));
    assertEquals(Set.of("trade.stocks"), honest.scope(), "the same token, narrowed, passes");
  }

  @Test
  void transactionTokenWithoutTheDraftsRequiredClaimsIsRefused() {
    Claims.Builder full = remint("trade.stocks", List.of("trade.stocks"), Map.of(), List.of());
    assertEquals(Reason.MISSING_CLAIM, refused(verifier(DOMAIN), byHand(full.removeClaim("txn").build())));
    assertEquals(Reason.MISSING_CLAIM, refused(verifier(DOMAIN),
        byHand(remint("trade.stocks", List.of("trade.stocks"), Map.of(), List.of()).removeClaim("scope").build())));
    assertEquals(Reason.MALFORMED, refused(verifier(DOMAIN),
        byHand(remint("trade.stocks", List.of("trade.stocks"), Map.of(), List.of()).claim("tctx", "x").build())));
    assertEquals(Reason.MALFORMED, refused(verifier(DOMAIN),
        byHand(remint("trade.stocks", List.of("trade.stocks"), Map.of(), List.of()).claim("req_wl", EDGE).build())),
        "the current actor is the requesting workload");
  }

  @Test
  void aSessionWithoutSubjectMintsNoTransactionToken() {
    EdgeSession anonymous = EdgeSession.builder().sessionId("s-2").expiresAt(T0.plusSeconds(600)).build();
    assertThrows(NoSessionException.class, () -> edge().mint(anonymous, "orders", Set.of()));
  }

  @Test
  void theTransactionTokenProfileNeedsItsTrustDomainAndScope() {
    assertThrows(IllegalStateException.class, () -> InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE)
        .profile(TokenProfile.TXN_TOKEN).scope("a").build());
    InternalTokenMinter reMintOnly = InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE)
        .profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).build();
    assertThrows(IllegalStateException.class, () -> reMintOnly.mint(session(), "orders", Set.of()),
        "a service that only re-mints needs no scope; minting at the edge does");
    assertThrows(IllegalStateException.class, () -> InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE)
        .trustDomain(DOMAIN).build());
  }

  @Test
  void headersCarryTheBareTokenInTxnTokenAndABearerTokenInAuthorization() {
    assertEquals("abc.def.ghi", TokenProfile.TXN_TOKEN.tokenOf(" abc.def.ghi "));
    assertEquals(null, TokenProfile.TXN_TOKEN.tokenOf("Bearer abc.def.ghi"));
    assertEquals(null, TokenProfile.TXN_TOKEN.tokenOf("a.b.c, d.e.f"), "exactly one token");
    assertEquals("abc.def.ghi", TokenProfile.INTERNAL.tokenOf("Bearer abc.def.ghi"));
    assertEquals("x", TokenProfile.TXN_TOKEN.headerValue("x"));
    assertEquals("Bearer x", TokenProfile.INTERNAL.headerValue("x"));
    OutgoingTokens out = OutgoingTokens.builder().minter(edge()).grant("orders", "cart").build();
    assertEquals(TransactionTokens.HEADER, out.header());
    CallContext context = CallContext.ofSession(TRACE, () -> java.util.Optional.of(session()));
    String sent = out.headersFor(context, "orders").get("Txn-Token");
    assertEquals(TRACE.traceId(), verifier(DOMAIN).verify(sent).requestContext().get(TransactionTokens.TRACE_ID));
  }
}
