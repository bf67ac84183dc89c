package dev.sessionless.core.internal;

import java.util.Arrays;

/**
 * Raw DEFLATE (RFC 1951) as one block of fixed Huffman codes (§3.2.6), for small payloads.
 *
 * <p>Why not zlib: for a payload of a few hundred bytes zlib chooses a block with dynamic codes,
 * and the reader must rebuild those code tables before it can inflate a byte. Measured on a
 * 198-byte session payload, inflating zlib's 163 bytes took 1.65 µs, and inflating the same
 * payload as one fixed-code block (174 bytes) 0.5 µs: the tables were two thirds of a decode.
 * Every reader, ours or jose4j's or Nimbus's, inflates with zlib, and zlib reads fixed blocks from
 * tables it built once. {@code java.util.zip.Deflater} cannot be told to write fixed codes (zlib's
 * {@code Z_FIXED} is not exposed), hence this encoder. It writes a few percent more bytes than
 * zlib's dynamic block at these sizes, which is why {@link Deflate} uses it only up to {@link
 * #MAX_INPUT} bytes.
 *
 * <p>Matching is greedy with a one-step lazy check, over hash chains of 3-byte prefixes, as
 * zlib's middle levels do. Positions fit in a {@code short} because the input is small.
 */
final class FixedHuffman {
  /** The largest input this encoder takes; larger payloads go to zlib. */
  static final int MAX_INPUT = 512;

  private static final int MIN_MATCH = 3;
  private static final int MAX_MATCH = 258;
  private static final int HASH_BITS = 9;
  private static final int MAX_CHAIN = 32;

  /** Literal/length symbol 0..287: the fixed code, bit-reversed for an LSB-first writer. */
  private static final int[] LIT_CODE = new int[288];
  private static final byte[] LIT_BITS = new byte[288];
  /** Match length 3..258 (index length - 3): symbol, extra-bit count and extra-bit value. */
  private static final short[] LEN_SYMBOL = new short[MAX_MATCH - MIN_MATCH + 1];
  private static final byte[] LEN_EXTRA_BITS = new byte[MAX_MATCH - MIN_MATCH + 1];
  private static final short[] LEN_EXTRA = new short[MAX_MATCH - MIN_MATCH + 1];
  /** Distance 1..MAX_INPUT (index distance - 1): reversed 5-bit code, extra-bit count, value. */
  private static final byte[] DIST_CODE = new byte[MAX_INPUT];
  private static final byte[] DIST_EXTRA_BITS = new byte[MAX_INPUT];
  private static final short[] DIST_EXTRA = new short[MAX_INPUT];

