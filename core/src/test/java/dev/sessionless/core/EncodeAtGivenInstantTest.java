package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.testing.FakeClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link TokenCodec#encode(Claims, Instant)}: a caller that read the time once gets a token
 * whose {@code iat}, {@code exp} and signing key all come from that reading, and the codec's
 * clock is never read.
 */
@Timeout(60)
class EncodeAtGivenInstantTest {
  static final Instant T = Instant.parse("2026-11-23T10:00:00Z");

  /** A clock that fails the test when read: what is stamped came from the argument. */
  static final class FakeUnreadableClock extends Clock {
    @Override
    public long millis() {
      throw new AssertionError("the codec read its clock");
    }

    @Override
    public Instant instant() {
      throw new AssertionError("the codec read its clock");
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new AssertionError("the codec changed its clock's zone");
    }
  }

  static TokenCodec.Builder codec(KeySet keys, Clock clock) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a").timeToLive(Duration.ofMinutes(30))
        .clock(clock).verificationCache(0);
  }

  @Test
  void encodeAtAGivenInstantStampsIatAndExpFromItsWholeSecondWithoutReadingTheClock() {
    KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));
    String token = codec(keys, new FakeUnreadableClock()).build()
        .encode(Claims.builder().subject("alice").build(), T.plusMillis(999));
    SessionToken t = codec(keys, new FakeClock(T)).build().decode(token);
    assertEquals(T, t.issuedAt());
    assertEquals(T.plus(Duration.ofMinutes(30)), t.expiresAt());
  }

  @Test
  void encodeAtAGivenInstantSignsWithTheKeyThatSignsAtThatInstant() {
    TokenKey old = TokenKey.generate("old", Algorithm.HS256).withLifecycle(null, null, T.plusSeconds(10), null);
    TokenKey next = TokenKey.generate("next", Algorithm.HS256).withLifecycle(null, T.plusSeconds(10), null, null);
    KeySet keys = KeySet.of(old, next);
    TokenCodec writer = codec(keys, new FakeUnreadableClock()).build();
    TokenCodec reader = codec(keys, new FakeClock(T.plusSeconds(10))).build();
    assertEquals("old", reader.decode(writer.encode(Claims.builder().build(), T.plusSeconds(9))).keyId());
    assertEquals("next", reader.decode(writer.encode(Claims.builder().build(), T.plusSeconds(10))).keyId());
  }

  @Test
  void encodeAtAnInstantOutsideTheNumericDateRangeIsRefusedAsTheCallersArgument() {
    TokenCodec writer = codec(KeySet.of(TokenKey.generate("k", Algorithm.HS256)), new FakeUnreadableClock()).build();
    assertThrows(IllegalArgumentException.class, () -> writer.encode(Claims.builder().build(), Instant.ofEpochSecond(-1)));
    assertThrows(IllegalArgumentException.class,
        () -> writer.encode(Claims.builder().build(), Instant.parse("+10000-01-01T00:00:00Z")));
    assertThrows(NullPointerException.class, () -> writer.encode(Claims.builder().build(), (Instant) null));
  }
}
