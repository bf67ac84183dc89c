package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link TokenCodec#decode(String, int, int)}: a token inside a longer text, such as a header. */
class RegionDecodeTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-24T10:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));

  TokenCodec codec(int cacheSize, int maxLength) {
    TokenCodec.Builder b = TokenCodec.builder().keys(keys).algorithm(Algorithm.HS256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(10)).clock(clock).verificationCache(cacheSize);
    return (maxLength > 0 ? b.maxTokenLength(maxLength) : b).build();
  }

  static String header(String token) {
    return "theme=dark; SL=" + token + "; lang=en";
  }

  static int start(String header) {
    return header.indexOf("SL=") + 3;
  }

  @Test
  void regionDecodesToTheSameClaimsAsTheWholeToken() {
    TokenCodec codec = codec(0, 0);
    String token = codec.encode(Claims.builder().subject("alice").claim("role", "admin").build());
    String h = header(token);
    SessionToken t = codec.decode(h, start(h), start(h) + token.length());
    assertEquals("alice", t.subject().orElseThrow());
    assertEquals(codec.decode(token).id(), t.id());
  }

  @Test
  void regionOfAHeaderHitsTheCacheFilledByAWholeTokenAndTheOtherWayRound() {
    TokenCodec codec = codec(100, 0);
    String token = codec.encode(Claims.builder().build());
    SessionToken whole = codec.decode(token);
    String h = header(new String(token.toCharArray()));
    assertSame(whole, codec.decode(h, start(h), start(h) + token.length()));

    String other = codec.encode(Claims.builder().subject("bob").build());
    String h2 = header(other);
    SessionToken fromRegion = codec.decode(h2, start(h2), start(h2) + other.length());
    assertSame(fromRegion, codec.decode(new String(other.toCharArray())));
  }

  @Test
  void regionOneCharacterShortOrLongIsNotTheCachedToken() {
    TokenCodec codec = codec(100, 0);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    String h = header(token);
    int s = start(h);
    assertThrows(TokenException.class, () -> codec.decode(h, s, s + token.length() - 1));
    assertThrows(TokenException.class, () -> codec.decode(h, s, s + token.length() + 1));
    assertThrows(TokenException.class, () -> codec.decode(h, s + 1, s + token.length()));
  }

  @Test
  void tamperedRegionIsRejectedEvenWhenTheTokenIsCached() {
    TokenCodec codec = codec(100, 0);
    String token = codec.encode(Claims.builder().subject("s").build());
    codec.decode(token);
    int i = token.indexOf('.') + 3; // in the payload: the cache key's hash (the tail) is unchanged
    char[] c = token.toCharArray();
    c[i] = c[i] == 'A' ? 'B' : 'A';
    String h = header(new String(c));
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(h, start(h), start(h) + c.length));
    assertEquals(TokenException.Reason.BAD_SIGNATURE, e.reason());
  }

  @Test
  void regionOverTheLengthLimitIsTooLargeBeforeAnyParsing() {
    TokenCodec codec = codec(100, 300);
    String h = "SL=" + "x".repeat(301);
    assertEquals(TokenException.Reason.TOO_LARGE,
        assertThrows(TokenException.class, () -> codec.decode(h, 3, h.length())).reason());
  }

  @Test
  void nullTextIsMalformedAndABadRegionIsTheCallersBug() {
    TokenCodec codec = codec(100, 0);
    assertEquals(TokenException.Reason.MALFORMED,
        assertThrows(TokenException.class, () -> codec.decode(null, 0, 0)).reason());
    assertThrows(IndexOutOfBoundsException.class, () -> codec.decode("abc", 2, 5));
    assertThrows(IndexOutOfBoundsException.class, () -> codec.decode("abc", 2, 1));
  }

  @Test
  void withoutACacheEveryRegionIsVerifiedAgain() {
    TokenCodec codec = codec(0, 0);
    String token = codec.encode(Claims.builder().build());
    String h = header(token);
    assertNotSame(codec.decode(h, start(h), start(h) + token.length()),
        codec.decode(h, start(h), start(h) + token.length()));
  }
}
