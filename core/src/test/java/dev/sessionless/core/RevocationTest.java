package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RevocationTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));
  final RevocationStore store = RevocationStore.inMemory(clock);

  TokenCodec codec(RevocationSource source) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a").timeToLive(Duration.ofMinutes(10))
        .clockSkew(Duration.ofSeconds(5)).clock(clock).revocation(source).build();
  }

  static Reason reason(Runnable r) {
    return assertThrows(TokenException.class, r::run).reason();
  }

  @Test
  void revokedSessionIsRejectedAsSessionRevoked() {
    TokenCodec codec = codec(store);
    String token = codec.encode(Claims.builder().subject("alice").build());
    SessionToken t = codec.decode(token);
    store.revokeSession(t.id(), t.expiresAt());
    assertEquals(Reason.SESSION_REVOKED, reason(() -> codec.decode(token)));
    assertTrue(Reason.SESSION_REVOKED.isRejection());
  }

  @Test
  void revocationHoldsOnAVerificationCacheHit() {
    TokenCodec codec = codec(store);
    String token = codec.encode(Claims.builder().build());
    SessionToken first = codec.decode(token);
    assertSame(first, codec.decode(token), "the second decode is a cache hit");
    store.revokeSession(first.id(), first.expiresAt());
    assertEquals(Reason.SESSION_REVOKED, reason(() -> codec.decode(token)));
  }

  @Test
  void tokenMadeForARevokedSessionThroughSidIsRejected() {
    TokenCodec codec = codec(store);
    String token = codec.encode(Claims.builder().claim("sid", "edge-session-1").build());
    codec.decode(token);
    store.revokeSession("edge-session-1", NOW.plusSeconds(600));
    assertEquals(Reason.SESSION_REVOKED, reason(() -> codec.decode(token)));
  }

  @Test
  void otherSessionsStayValidWhenOneIsRevoked() {
    TokenCodec codec = codec(store);
    String a = codec.encode(Claims.builder().subject("alice").build());
    String b = codec.encode(Claims.builder().subject("alice").build());
    store.revokeSession(codec.decode(a).id(), NOW.plusSeconds(600));
    assertEquals("alice", codec.decode(b).subject().orElseThrow());
  }

  @Test
  void logOutEverywhereRejectsTokensAuthenticatedBeforeAndKeepsLaterLogins() {
    TokenCodec codec = codec(store);
    String before = codec.encode(Claims.builder().subject("alice").authTime(NOW).build());
    clock.advance(Duration.ofSeconds(60));
    store.revokeSubject("alice", clock.instant(), clock.instant().plus(Duration.ofHours(12)));
    String after = codec.encode(Claims.builder().subject("alice").authTime(clock.instant()).build());
    assertEquals(Reason.SUBJECT_REVOKED, reason(() -> codec.decode(before)));
    assertEquals("alice", codec.decode(after).subject().orElseThrow());
  }

  @Test
  void logOutEverywhereEndsNoOtherSubjectsSessions() {
    TokenCodec codec = codec(store);
    String bob = codec.encode(Claims.builder().subject("bob").authTime(NOW).build());
    store.revokeSubject("alice", NOW.plusSeconds(1), NOW.plusSeconds(3600));
    assertEquals("bob", codec.decode(bob).subject().orElseThrow());
  }

  @Test
  void logOutEverywhereRejectsATokenWithoutAuthTime() {
    TokenCodec codec = codec(store);
    String token = codec.encode(Claims.builder().subject("alice").build());
    store.revokeSubject("alice", NOW, NOW.plusSeconds(3600));
    assertEquals(Reason.SUBJECT_REVOKED, reason(() -> codec.decode(token)));
  }

  @Test
  void renewalNeverMovesAuthTime() {
    TokenCodec codec = codec(store);
    SessionToken first = codec.decode(codec.encode(Claims.builder().subject("alice").authTime(NOW).build()));
    clock.advance(Duration.ofMinutes(5));
    SessionToken renewed = codec.decode(codec.encode(first.toClaims().put("step", 2).build()));
    assertEquals(Optional.of(NOW), renewed.authTime());
    assertTrue(renewed.issuedAt().isAfter(first.issuedAt()));
    store.revokeSubject("alice", NOW.plusSeconds(1), NOW.plusSeconds(3600));
    assertEquals(Reason.SUBJECT_REVOKED, reason(() -> codec.decode(codec.encode(renewed.toClaims().build()))),
        "a renewed token still carries its original login time");
  }

  @Test
  void malformedAuthTimeIsMalformedAndCountsAsNoAuthTime() {
    TokenCodec codec = codec(store);
    SessionToken t = codec.decode(codec.encode(Claims.builder().subject("alice").claim("auth_time", "yesterday").build()));
    assertEquals(Reason.MALFORMED, reason(t::authTime));
    store.revokeSubject("alice", NOW.minusSeconds(3600), NOW.plusSeconds(3600));
    String token = codec.encode(t.toClaims().build());
    assertEquals(Reason.SUBJECT_REVOKED, reason(() -> codec.decode(token)));
  }

  @Test
  void revokedSessionEntryIsForgottenAfterItsUntil() {
    InMemoryRevocations mem = (InMemoryRevocations) store;
    store.revokeSession("s1", NOW.plusSeconds(600));
    store.revokeSubject("alice", NOW, NOW.plusSeconds(600));
    assertTrue(store.isRevoked("s1"));
    clock.advance(Duration.ofSeconds(601));
    mem.purgeExpired();
    assertEquals(0, mem.size());
    assertFalse(store.isRevoked("s1"));
    assertEquals(Optional.empty(), store.notBefore("alice"));
  }

  @Test
  void expiredEntriesAreSweptByLaterWritesWithoutAnyone() {
    InMemoryRevocations mem = (InMemoryRevocations) store;
    for (int i = 0; i < 1000; i++) {
      store.revokeSession("old-" + i, NOW.plusSeconds(60));
    }
    clock.advance(Duration.ofMinutes(2));
    for (int i = 0; i < 1048; i++) {
      store.revokeSession("new-" + i, clock.instant().plusSeconds(60));
    }
    assertEquals(1048, mem.size(), "a later write swept the expired entries");
  }

  @Test
  void revokingAgainKeepsTheLaterUntil() {
    store.revokeSession("s1", NOW.plusSeconds(600));
    store.revokeSession("s1", NOW.plusSeconds(60));
    clock.advance(Duration.ofSeconds(300));
    assertTrue(store.isRevoked("s1"));
  }

  @Test
  void sourceThatFailsClosedIsAServerErrorNotALogout() {
    RevocationSource closed = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        throw new TokenException(Reason.REVOCATION_UNAVAILABLE, "stale");
      }

      @Override
      public Optional<Instant> notBefore(String subject) {
        return Optional.empty();
      }
    };
    TokenCodec codec = codec(closed);
    String token = codec.encode(Claims.builder().build());
    Reason r = reason(() -> codec.decode(token));
    assertEquals(Reason.REVOCATION_UNAVAILABLE, r);
    assertFalse(r.isRejection());
  }

  @Test
  void sourceThatThrowsIsAnInternalFailure() {
    RevocationSource broken = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        throw new IllegalStateException("bug");
      }

      @Override
      public Optional<Instant> notBefore(String subject) {
        return Optional.empty();
      }
    };
    TokenCodec codec = codec(broken);
    String token = codec.encode(Claims.builder().build());
    assertEquals(Reason.INTERNAL, reason(() -> codec.decode(token)));
  }

  @Test
  void storeRefusesBadEntries() {
    assertThrows(IllegalArgumentException.class, () -> store.revokeSession("", NOW));
    assertThrows(IllegalArgumentException.class, () -> store.revokeSubject("alice", NOW, NOW.minusSeconds(1)));
    assertThrows(IllegalStateException.class,
        () -> TokenCodec.builder().revocation(store).revocation(store));
  }
}
