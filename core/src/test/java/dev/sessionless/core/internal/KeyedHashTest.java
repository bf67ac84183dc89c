package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link KeyedHash} is SipHash: with two and four rounds it gives the reference vectors of the
 * SipHash paper (key 00..0f, messages 00..(n-1)); it hashes a region where it lies; and two
 * instances hash the same text differently.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeyedHashTest {
  static final KeyedHash SIP24 = new KeyedHash(0x0706050403020100L, 0x0f0e0d0c0b0a0908L, 2, 4);

  static String bytes(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append((char) i);
    }
    return b.toString();
  }

  @Test
  void twoFourRoundsGiveTheReferenceVectors() {
    assertEquals(0x726fdb47dd0e0e31L, SIP24.hash(bytes(0), 0, 0));
    assertEquals(0xa129ca6149be45e5L, SIP24.hash(bytes(15), 0, 15));
  }

  @Test
  void aRegionHashesAsTheSameTextAlone() {
    String text = "Cookie: a=1; SL=" + bytes(15) + "; b=2";
    int at = text.indexOf("SL=") + 3;
    assertEquals(0xa129ca6149be45e5L, SIP24.hash(text, at, at + 15));
    KeyedHash k = new KeyedHash();
    assertEquals(k.hash("eyJhbGciOi.x.y", 0, 14), k.hash("[eyJhbGciOi.x.y]", 1, 15));
  }

  @Test
  void twoRandomKeysHashTheSameTextDifferently() {
    String token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoaXMtdG9rZW4";
    assertNotEquals(new KeyedHash().hash(token, 0, token.length()), new KeyedHash().hash(token, 0, token.length()));
  }

  @Test
  void theWrittenOutOneThreeFormIsTheCountedOne() {
    java.util.Random random = new java.util.Random(13);
    for (int n = 0; n < 200; n++) {
      long k0 = random.nextLong();
      long k1 = random.nextLong();
      byte[] b = new byte[n + 8];
      random.nextBytes(b);
      assertEquals(KeyedHash.sip(k0, k1, 1, 3, b, n), new KeyedHash(k0, k1, 1, 3).hash(b, n), "length " + n);
    }
  }
}
