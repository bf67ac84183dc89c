package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Minting at the edge and re-minting in a service, verified downstream with keys fetched from
 * each issuer's {@link JwksServlet} in a real Jetty through the keyring's HTTP source.
 */
class InternalTokenMintingTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

  private final FakeClock clock = new FakeClock(T0);
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-es256", Algorithm.ES256),
      TokenKey.generate("edge-eddsa", Algorithm.EDDSA));
  static final KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
  static LoopbackJetty edgeJwks;
  static LoopbackJetty ordersJwks;
  static Keyring edgePublic;
  static Keyring ordersPublic;

  /** The issuers' JWKS endpoints and the downstream keyrings, shared by the tests (read only). */
  @BeforeAll
  static void start() throws Exception {
    edgeJwks = new LoopbackJetty(JwksServlet.builder().keys(edgeKeys).build());
    ordersJwks = new LoopbackJetty(JwksServlet.builder().keys(orderKeys).build());
    edgePublic = Keyring.builder().jwksUrl(edgeJwks.uri).httpAllowInsecurePlainHttp(true).build();
    ordersPublic = Keyring.builder().jwksUrl(ordersJwks.uri).httpAllowInsecurePlainHttp(true).build();
  }

  @AfterAll
  static void stop() throws Exception {
    edgePublic.close();
    ordersPublic.close();
    edgeJwks.close();
    ordersJwks.close();
  }

  InternalTokenMinter edge(Algorithm alg) {
    return InternalTokenMinter.builder().keys(edgeKeys).algorithm(alg).issuer(EDGE).clock(clock).build();
  }

  InternalTokenMinter orders() {
    return InternalTokenMinter.builder().keys(orderKeys).algorithm(Algorithm.EDDSA).issuer(ORDERS).clock(clock).build();
  }

  /** The orders service: accepts the edge's tokens for "orders". */
  InternalTokenVerifier ordersVerifier() {
    return InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).clock(clock).build();
  }

  /** The billing service: called by the edge and by orders. */
  InternalTokenVerifier billingVerifier() {
    return InternalTokenVerifier.builder().audience("billing").issuer(EDGE, edgePublic).issuer(ORDERS, ordersPublic)
        .clock(clock).build();
  }

  static EdgeSession session(Instant exp) {
    return EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(exp)
        .put("cart", List.of("book", "pen")).put("tenant", "t-1").put("csrf", "secret-ish").build();
  }

  static Reason refused(InternalTokenVerifier v, String token) {
    TokenException e = assertThrows(TokenException.class, () -> v.verify(token));
    assertTrue(e.reason().isRejection(), e.reason() + " is a rejection");
    return e.reason();
  }

  @Test
  void mintedTokenCarriesSubjectSessionIdNarrowedStateAndTheEdgeAsActor() {
    for (Algorithm alg : new Algorithm[] {Algorithm.ES256, Algorithm.EDDSA}) {
      String token = edge(alg).mint(session(T0.plusSeconds(1800)), "orders", Set.of("cart", "absent"));
      InternalToken t = ordersVerifier().verify(token);
      assertEquals(EDGE, t.issuer());
      assertEquals("orders", t.audience());
      assertEquals("alice", t.subject().orElseThrow());
      assertEquals("s-1", t.sessionId());
      assertEquals(Set.of("cart"), t.stateNames(), "only the named values the session has");
      assertEquals(List.of("book", "pen"), t.get("cart", List.class).orElseThrow());
      assertEquals(List.of(EDGE), t.actors());
      assertEquals(alg, t.token().algorithm());
      assertEquals(InternalTokens.TOKEN_TYPE, "sl-internal+jwt");
    }
  }

  @Test
  void lifetimeIsSixtySecondsByDefault() {
    InternalToken t = ordersVerifier().verify(edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of()));
    assertEquals(T0.plusSeconds(60), t.expiresAt());
    assertEquals(T0.plusSeconds(1800), t.parentExpiresAt());
  }

  @Test
  void lifetimeNeverGoesBeyondTheSessionsExpiry() {
    InternalToken t = ordersVerifier().verify(edge(Algorithm.ES256).mint(session(T0.plusSeconds(20)), "orders", Set.of()));
    assertEquals(T0.plusSeconds(20), t.expiresAt());
  }

  @Test
  void anEndedSessionMintsNothing() {
    TokenException e = assertThrows(TokenException.class,
        () -> edge(Algorithm.ES256).mint(session(T0), "orders", Set.of("cart")));
    assertEquals(Reason.EXPIRED, e.reason());
  }

  @Test
  void mintingFromAVerifiedBrowserSessionTokenCarriesItsIdSubjectExpiryAndState() {
    TokenCodec browser = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256)))
        .issuer(EDGE).audience("shop").timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    SessionToken s = browser.decode(browser.encode(Claims.builder().subject("bob")
        .put("cart", Map.of("items", 3)).put("theme", "dark").build()));
    InternalToken t = ordersVerifier().verify(edge(Algorithm.EDDSA).mint(EdgeSession.of(s), "orders", Set.of("cart")));
    assertEquals(s.id(), t.sessionId());
    assertEquals("bob", t.subject().orElseThrow());
    assertEquals(Map.of("items", 3), t.get("cart", Map.class).orElseThrow());
    assertEquals(Set.of("cart", "theme"), t.parentStateNames());
    assertEquals(s.expiresAt(), t.parentExpiresAt());
  }

  @Test
  void remintNarrowsStateAndLifetimeAndNestsTheActorChain() {
    InternalToken atOrders = ordersVerifier().verify(
        edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of("cart", "tenant")));
    clock.advance(Duration.ofSeconds(15));
    String token = orders().remint(atOrders, "billing", Set.of("tenant", "csrf"));
    InternalToken atBilling = billingVerifier().verify(token);
    assertEquals(ORDERS, atBilling.issuer());
    assertEquals(List.of(ORDERS, EDGE), atBilling.actors());
    assertEquals("s-1", atBilling.sessionId());
    assertEquals("alice", atBilling.subject().orElseThrow());
    assertEquals(Set.of("tenant"), atBilling.stateNames(), "csrf never reached orders, so it cannot go on");
    assertEquals(atOrders.expiresAt(), atBilling.expiresAt(), "45 s left of the parent, under the 60 s default");
    assertEquals(atOrders.expiresAt(), atBilling.parentExpiresAt());
  }

  @Test
  void remintOfAnExpiredParentIsRefused() {
    InternalToken atOrders = ordersVerifier().verify(
        edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of("cart")));
    clock.advance(Duration.ofSeconds(60));
    TokenException e = assertThrows(TokenException.class, () -> orders().remint(atOrders, "billing", Set.of()));
    assertEquals(Reason.EXPIRED, e.reason());
  }

  /** A clock one second later at every read: whatever reads it twice sees two different seconds. */
  static final class FakeTickingClock extends java.time.Clock {
    private final java.util.concurrent.atomic.AtomicLong millis;

    FakeTickingClock(Instant start) {
      this.millis = new java.util.concurrent.atomic.AtomicLong(start.toEpochMilli());
    }

    @Override
    public long millis() {
      return millis.getAndAdd(1000);
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public java.time.Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  @Timeout(60)
  void aRemintNeverOutlivesItsParentWhenTheSecondTicksOverBetweenCappingAndStamping() {
    InternalToken atOrders = ordersVerifier().verify(
        edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of("cart", "tenant")));
    clock.advance(Duration.ofSeconds(30));
    InternalTokenMinter ticking = InternalTokenMinter.builder().keys(orderKeys).algorithm(Algorithm.EDDSA)
        .issuer(ORDERS).clock(new FakeTickingClock(T0.plusSeconds(30))).build();
    InternalToken atBilling = billingVerifier().verify(ticking.remint(atOrders, "billing", Set.of("tenant")));
    assertEquals(atOrders.expiresAt(), atBilling.expiresAt(), "capped to the parent's 30 s left, stamped from "
        + "the same reading of the clock");
    assertEquals(T0.plusSeconds(30), atBilling.token().issuedAt());

    InternalTokenMinter tickingEdge = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE)
        .clock(new FakeTickingClock(T0.plusSeconds(30))).build();
    InternalToken fromSession = ordersVerifier().verify(
        tickingEdge.mint(session(T0.plusSeconds(50)), "orders", Set.of()));
    assertEquals(T0.plusSeconds(50), fromSession.expiresAt(), "never past the session's end");
  }

  /** Signs whatever claims are given as the orders service, bypassing the minter's rules. */
  String byHand(Claims claims) {
    return TokenCodec.builder().keys(orderKeys).algorithm(Algorithm.EDDSA).issuer(ORDERS).audience("billing")
        .timeToLive(Duration.ofSeconds(60)).clock(clock).tokenType(InternalTokens.TOKEN_TYPE).build().encode(claims);
  }

  static Claims.Builder remintedBy(String actor, long parentExp, List<String> parentNames) {
    return Claims.builder().subject("alice").claim("sid", "s-1")
        .claim("act", Map.of("sub", actor, "act", Map.of("sub", EDGE)))
        .claim("sl_parent", Map.of("exp", parentExp, "st", parentNames));
  }

  @Test
  void widenedRemintWithStateTheParentLackedIsRefusedAsWidened() {
    long parentExp = T0.plusSeconds(60).getEpochSecond();
    String widened = byHand(remintedBy(ORDERS, parentExp, List.of("tenant")).put("tenant", "t-1")
        .put("role", "admin").timeToLive(Duration.ofSeconds(30)).build());
    assertEquals(Reason.WIDENED, refused(billingVerifier(), widened));
    String honest = byHand(remintedBy(ORDERS, parentExp, List.of("tenant")).put("tenant", "t-1")
        .timeToLive(Duration.ofSeconds(30)).build());
    assertEquals(Set.of("tenant"), billingVerifier().verify(honest).stateNames(), "the same token, narrowed, passes");
  }

  @Test
  void widenedRemintOutlivingItsParentIsRefusedAsWidened() {
    long parentExp = T0.plusSeconds(10).getEpochSecond();
    String widened = byHand(remintedBy(ORDERS, parentExp, List.of()).timeToLive(Duration.ofSeconds(60)).build());
    assertEquals(Reason.WIDENED, refused(billingVerifier(), widened));
  }

  /**
   * What the README's limit says, pinned: the receiver checks a re-mint against the bounds its
   * signer wrote, not against the parent token, which it never sees. A trusted middle service
   * that lies about its parent (a later expiry, more state names) passes; only the minter
   * enforces "narrower".
   */
  @Test
  @Timeout(60)
  void aTrustedIssuersLieAboutItsParentIsNotDetectedByTheReceiverOnlyTheMinterNarrows() {
    InternalToken atOrders = ordersVerifier().verify(
        edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of("tenant")));
    assertEquals(T0.plusSeconds(60), atOrders.expiresAt());
    long lie = T0.plusSeconds(3600).getEpochSecond();
    String wider = byHand(remintedBy(ORDERS, lie, List.of("tenant", "role")).put("tenant", "t-1")
        .put("role", "admin").timeToLive(Duration.ofSeconds(3600)).build());
    InternalToken accepted = billingVerifier().verify(wider);
    assertEquals(T0.plusSeconds(3600), accepted.expiresAt(), "outlives the real parent by 59 minutes");
    assertEquals(Set.of("tenant", "role"), accepted.stateNames(), "carries what the real parent never had");
    InternalToken minted = billingVerifier().verify(orders().remint(atOrders, "billing", Set.of("tenant", "role")));
    assertEquals(Set.of("tenant"), minted.stateNames(), "the minter drops what the parent lacked");
    assertEquals(atOrders.expiresAt(), minted.expiresAt(), "and caps the lifetime to the parent's");
  }

  @Test
  void mintCarriesTheSessionsAuthTimeAndRemintKeepsIt() {
    Instant login = T0.minusSeconds(300);
    EdgeSession session = EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(T0.plusSeconds(1800))
        .authTime(login.plusMillis(700)).put("tenant", "t-1").build();
    InternalToken atOrders = ordersVerifier().verify(edge(Algorithm.ES256).mint(session, "orders", Set.of("tenant")));
    assertEquals(login, atOrders.authTime().orElseThrow(), "whole seconds, as auth_time is");
    InternalToken atBilling = billingVerifier().verify(orders().remint(atOrders, "billing", Set.of("tenant")));
    assertEquals(login, atBilling.authTime().orElseThrow(), "a re-mint keeps the login time");
    InternalToken none = ordersVerifier().verify(edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders",
        Set.of()));
    assertTrue(none.authTime().isEmpty(), "a session without a login time mints tokens without one");
    assertTrue(billingVerifier().verify(orders().remint(none, "billing", Set.of())).authTime().isEmpty());

    TokenCodec browser = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256)))
        .issuer(EDGE).audience("shop").timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    EdgeSession fromToken = EdgeSession.of(browser.decode(browser.encode(Claims.builder().subject("bob")
        .authTime(login).build())));
    assertEquals(login, ordersVerifier().verify(edge(Algorithm.EDDSA).mint(fromToken, "orders", Set.of()))
        .authTime().orElseThrow(), "EdgeSession.of carries the session token's auth_time");
  }

  static Claims.Builder remintedWithin(long parentExp, Long parentAuthTime) {
    Map<String, Object> bounds = new java.util.LinkedHashMap<>();
    bounds.put("exp", parentExp);
    bounds.put("st", List.of());
    if (parentAuthTime != null) {
      bounds.put("auth_time", parentAuthTime);
    }
    return Claims.builder().subject("alice").claim("sid", "s-1")
        .claim("act", Map.of("sub", ORDERS, "act", Map.of("sub", EDGE))).claim("sl_parent", bounds)
        .timeToLive(Duration.ofSeconds(30));
  }

  @Test
  void remintWithALaterAuthTimeThanItsParentIsRefusedAsWidened() {
    long parentExp = T0.plusSeconds(60).getEpochSecond();
    Instant login = T0.minusSeconds(300);
    long parentAuth = login.getEpochSecond();
    assertEquals(Reason.WIDENED, refused(billingVerifier(),
        byHand(remintedWithin(parentExp, parentAuth).authTime(login.plusSeconds(1)).build())),
        "a later login time would escape a log-out-everywhere");
    assertEquals(Reason.WIDENED, refused(billingVerifier(),
        byHand(remintedWithin(parentExp, null).authTime(login).build())), "a login time the parent did not have");
    assertEquals(login, billingVerifier().verify(byHand(remintedWithin(parentExp, parentAuth).authTime(login).build()))
        .authTime().orElseThrow(), "the parent's own login time passes");
    assertEquals(login.minusSeconds(5), billingVerifier().verify(byHand(remintedWithin(parentExp, parentAuth)
        .authTime(login.minusSeconds(5)).build())).authTime().orElseThrow(), "an earlier one is narrower");
    assertTrue(billingVerifier().verify(byHand(remintedWithin(parentExp, parentAuth).build())).authTime().isEmpty(),
        "dropping it is narrower too: a revocation source then refuses it once the subject logs out everywhere");
  }

  @Test
  void tokenWithoutItsBoundsOrSessionIdOrActorIsRefused() {
    assertEquals(Reason.MISSING_CLAIM, refused(billingVerifier(), byHand(Claims.builder().subject("alice")
        .claim("sid", "s-1").claim("act", Map.of("sub", ORDERS)).build())));
    assertEquals(Reason.MISSING_CLAIM, refused(billingVerifier(), byHand(Claims.builder()
        .claim("act", Map.of("sub", ORDERS)).claim("sl_parent", Map.of("exp", T0.plusSeconds(60).getEpochSecond(),
            "st", List.of())).build())));
    assertEquals(Reason.MISSING_CLAIM, refused(billingVerifier(), byHand(Claims.builder().claim("sid", "s-1")
        .claim("sl_parent", Map.of("exp", T0.plusSeconds(60).getEpochSecond(), "st", List.of())).build())));
  }

  @Test
  @Timeout(60)
  void aTokenOverTheLengthLimitIsRefusedAsTooLargeBeforeAnythingIsDecoded() {
    String token = edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "billing", Set.of());
    String huge = token + "A".repeat(InternalTokenVerifier.MAX_TOKEN_LENGTH + 1 - token.length());
    assertEquals(Reason.TOO_LARGE, refused(billingVerifier(), huge));
  }

  @Test
  void tokenWhoseCurrentActorIsNotItsIssuerIsRefused() {
    String token = byHand(remintedBy(EDGE, T0.plusSeconds(60).getEpochSecond(), List.of()).build());
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), token));
    String shapeless = byHand(Claims.builder().claim("sid", "s-1").claim("act", Map.of("sub", List.of(ORDERS)))
        .claim("sl_parent", Map.of("exp", T0.plusSeconds(60).getEpochSecond(), "st", List.of())).build());
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), shapeless));
  }

  @Test
  void eachIssuerIsVerifiedWithItsOwnKeysAndOthersAreRefused() {
    // The edge's key claiming to be the orders service: the orders issuer's keys don't hold it.
    String forged = TokenCodec.builder().keys(edgeKeys).algorithm(Algorithm.EDDSA).issuer(ORDERS).audience("billing")
        .timeToLive(Duration.ofSeconds(60)).clock(clock).tokenType(InternalTokens.TOKEN_TYPE).build()
        .encode(remintedBy(ORDERS, T0.plusSeconds(60).getEpochSecond(), List.of()).build());
    assertEquals(Reason.UNKNOWN_KEY, refused(billingVerifier(), forged));
    InternalTokenMinter stranger = InternalTokenMinter.builder().keys(orderKeys).algorithm(Algorithm.EDDSA)
        .issuer("https://stranger.example").clock(clock).build();
    assertEquals(Reason.WRONG_ISSUER, refused(billingVerifier(),
        stranger.mint(session(T0.plusSeconds(1800)), "billing", Set.of())));
    assertEquals(Reason.WRONG_AUDIENCE, refused(ordersVerifier(),
        edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "billing", Set.of())));
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), "not-a-token"));
  }

  @Test
  void minterRefusesSymmetricAlgorithmsAndMissingSettings() {
    assertThrows(IllegalArgumentException.class, () -> InternalTokenMinter.builder().algorithm(Algorithm.HS256));
    assertThrows(IllegalStateException.class, () -> InternalTokenMinter.builder().issuer(EDGE).build());
    assertThrows(IllegalStateException.class, () -> InternalTokenMinter.builder().keys(edgeKeys).build());
    assertThrows(IllegalArgumentException.class, () -> InternalTokenMinter.builder().timeToLive(Duration.ofHours(2)));
    assertThrows(IllegalStateException.class, () -> InternalTokenVerifier.builder().audience("x").build());
    assertThrows(IllegalArgumentException.class,
        () -> InternalTokenVerifier.builder().issuer(EDGE, edgePublic).issuer(EDGE, edgePublic));
  }

  @Test
  @Timeout(60)
  void aBrowserSessionTokenSentAsABearerTokenIsRefusedAsTheWrongTokenTypeWhateverItsIssuer() {
    // A Boot edge's session token: no typ, its own issuer, which no receiving service lists.
    TokenCodec browser = TokenCodec.builder().keys(edgeKeys).algorithm(Algorithm.ES256).issuer("sessionless")
        .audience("shop").timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    String session = browser.encode(Claims.builder().subject("alice").put("cart", "book").build());
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(billingVerifier(), session), "several issuers");
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(ordersVerifier(), session), "one issuer");
    // typ is compared ASCII-only: a long s (U+017F) folds to s in Unicode, not here.
    String upperCase = TokenCodec.builder().keys(orderKeys).algorithm(Algorithm.EDDSA).issuer(ORDERS).audience("billing")
        .timeToLive(Duration.ofSeconds(60)).clock(clock).tokenType("SL-Internal+JWT")
        .build().encode(remintedBy(ORDERS, T0.plusSeconds(60).getEpochSecond(), List.of()).build());
    assertEquals("s-1", billingVerifier().verify(upperCase).sessionId(), "ASCII case is folded: SL-Internal is sl-internal");
    assertFalse(UnverifiedPeek.asciiEqualsIgnoreCase("\u017Fl-internal+jwt", "sl-internal+jwt"));
  }

  @Test
  @Timeout(60)
  void claimsOfTheWrongTypeAreTheSendersMalformedTokenNotAFailureHere() {
    long exp = T0.plusSeconds(60).getEpochSecond();
    String numericSid = byHand(Claims.builder().subject("alice").claim("sid", 42)
        .claim("act", Map.of("sub", ORDERS)).claim("sl_parent", Map.of("exp", exp, "st", List.of())).build());
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), numericSid));
    String listParent = byHand(Claims.builder().subject("alice").claim("sid", "s-1")
        .claim("act", Map.of("sub", ORDERS)).claim("sl_parent", List.of(exp)).build());
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), listParent));
    String hugeParentExp = byHand(Claims.builder().subject("alice").claim("sid", "s-1")
        .claim("act", Map.of("sub", ORDERS)).claim("sl_parent", Map.of("exp", 1e300, "st", List.of())).build());
    assertEquals(Reason.MALFORMED, refused(billingVerifier(), hugeParentExp));
  }

  @Test
  @Timeout(60)
  void aFaultInTheVerifiersOwnChecksIsAnInternalFailureLoggedOnceNotTheCallersMalformedToken() {
    String token = edge(Algorithm.ES256).mint(session(T0.plusSeconds(1800)), "orders", Set.of());
    InternalTokenVerifier buggy = InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic)
        .clock(clock).checkerForTests(t -> {
          throw new ArithmeticException("a bug of ours");
        }).build();
    List<java.util.logging.LogRecord> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Logger jul = java.util.logging.Logger.getLogger(InternalTokenVerifier.class.getName());
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        if (r.getLevel() == java.util.logging.Level.SEVERE) {
          errors.add(r);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    jul.addHandler(handler);
    try {
      for (int i = 0; i < 3; i++) {
        TokenException e = assertThrows(TokenException.class, () -> buggy.verify(token));
        assertEquals(Reason.INTERNAL, e.reason(), "our bug, not the caller's bad token");
        assertFalse(e.reason().isRejection());
        assertTrue(e.getCause() instanceof ArithmeticException);
      }
      assertEquals(1, errors.size(), "logged at ERROR once for its cause, not once per request");
      assertTrue(errors.get(0).getThrown() instanceof ArithmeticException);
    } finally {
      jul.removeHandler(handler);
    }
  }
}
