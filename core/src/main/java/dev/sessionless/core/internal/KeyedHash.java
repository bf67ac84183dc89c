package dev.sessionless.core.internal;

import java.security.SecureRandom;

/**
 * SipHash-1-3 (Aumasson and Bernstein; one compression round per word, three to finish, as
 * Rust's and Python's hash tables use) of a text, under a random 128-bit key of this instance's
 * own. Whoever does not know the key cannot choose texts that share a hash, or a hash with a
 * text they do not know: what a table of attacker-presented texts needs.
 *
 * <p>Each character's low byte is hashed, eight to a word: tokens are ASCII. Characters above
 * {@code U+00FF} alias their low byte, so such a text may share a hash with another; a table
 * that compares the whole text after the hash (as the verification cache does) only ever sees
 * that as a miss.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyedHash {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final long k0;
  private final long k1;
  /** Rounds per word and to finish: 1 and 3 here; 2 and 4 (the paper's SipHash-2-4) for its test vectors. */
  private final int compression;
  private final int finish;

  /** A hash under a fresh random key. */
  public KeyedHash() {
    this(RANDOM.nextLong(), RANDOM.nextLong(), 1, 3);
  }

  /** A hash under this key, with these round counts (for tests and test vectors). */
  KeyedHash(long k0, long k1, int compression, int finish) {
    this.k0 = k0;
    this.k1 = k1;
    this.compression = compression;
    this.finish = finish;
  }

  /** The hash of {@code text[start, end)}. */
  public long hash(String text, int start, int end) {
    long v0 = k0 ^ 0x736f6d6570736575L;
    long v1 = k1 ^ 0x646f72616e646f6dL;
    long v2 = k0 ^ 0x6c7967656e657261L;
    long v3 = k1 ^ 0x7465646279746573L;
    int i = start;
    for (; i + 8 <= end; i += 8) {
      long m = (text.charAt(i) & 0xffL)
          | (text.charAt(i + 1) & 0xffL) << 8
          | (text.charAt(i + 2) & 0xffL) << 16
          | (text.charAt(i + 3) & 0xffL) << 24
          | (text.charAt(i + 4) & 0xffL) << 32
          | (text.charAt(i + 5) & 0xffL) << 40
          | (text.charAt(i + 6) & 0xffL) << 48
          | (text.charAt(i + 7) & 0xffL) << 56;
      v3 ^= m;
      for (int r = 0; r < compression; r++) {
        v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
        v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
        v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
        v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
      }
      v0 ^= m;
    }
    long last = (long) (end - start) << 56;
    for (int j = 0; i < end; i++, j += 8) {
      last |= (text.charAt(i) & 0xffL) << j;
    }
    v3 ^= last;
    for (int r = 0; r < compression; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    v0 ^= last;
    v2 ^= 0xff;
    for (int r = 0; r < finish; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }
}
