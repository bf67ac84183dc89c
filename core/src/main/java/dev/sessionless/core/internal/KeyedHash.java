package dev.sessionless.core.internal;

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
  private final long k0;
  private final long k1;
  /** Rounds per word and to finish: 1 and 3 here; 2 and 4 (the paper's SipHash-2-4) for its test vectors. */
  private final int compression;
  private final int finish;

  /** A hash under a fresh random key. */
  public KeyedHash() {
    this(SeededRandom.nextLong(), SeededRandom.nextLong(), 1, 3);
  }

  /** A hash under this key, with these round counts (for tests and test vectors). */
  KeyedHash(long k0, long k1, int compression, int finish) {
    this.k0 = k0;
    this.k1 = k1;
    this.compression = compression;
    this.finish = finish;
  }

  /**
   * The hash of {@code text[start, end)}. The characters' low bytes are copied into a pooled
   * buffer first and read eight at a time: twice as fast as packing them from {@code charAt}.
   */
  public long hash(String text, int start, int end) {
    int n = end - start;
    Scratch scratch = Scratch.take();
    try {
      byte[] b = scratch.work(n);
      copyLowBytes(text, start, end, b);
      return hash(b, n);
    } finally {
      scratch.release();
    }
  }

  @SuppressWarnings("deprecation") // exactly the low byte of each char, an array copy for Latin-1 strings
  private static void copyLowBytes(String text, int start, int end, byte[] to) {
    text.getBytes(start, end, to, 0);
  }

  /**
   * The hash of {@code b[0, n)}: SipHash-1-3 written out, so the round repeats on purpose (a round
   * loop or method costs half the speed).
   */
  long hash(byte[] b, int n) {
    if (compression != 1 || finish != 3) {
      return sip(k0, k1, compression, finish, b, n);
    }
    long v0 = k0 ^ 0x736f6d6570736575L;
    long v1 = k1 ^ 0x646f72616e646f6dL;
    long v2 = k0 ^ 0x6c7967656e657261L;
    long v3 = k1 ^ 0x7465646279746573L;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long m = Words.at(b, i);
      v3 ^= m;
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
      v0 ^= m;
    }
    long last = lastWord(b, i, n);
    v3 ^= last;
    v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
    v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
    v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
    v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    v0 ^= last;
    v2 ^= 0xff;
    for (int r = 0; r < 3; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }

  /** The bytes after the last whole word, and the length's low byte on top. */
  private static long lastWord(byte[] b, int i, int n) {
    long last = (long) n << 56;
    for (int j = 0; i < n; i++, j += 8) {
      last |= (b[i] & 0xffL) << j;
    }
    return last;
  }

  /** SipHash-c-d of {@code b[0, n)}, the rounds counted: the reference the written-out form is held to. */
  static long sip(long k0, long k1, int c, int d, byte[] b, int n) {
    long[] v = {k0 ^ 0x736f6d6570736575L, k1 ^ 0x646f72616e646f6dL, k0 ^ 0x6c7967656e657261L, k1 ^ 0x7465646279746573L};
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long m = Words.at(b, i);
      v[3] ^= m;
      rounds(v, c);
      v[0] ^= m;
    }
    long last = lastWord(b, i, n);
    v[3] ^= last;
    rounds(v, c);
    v[0] ^= last;
    v[2] ^= 0xff;
    rounds(v, d);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
  }

  private static void rounds(long[] v, int count) {
    for (int r = 0; r < count; r++) {
      v[0] += v[1]; v[1] = Long.rotateLeft(v[1], 13); v[1] ^= v[0]; v[0] = Long.rotateLeft(v[0], 32);
      v[2] += v[3]; v[3] = Long.rotateLeft(v[3], 16); v[3] ^= v[2];
      v[0] += v[3]; v[3] = Long.rotateLeft(v[3], 21); v[3] ^= v[0];
      v[2] += v[1]; v[1] = Long.rotateLeft(v[1], 17); v[1] ^= v[2]; v[2] = Long.rotateLeft(v[2], 32);
    }
  }
}
