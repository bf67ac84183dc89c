package dev.sessionless.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Raw DEFLATE (RFC 1951) as one block of fixed Huffman codes (§3.2.6), for small payloads.
 *
 * <p>Contract: takes at most {@link #MAX_INPUT} bytes of input and a preset of at most {@link
 * #MAX_PRESET} bytes, and writes one final fixed-code block that any raw inflater (given the same
 * preset first) inflates to exactly the input; it never fails and never refuses. {@link Deflate}
 * hands larger inputs to zlib. {@code FixedHuffmanTest} inflates its output with {@code
 * java.util.zip.Inflater}. Switch: {@code -Ddev.sessionless.fastpath.deflate=off} ({@link
 * FastPaths.Path#DEFLATE}); then zlib writes every payload (dynamic codes: other bytes, the same
 * payload).
 *
 * <p>Why not zlib: for a payload of a few hundred bytes zlib chooses a block with dynamic codes,
 * and the reader must rebuild those code tables before it can inflate a byte: on a session
 * payload the tables are most of a decode. Every reader, ours or jose4j's or Nimbus's, inflates with zlib, and zlib reads fixed blocks from
 * tables it built once. {@code java.util.zip.Deflater} cannot be told to write fixed codes (zlib's
 * {@code Z_FIXED} is not exposed), hence this encoder. It writes a few percent more bytes than
 * zlib's dynamic block at these sizes, which is why {@link Deflate} uses it only up to {@link
 * #MAX_INPUT} bytes.
 *
 * <p>Matching is greedy with a one-step lazy check for matches shorter than {@code MAX_LAZY},
 * over hash chains of 3-byte prefixes at most {@code MAX_CHAIN} candidates deep (zlib's middle
 * levels work the same way, deeper), a match measured eight bytes at a time. On session payloads
 * of a few hundred bytes these limits write the same bytes as chains of 32 and a lazy check on
 * every match (within a byte or two), in about 10% less time. Positions fit in a {@code short}
 * because the input is small.
 *
 * <p>A {@link Preset} dictionary (RFC 1951 §3.2.2's "preset dictionary", as zlib's
 * {@code deflateSetDictionary}) is matched as if it came just before the input: the stream
 * inflates only when the reader is given the same dictionary first. Its hash chains are built once,
 * when the preset is made, and copied in per encode. zlib's own deflater pays a fixed cost per
 * payload however small (it clears a 64 KiB hash table on every reset). {@code DeflateBenchmark}
 * (benchmarks/) times this encoder beside a pooled zlib, and the JDK inflater on both kinds of
 * block.
 */
final class FixedHuffman {
  /** The largest input this encoder takes; larger payloads go to zlib. */
  static final int MAX_INPUT = 512;
  /** The largest preset dictionary this encoder takes. */
  static final int MAX_PRESET = 256;
  /** Dictionary and input, which matches may reach back over. */
  private static final int WINDOW = MAX_PRESET + MAX_INPUT;

  private static final int MIN_MATCH = 3;
  private static final int MAX_MATCH = 258;
  private static final int HASH_BITS = 9;
  private static final int MAX_CHAIN = 16;
  /** A match at least this long is taken without looking for a longer one at the next byte. */
  private static final int MAX_LAZY = 16;

  /**
   * The codes, bit-reversed for an LSB-first writer and packed as {@code bits << 24 | value}, so a
   * literal or a whole match (length and distance with their extra bits) is one write. Literal
   * and length symbols 0..287 by symbol; match lengths 3..258 by {@code length - 3}, the symbol's
   * code then its extra bits; distances 1..WINDOW by {@code distance - 1}, the 5-bit code then
   * its extra bits.
   */
  private static final int[] LITERAL = new int[288];
  private static final int[] LENGTH = new int[MAX_MATCH - MIN_MATCH + 1];
  private static final int[] DISTANCE = new int[WINDOW];

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
      LITERAL[sym] = packed(Integer.reverse(code) >>> (32 - bits), bits);
    }
    int[] lenBase = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67,
        83, 99, 115, 131, 163, 195, 227, 258};
    int[] lenExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5,
        5, 5, 5, 0};
    for (int code = 0; code < lenBase.length; code++) {
      int end = lenBase[code] + (1 << lenExtra[code]);
      for (int len = lenBase[code]; len < end && len <= MAX_MATCH; len++) {
        int symbol = LITERAL[257 + code];
        int symbolBits = symbol >>> 24;
        LENGTH[len - MIN_MATCH] = packed((symbol & 0xFFFFFF) | (len - lenBase[code]) << symbolBits,
            symbolBits + lenExtra[code]);
      }
    }
    // Code 284's range would reach 258, but the last pass gives 258 its own code, 285 (RFC 1951).
    int base = 1;
    for (int code = 0; base <= WINDOW; code++) {
      int extra = code < 4 ? 0 : (code - 2) / 2;
      for (int d = base; d < base + (1 << extra) && d <= WINDOW; d++) {
        DISTANCE[d - 1] = packed(Integer.reverse(code) >>> 27 | (d - base) << 5, 5 + extra);
      }
      base += 1 << extra;
    }
  }

  /** Eight input bytes at a time, for measuring how far a match runs. */
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static int packed(int value, int bits) {
    return bits << 24 | value;
  }

  /** The window and its match tables, pooled: an encode allocates nothing. */
  private static final class Tables {
    final byte[] window = new byte[WINDOW];
    final short[] head = new short[1 << HASH_BITS];
    final short[] prev = new short[WINDOW];
  }

  /**
   * A preset dictionary with its hash chains built: immutable, made once and shared by every
   * encode that uses it.
   */
  static final class Preset {
    private final byte[] bytes;
    private final short[] head = new short[1 << HASH_BITS];
    private final short[] prev;

    /**
     * @param dictionary at most {@link #MAX_PRESET} bytes (copied)
     */
    Preset(byte[] dictionary) {
      if (dictionary.length > MAX_PRESET) {
        throw new IllegalArgumentException("a preset of " + dictionary.length + " bytes is over " + MAX_PRESET);
      }
      bytes = dictionary.clone();
      prev = new short[bytes.length];
      Arrays.fill(head, (short) -1);
      for (int i = 0; i + MIN_MATCH <= bytes.length; i++) {
        int h = hash(bytes, i);
        prev[i] = head[h];
        head[h] = (short) i;
      }
    }
  }

  private static final Pool<Tables> TABLES = new Pool<>(Tables::new);

  private FixedHuffman() {}

  /** An upper bound on the encoded size of {@code len} bytes: every byte a 9-bit literal. */
  static int maxEncodedLength(int len) {
    return (3 + 9 * len + 7 + 7) / 8;
  }

  /**
   * {@link #encode(byte[], int, Preset, byte[])} with the pooled match tables: into {@code out} (at least
   * {@link #maxEncodedLength(int)} bytes), allocating nothing.
   */
  static int encodePooled(byte[] in, int len, Preset preset, byte[] out) {
    Tables t = TABLES.take();
    try {
      return encode(in, len, preset, out, t);
    } finally {
      TABLES.give(t);
    }
  }

  /**
   * Encodes {@code in[0, len)} into {@code out} from index 0 (at least {@link
   * #maxEncodedLength(int)} bytes) as one final fixed-code block.
   *
   * @param preset the preset dictionary the reader will be given, or null for none
   * @return the number of bytes written
   */
  static int encode(byte[] in, int len, Preset preset, byte[] out) {
    return encode(in, len, preset, out, new Tables());
  }

  private static int encode(byte[] source, int len, Preset preset, byte[] out, Tables tables) {
    if (len > MAX_INPUT) {
      throw new IllegalArgumentException("input of " + len + " bytes is over " + MAX_INPUT);
    }
    // The window is the dictionary, then the input: positions below `start` are the dictionary's.
    byte[] in = tables.window;
    short[] head = tables.head;
    short[] prev = tables.prev; // only entries written in this call (or copied from the preset) are read
    int start = 0;
    if (preset == null) {
      Arrays.fill(head, (short) -1);
    } else {
      start = preset.bytes.length;
      System.arraycopy(preset.bytes, 0, in, 0, start);
      System.arraycopy(preset.head, 0, head, 0, head.length);
      System.arraycopy(preset.prev, 0, prev, 0, start);
    }
    System.arraycopy(source, 0, in, start, len);
    len += start;
    // The dictionary's last two positions are hashed only now, with the input's first bytes.
    for (int p = Math.max(0, start - (MIN_MATCH - 1)); p < start && p + MIN_MATCH <= len; p++) {
      int h = hash(in, p);
      prev[p] = head[h];
      head[h] = (short) p;
    }
    Bits w = new Bits(out);
    w.put(0b011, 3); // BFINAL = 1, BTYPE = 01 (fixed codes)
    int i = start;
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
          int n = common(in, j, i, limit);
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
        i = insert(in, i + 1, i - 1 + pendingLen, len, head, prev);
        pendingLen = 0;
        continue;
      }
      if (matchLen >= MAX_LAZY) { // long enough: taken at once, no search at i + 1
        w.match(matchLen, matchDist);
        i = insert(in, i + 1, i + matchLen, len, head, prev);
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

  /**
   * Enters positions {@code [from, end)}, the inside of a match just written, into the hash
   * chains (each that still has {@link #MIN_MATCH} bytes before {@code len}), so later matches
   * can start there.
   *
   * @return {@code end}, the next position to encode
   */
  private static int insert(byte[] in, int from, int end, int len, short[] head, short[] prev) {
    for (int i = from; i < end; i++) {
      if (i + MIN_MATCH <= len) {
        int h = hash(in, i);
        prev[i] = head[h];
        head[h] = (short) i;
      }
    }
    return end;
  }

  /** How many bytes from {@code in[j]} and {@code in[i]} agree, at most {@code limit}. */
  private static int common(byte[] in, int j, int i, int limit) {
    int n = 0;
    while (n + 8 <= limit) {
      long x = (long) LONG.get(in, j + n) ^ (long) LONG.get(in, i + n);
      if (x != 0) {
        return n + (Long.numberOfTrailingZeros(x) >>> 3);
      }
      n += 8;
    }
    while (n < limit && in[j + n] == in[i + n]) {
      n++;
    }
    return n;
  }

  private static int hash(byte[] in, int i) {
    int v = (in[i] & 0xFF) << 16 | (in[i + 1] & 0xFF) << 8 | (in[i + 2] & 0xFF);
    return (v * 0x9E3779B1) >>> (32 - HASH_BITS);
  }

  /**
   * An LSB-first bit writer over a byte array (RFC 1951 §3.1.1), storing four bytes at a time.
   * Every write is at most 31 bits, so the 64-bit accumulator, flushed at 32, never overflows;
   * and only bytes whose bits are all written are stored before {@link #finish()}, so the output
   * never passes {@link #maxEncodedLength(int)}.
   */
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
      if (count >= 32) {
        out[at] = (byte) acc;
        out[at + 1] = (byte) (acc >>> 8);
        out[at + 2] = (byte) (acc >>> 16);
        out[at + 3] = (byte) (acc >>> 24);
        at += 4;
        acc >>>= 32;
        count -= 32;
      }
    }

    private void put(int packed) {
      put(packed & 0xFFFFFF, packed >>> 24);
    }

    void literal(int sym) {
      put(LITERAL[sym]);
    }

    void match(int len, int dist) {
      int l = LENGTH[len - MIN_MATCH];
      int d = DISTANCE[dist - 1];
      int lBits = l >>> 24;
      put((l & 0xFFFFFF) | (d & 0xFFFFFF) << lBits, lBits + (d >>> 24)); // at most 13 + 13 bits
    }

    int finish() {
      while (count > 0) {
        out[at++] = (byte) acc;
        acc >>>= 8;
        count -= 8;
      }
      return at;
    }
  }
}
