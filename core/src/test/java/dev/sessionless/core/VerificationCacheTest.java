package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class VerificationCacheTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final TokenKey key = TokenKey.generate("k", Algorithm.ES256);
  final AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(key));

  TokenCodec codec(int cacheSize) {
    return TokenCodec.builder().keys(live::get).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(10)).clockSkew(Duration.ofSeconds(5)).clock(clock)
        .verificationCache(cacheSize).build();
  }

  @Test
  void sameTokenArrivingAsNewStringIsServedFromCache() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().subject("s").build());
    SessionToken first = codec.decode(token);
    SessionToken second = codec.decode(new String(token.toCharArray()));
    assertSame(first, second, "a cookie is a new String each request and must still hit");
  }

  @Test
  void switchedOffCacheVerifiesEveryTime() {
    TokenCodec codec = codec(0);
    String token = codec.encode(Claims.builder().build());
    assertNotSame(codec.decode(token), codec.decode(token));
  }

  @Test
  void cacheNeverServesATokenPastItsExpiry() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    clock.advance(Duration.ofMinutes(10).plusSeconds(5));
    assertEquals(TokenException.Reason.EXPIRED,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheIsEmptiedWhenTheKeyLeavesTheKeySet() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    live.set(KeySet.of(TokenKey.generate("other", Algorithm.ES256)));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheRespectsTheKeysOwnExpiry() {
    live.set(KeySet.of(key.withLifecycle(null, null, NOW.plusSeconds(30), NOW.plusSeconds(60))));
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    clock.advance(Duration.ofSeconds(61));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void tamperedCopyOfACachedTokenIsStillRejected() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    // Same last 16 characters (the cache key's hash), different payload.
    int i = token.indexOf('.') + 3;
    char[] c = token.toCharArray();
    c[i] = c[i] == 'A' ? 'B' : 'A';
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(new String(c))).reason());
  }
}
