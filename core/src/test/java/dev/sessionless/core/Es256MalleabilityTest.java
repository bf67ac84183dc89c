package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.testing.FakeClock;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * ECDSA signatures are malleable: if (r, s) verifies, so does (r, n - s). JOSE peers (the JDK's
 * SunEC, Nimbus, jose4j) emit either, so both are accepted; but the two spellings are two
 * different token texts, each verified on its own, and nothing treats the signature as the
 * token's identity (the session id, {@code jti}, is).
 */
class Es256MalleabilityTest {
  static final BigInteger N =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("ec", Algorithm.ES256)))
      .algorithm(Algorithm.ES256).issuer("i").audience("a").timeToLive(Duration.ofMinutes(10)).clock(clock)
      .build();

  /** The same token with s replaced by n - s: the other valid spelling of its signature. */
  static String otherSpelling(String token) {
    int dot = token.lastIndexOf('.');
    byte[] sig = Base64.getUrlDecoder().decode(token.substring(dot + 1));
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
    byte[] flipped = N.subtract(s).toByteArray();
    byte[] out = sig.clone();
    Arrays.fill(out, 32, 64, (byte) 0);
    int len = Math.min(flipped.length, 32);
    System.arraycopy(flipped, flipped.length - len, out, 64 - len, len);
    return token.substring(0, dot + 1) + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
  }

  @Test
  void bothSpellingsOfOneSignatureVerifyAsTwoCacheEntries() {
    String token = codec.encode(Claims.builder().subject("alice").build());
    String other = otherSpelling(token);
    assertNotEquals(token, other);

    SessionToken first = codec.decode(token);
    SessionToken second = codec.decode(other);
    assertNotSame(first, second, "the other spelling is verified on its own, never served from the first's entry");
    assertSame(first, codec.decode(new String(token.toCharArray())), "each spelling has its own entry");
    assertSame(second, codec.decode(new String(other.toCharArray())));
  }

  @Test
  void identityIsTheSessionIdNotTheSignature() {
    String token = codec.encode(Claims.builder().subject("alice").build());
    SessionToken first = codec.decode(token);
    SessionToken second = codec.decode(otherSpelling(token));
    assertEquals(first.id(), second.id());
    assertEquals(first.toClaims().build().sessionId(), second.toClaims().build().sessionId());
    assertEquals(first.stateJson(), second.stateJson());
  }

  @Test
  void aCachedSpellingNeverVouchesForABrokenOne() {
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    codec.decode(otherSpelling(token));
    // r changed, s kept: same length, different bytes, not a valid signature.
    int dot = token.lastIndexOf('.');
    char[] c = token.toCharArray();
    c[dot + 5] = c[dot + 5] == 'A' ? 'B' : 'A';
    String broken = new String(c);
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(broken)).reason());
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(otherSpelling(broken))).reason());
  }
}
