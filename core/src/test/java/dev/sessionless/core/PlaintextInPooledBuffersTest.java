package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.core.internal.ByteSink;
import dev.sessionless.core.internal.Scratch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an encrypted token hides does not stay readable in the pooled buffers that encode and
 * decode write it in: after each, the pooled {@link Scratch}es and {@link ByteSink}s this thread
 * meets hold no byte of the state's secret text, with or without compression, and also when the
 * decrypted token is then refused for its claims.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlaintextInPooledBuffersTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  static final String SECRET = "card-ending-4242-secret-marker";
  static final TokenKey KEY = TokenKey.generate("aes", Algorithm.DIR_A256GCM);

  static TokenCodec codec(Compression c, String audience) {
    return TokenCodec.builder().keys(KeySet.of(KEY)).algorithm(Algorithm.DIR_A256GCM)
        .issuer("https://shop.example").audience(audience).timeToLive(Duration.ofMinutes(5))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC)).compression(c).verificationCache(0).build();
  }

  static String token(TokenCodec codec) {
    return codec.encode(Claims.builder().subject("alice").put("note", SECRET + " " + SECRET).build());
  }

  /** Zeroes the pooled buffers this thread can take, so a check after a decode sees only what the decode left. */
  static void wipePooledBuffers() {
    List<Scratch> scratches = new ArrayList<>();
    List<ByteSink> sinks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Scratch s = Scratch.take();
      scratches.add(s);
      java.util.Arrays.fill(s.payload(1), (byte) 0);
      java.util.Arrays.fill(s.inflated(), (byte) 0);
      java.util.Arrays.fill(s.work(1), (byte) 0);
      ByteSink b = ByteSink.take();
      sinks.add(b);
      java.util.Arrays.fill(b.array(), (byte) 0);
    }
    scratches.forEach(Scratch::release);
    sinks.forEach(ByteSink::release);
  }

  /** Whether any pooled scratch or byte sink this thread can take holds the secret text. */
  static boolean pooledBuffersHoldTheSecret() {
    byte[] secret = SECRET.getBytes(StandardCharsets.US_ASCII);
    List<Scratch> scratches = new ArrayList<>();
    List<ByteSink> sinks = new ArrayList<>();
    boolean found = false;
    try {
      for (int i = 0; i < 8; i++) {
        Scratch s = Scratch.take();
        scratches.add(s);
        found |= contains(s.payload(1), secret) || contains(s.inflated(), secret) || contains(s.work(1), secret);
        ByteSink b = ByteSink.take();
        sinks.add(b);
        found |= contains(b.array(), secret);
      }
    } finally {
      scratches.forEach(Scratch::release);
      sinks.forEach(ByteSink::release);
    }
    return found;
  }

  static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void encryptedStateDoesNotStayInPooledBuffersAfterEncode(Compression c) {
    token(codec(c, "shop"));
    assertFalse(pooledBuffersHoldTheSecret());
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void decryptedPlaintextDoesNotStayInPooledBuffersAfterDecode(Compression c) {
    TokenCodec codec = codec(c, "shop");
    String token = token(codec);
    wipePooledBuffers();
    assertEquals(SECRET + " " + SECRET, codec.decode(token).get("note", String.class).orElseThrow());
    assertFalse(pooledBuffersHoldTheSecret(), "after decode");
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void decryptedPlaintextDoesNotStayInPooledBuffersWhenItsClaimsAreRefused(Compression c) {
    String token = token(codec(c, "shop"));
    wipePooledBuffers();
    TokenException e = assertThrows(TokenException.class, () -> codec(c, "billing").decode(token));
    assertEquals(TokenException.Reason.WRONG_AUDIENCE, e.reason());
    assertFalse(pooledBuffersHoldTheSecret());
  }
}
