package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.testing.FakeClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A failure on this side (a broken clock or key source, a bug) is INTERNAL, never a rejection. */
class InternalFailureTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final TokenKey key = TokenKey.generate("k", Algorithm.HS256);
  final KeySet keys = KeySet.of(key);

  /** A clock that works until told to break, as a clock of a broken deployment would. */
  static final class BreakableClock extends Clock {
    final FakeClock inner = new FakeClock(NOW);
    volatile RuntimeException failure;

    @Override
    public long millis() {
      RuntimeException f = failure;
      if (f != null) {
        throw f;
      }
      return inner.millis();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return inner.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  TokenCodec.Builder builder() {
    return TokenCodec.builder().issuer("i").audience("a").timeToLive(Duration.ofMinutes(10));
  }

  @Test
  void failureInsideDecodeIsInternalNotARejection() {
    BreakableClock clock = new BreakableClock();
    TokenCodec codec = builder().keys(keys).clock(clock).verificationCache(0).build();
    String token = codec.encode(Claims.builder().build());
    IllegalStateException broken = new IllegalStateException("clock source gone");
    clock.failure = broken;
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(Reason.INTERNAL, e.reason());
    assertFalse(e.reason().isRejection());
    assertSame(broken, e.getCause(), "the cause travels for diagnosis");
  }

  @Test
  void keySourceThatThrowsMakesDecodeInternalNotAnotherException() {
    IllegalStateException broken = new IllegalStateException("source not started");
    TokenCodec good = builder().keys(keys).build();
    String token = good.encode(Claims.builder().build());
    TokenCodec codec = builder().keys(() -> {
      throw broken;
    }).build();
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(Reason.INTERNAL, e.reason());
    assertSame(broken, e.getCause());
  }

  @Test
  void unknownKeyHookThatThrowsStillRejectsAsUnknownKey() {
    TokenCodec signer = builder().keys(KeySet.of(TokenKey.generate("elsewhere", Algorithm.HS256))).build();
    String token = signer.encode(Claims.builder().build());
    RuntimeException hookFailure = new IllegalStateException("refresh queue full");
    TokenCodec codec = builder().keys(new KeySource() {
      @Override
      public KeySet current() {
        return keys;
      }

      @Override
      public void unknownKeyId(String kid) {
        throw hookFailure;
      }
    }).build();
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(Reason.UNKNOWN_KEY, e.reason());
    assertSame(hookFailure, e.getCause());
  }

  @Test
  void onlyFailuresOnThisSideAreNotRejections() {
    Set<Reason> notRejections = EnumSet.noneOf(Reason.class);
    for (Reason r : Reason.values()) {
      if (!r.isRejection()) {
        notRejections.add(r);
      }
    }
    assertEquals(EnumSet.of(Reason.NO_SIGNING_KEY, Reason.STATE_MAPPING, Reason.REVOCATION_UNAVAILABLE,
        Reason.KEY_SOURCE_UNAVAILABLE, Reason.INTERNAL), notRejections);
    assertTrue(Reason.MALFORMED.isRejection());
  }
}
