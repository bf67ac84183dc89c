package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The encoder never writes a token its own decoder refuses, and never truncates a duration. */
class EncoderBoundsTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));

  TokenCodec.Builder builder(Duration ttl) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a").clock(clock).timeToLive(ttl);
  }

  TokenCodec codec() {
    return builder(Duration.ofMinutes(30)).build();
  }

  @Test
  void codecRefusesAFractionalTimeToLiveInsteadOfTruncatingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> builder(Duration.ofMillis(1500)).build());
    assertTrue(e.getMessage().contains("whole number of seconds"), e.getMessage());
  }

  @Test
  void codecRefusesASubSecondTimeToLive() {
    assertThrows(IllegalArgumentException.class, () -> builder(Duration.ofMillis(500)).build());
    assertThrows(IllegalArgumentException.class, () -> builder(Duration.ZERO).build());
    assertThrows(IllegalArgumentException.class, () -> builder(Duration.ofSeconds(-5)).build());
  }

  @Test
  void codecRefusesATimeToLiveBeyondTheMaximum() {
    builder(TokenCodec.MAX_TIME_TO_LIVE).build();
    assertThrows(IllegalArgumentException.class,
        () -> builder(TokenCodec.MAX_TIME_TO_LIVE.plusSeconds(1)).build());
    assertThrows(IllegalArgumentException.class, () -> builder(Duration.ofSeconds(Long.MAX_VALUE)).build());
  }

  @Test
  void claimsRefuseAFractionalOrSubSecondTimeToLive() {
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().timeToLive(Duration.ofMillis(1500)));
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().timeToLive(Duration.ofMillis(500)));
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().timeToLive(Duration.ZERO));
  }

  @Test
  void claimsRefuseATimeToLiveBeyondTheMaximum() {
    assertThrows(IllegalArgumentException.class,
        () -> Claims.builder().timeToLive(TokenCodec.MAX_TIME_TO_LIVE.plusDays(1)));
    assertThrows(IllegalArgumentException.class,
        () -> Claims.builder().timeToLive(Duration.ofSeconds(Long.MAX_VALUE)));
  }

  @Test
  void longestTimeToLiveMakesATokenTheDecoderAccepts() {
    TokenCodec codec = codec();
    String token = codec.encode(Claims.builder().timeToLive(TokenCodec.MAX_TIME_TO_LIVE).build());
    assertEquals(NOW.plus(TokenCodec.MAX_TIME_TO_LIVE), codec.decode(token).expiresAt());
  }

  @Test
  void notBeforeWithAFractionOfASecondIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().notBefore(NOW.plusMillis(1)));
  }

  @Test
  void notBeforeOutsideTheNumericDateRangeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().notBefore(Instant.ofEpochSecond(-1)));
    assertThrows(IllegalArgumentException.class,
        () -> Claims.builder().notBefore(Instant.parse("+10000-01-01T00:00:00Z")));
  }

  @Test
  void notBeforeAtOrAfterTheExpiryIsRefusedAtEncode() {
    TokenCodec codec = codec();
    Instant exp = NOW.plus(Duration.ofMinutes(30));
    assertThrows(IllegalArgumentException.class, () -> codec.encode(Claims.builder().notBefore(exp).build()));
    assertThrows(IllegalArgumentException.class,
        () -> codec.encode(Claims.builder().notBefore(exp.plusSeconds(60)).build()));
    String token = codec.encode(Claims.builder().notBefore(exp.minusSeconds(1)).build());
    clock.set(exp.minusSeconds(1));
    assertEquals(exp.minusSeconds(1), codec.decode(token).notBefore().orElseThrow());
  }

  @Test
  void anExpiryBeyondWhatTheDecoderReadsIsNeverWritten() {
    clock.set(Instant.parse("9999-12-31T23:50:00Z"));
    TokenCodec codec = codec();
    TokenException e = assertThrows(TokenException.class, () -> codec.encode(Claims.builder().build()));
    assertEquals(TokenException.Reason.INTERNAL, e.reason());
  }

  @Test
  void aClockBefore1970WritesNoToken() {
    clock.set(Instant.parse("1969-12-31T23:00:00Z"));
    TokenCodec codec = codec();
    assertEquals(TokenException.Reason.INTERNAL,
        assertThrows(TokenException.class, () -> codec.encode(Claims.builder().build())).reason());
  }
}