  static {
    for (int sym = 0; sym < 288; sym++) {
      int code;
      int bits;
      if (sym < 144) {
        code = 0x30 + sym;
        bits = 8;
      } else if (sym < 256) {
        code = 0x190 + sym - 144;
        bits = 9;
      } else if (sym < 280) {
        code = sym - 256;
        bits = 7;
      } else {
        code = 0xC0 + sym - 280;
        bits = 8;
      }
      LIT_CODE[sym] = Integer.reverse(code) >>> (32 - bits);
      LIT_BITS[sym] = (byte) bits;
    }
    int[] lenBase = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67,
        83, 99, 115, 131, 163, 195, 227, 258};
    int[] lenExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5,
        5, 5, 5, 0};
    for (int code = 0; code < lenBase.length; code++) {
      int end = lenBase[code] + (1 << lenExtra[code]);
      for (int len = lenBase[code]; len < end && len <= MAX_MATCH; len++) {
        LEN_SYMBOL[len - MIN_MATCH] = (short) (257 + code);
        LEN_EXTRA_BITS[len - MIN_MATCH] = (byte) lenExtra[code];
        LEN_EXTRA[len - MIN_MATCH] = (short) (len - lenBase[code]);
      }
    }
    // Code 284's range would reach 258, but the last pass gives 258 its own code, 285 (RFC 1951).
    int base = 1;
    for (int code = 0; base <= MAX_INPUT; code++) {
      int extra = code < 4 ? 0 : (code - 2) / 2;
      for (int d = base; d < base + (1 << extra) && d <= MAX_INPUT; d++) {
        DIST_CODE[d - 1] = (byte) (Integer.reverse(code) >>> 27);
        DIST_EXTRA_BITS[d - 1] = (byte) extra;
        DIST_EXTRA[d - 1] = (short) (d - base);
      }
      base += 1 << extra;
    }
  }

  /** The match tables and an output buffer, pooled: an encode then allocates only its result. */
  private static final class Tables {
    final short[] head = new short[1 << HASH_BITS];
    final short[] prev = new short[MAX_INPUT];
    final byte[] out = new byte[maxEncodedLength(MAX_INPUT)];
  }

  private static final Pool<Tables> TABLES = new Pool<>(Tables::new);

  private FixedHuffman() {}

  /** An upper bound on the encoded size of {@code len} bytes: every byte a 9-bit literal. */
  static int maxEncodedLength(int len) {
    return (3 + 9 * len + 7 + 7) / 8;
  }

  /**
   * {@link #encode(byte[], int, byte[])} with the pooled match tables: into {@code out} (at least
   * {@link #maxEncodedLength(int)} bytes), allocating nothing.
   */
  static int encodePooled(byte[] in, int len, byte[] out) {
    Tables t = TABLES.take();
    try {
      return encode(in, len, out, t);
    } finally {
      TABLES.give(t);
    }
  }

  /**
   * Encodes {@code in[0, len)} into {@code out} from index 0 (at least {@link
   * #maxEncodedLength(int)} bytes) as one final fixed-code block.
   *
   * @return the number of bytes written
   */
  static int encode(byte[] in, int len, byte[] out) {
    return encode(in, len, out, new Tables());
  }

  private static int encode(byte[] in, int len, byte[] out, Tables tables) {
    if (len > MAX_INPUT) {
      throw new IllegalArgumentException("input of " + len + " bytes is over " + MAX_INPUT);
    }
    short[] head = tables.head;
    Arrays.fill(head, (short) -1);
    short[] prev = tables.prev; // only entries written in this call are read
    Bits w = new Bits(out);
    w.put(0b011, 3); // BFINAL = 1, BTYPE = 01 (fixed codes)
    int i = 0;
    int pendingLen = 0; // a match found at i - 1, held back to see whether i does better
    int pendingDist = 0;
    while (i < len) {
      int matchLen = 0;
      int matchDist = 0;
      if (i + MIN_MATCH <= len) {
        int h = hash(in, i);
        int limit = Math.min(MAX_MATCH, len - i);
        int chain = MAX_CHAIN;
        for (int j = head[h]; j >= 0 && chain-- > 0; j = prev[j]) {
          if (in[j + matchLen] != in[i + matchLen] || in[j] != in[i]) {
            continue;
          }
          int n = 0;
          while (n < limit && in[j + n] == in[i + n]) {
            n++;
          }
          if (n > matchLen) {
            matchLen = n;
            matchDist = i - j;
            if (n == limit) {
              break;
            }
          }
        }
        prev[i] = head[h];
        head[h] = (short) i;
      }
      if (matchLen < MIN_MATCH) {
        matchLen = 0;
      }
      if (pendingLen > 0) {
        if (matchLen > pendingLen) {
          w.literal(in[i - 1] & 0xFF); // the match at i wins: i - 1 goes as a literal
          pendingLen = matchLen;
          pendingDist = matchDist;
          i++;
          continue;
        }
        w.match(pendingLen, pendingDist);
        int end = i - 1 + pendingLen;
        for (i++; i < end; i++) { // the matched bytes still enter the chains
          if (i + MIN_MATCH <= len) {
            int h = hash(in, i);
            prev[i] = head[h];
            head[h] = (short) i;
          }
        }
        pendingLen = 0;
        continue;
      }
      if (matchLen > 0) {
        pendingLen = matchLen;
        pendingDist = matchDist;
      } else {
        w.literal(in[i] & 0xFF);
      }
      i++;
    }
    if (pendingLen > 0) {
      w.match(pendingLen, pendingDist);
    }
    w.literal(256); // end of block
    return w.finish();
  }

  private static int hash(byte[] in, int i) {
    int v = (in[i] & 0xFF) << 16 | (in[i + 1] & 0xFF) << 8 | (in[i + 2] & 0xFF);
    return (v * 0x9E3779B1) >>> (32 - HASH_BITS);
  }

  /** An LSB-first bit writer over a byte array (RFC 1951 §3.1.1). */
  private static final class Bits {
    private final byte[] out;
    private int at;
    private long acc;
    private int count;

    Bits(byte[] out) {
      this.out = out;
    }

    void put(int value, int bits) {
      acc |= (long) value << count;
      count += bits;
      while (count >= 8) {
        out[at++] = (byte) acc;
        acc >>>= 8;
        count -= 8;
      }
    }

    void literal(int sym) {
      put(LIT_CODE[sym], LIT_BITS[sym]);
    }

    void match(int len, int dist) {
      int l = len - MIN_MATCH;
      literal(LEN_SYMBOL[l]);
      if (LEN_EXTRA_BITS[l] > 0) {
        put(LEN_EXTRA[l], LEN_EXTRA_BITS[l]);
      }
      put(DIST_CODE[dist - 1], 5);
      if (DIST_EXTRA_BITS[dist - 1] > 0) {
        put(DIST_EXTRA[dist - 1], DIST_EXTRA_BITS[dist - 1]);
      }
    }

    int finish() {
      if (count > 0) {
        out[at++] = (byte) acc;
      }
      return at;
    }
  }
}
