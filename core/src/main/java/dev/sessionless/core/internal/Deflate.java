package dev.sessionless.core.internal;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Raw DEFLATE (RFC 1951) for JWE {@code zip: DEF}, with a hard cap on inflated size.
 *
 * <p>A {@code Deflater} or {@code Inflater} is costly to make (zlib allocates and clears its
 * native state: ~270 KB for a deflater, ~40 KB for an inflater), so both are pooled and reset
 * between uses rather than made per token. The pools are small and owned by this class, never by
 * a thread (see {@link Pool}); an object the pool cannot take back is ended at once, so its native
 * memory does not wait for the garbage collector.
 */
public final class Deflate {
  /** At most this many of each kind are kept, whatever the core count: native memory per deflater is large. */
  static final int POOLED = 8;
  private static final Pool<Deflater> DEFLATERS =
      new Pool<>(() -> new Deflater(Deflater.DEFAULT_COMPRESSION, true), POOLED);
  private static final Pool<Inflater> INFLATERS = new Pool<>(() -> new Inflater(true), POOLED);
  /** Deflaters for the dictionary kind: zlib's best level, the dictionary set again after each reset. */
  private static final Pool<Deflater> DICTIONARY_DEFLATERS =
      new Pool<>(() -> new Deflater(Deflater.BEST_COMPRESSION, true), POOLED);

  /**
   * The preset dictionary of {@code zip: SLD1} ({@code Compression.DEFLATE_WITH_DICTIONARY}):
   * the names and punctuation every session token repeats, most frequent last (DEFLATE reaches
   * nearer text with shorter codes). It may never change: a token written with it must inflate
   * on every later version. A new dictionary needs a new {@code zip} value. {@code DeflateTest}
   * pins its SHA-256; docs/SLD1.md prints it for readers of the token ({@code Sld1SpecTest}).
   */
  private static final byte[] DICTIONARY = ("{\"iss\":\"https://\",\"aud\":\"\",\"sub\":\"\",\"iat\":17,\"exp\":17,"
      + "\"nbf\":17,\"jti\":\"\",\"auth_time\":17,\"st\":{\"\":{\"\":\"\",\"\":[{\"\":\"\",\"\":1,\"\":true,"
      + "\"\":false,\"\":null}],\"},\"$sessionless\":{\"c\":17,\"m\":1800,\"t\":{\"\":\"")
      .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  /** The dictionary's hash chains, for {@link FixedHuffman}. */
  private static final FixedHuffman.Preset PRESET = new FixedHuffman.Preset(DICTIONARY);

  /** A copy of the {@code SLD1} dictionary (for tests and other readers). */
  public static byte[] dictionary() {
    return DICTIONARY.clone();
  }

  private Deflate() {}

  /**
   * Compresses {@code in[0, len)} into {@code scratch}'s inflate buffer, free on the encode path
   * (the encoder allocates no array for the compressed bytes). Up to {@link
   * FixedHuffman#MAX_INPUT} bytes this is one fixed-code block, which any reader inflates without
   * building code tables first and which costs under half of zlib's time to write (see {@link
   * FixedHuffman}); larger inputs go to zlib. With the {@code SLD1} dictionary, both match against
   * it.
   *
   * @return the compressed length, at {@code scratch.inflated()[0, n)}
   */
  public static int deflate(byte[] in, int len, boolean dictionary, Scratch scratch) {
    if (len <= FixedHuffman.MAX_INPUT && FastPaths.on(FastPaths.Path.DEFLATE)) {
      return FixedHuffman.encodePooled(in, len, dictionary ? PRESET : null,
          scratch.inflated(FixedHuffman.maxEncodedLength(len)));
    }
    return zlib(dictionary ? DICTIONARY_DEFLATERS : DEFLATERS, dictionary, in, len, scratch);
  }

  private static int zlib(Pool<Deflater> pool, boolean dictionary, byte[] in, int len, Scratch scratch) {
    Deflater d = pool.take();
    try {
      if (dictionary) {
        d.setDictionary(DICTIONARY); // before any input, after every reset
      }
      d.setInput(in, 0, len);
      d.finish();
      byte[] out = scratch.inflated(len + len / 8 + 64);
      int n = 0;
      while (!d.finished()) {
        if (n == out.length) {
          out = scratch.growInflated(out.length * 2, n);
        }
        n += d.deflate(out, n, out.length - n);
      }
      return n;
    } finally {
      d.reset();
      if (!pool.give(d)) {
        d.end();
      }
    }
  }

  /**
   * Inflates {@code in[0, len)} into {@code scratch}'s inflate buffer ({@link Scratch#inflated()}),
   * growing it as the data needs, never beyond {@code cap} bytes: a small token costs a small
   * buffer, and a bomb stops at the cap.
   *
   * @return the inflated length; -1 if the data is not valid raw DEFLATE or has trailing bytes;
   *     -2 if it inflates to more than {@code cap} bytes
   */
  public static int inflate(byte[] in, int len, Scratch scratch, int cap) {
    return inflate(in, len, scratch, cap, false);
  }

  /**
   * {@link #inflate(byte[], int, Scratch, int)}, with the {@code SLD1} dictionary when
   * {@code dictionary} (raw DEFLATE takes its dictionary before the first byte).
   */
  public static int inflate(byte[] in, int len, Scratch scratch, int cap, boolean dictionary) {
    Inflater inf = INFLATERS.take();
    try {
      if (dictionary) {
        inf.setDictionary(DICTIONARY);
      }
      inf.setInput(in, 0, len);
      byte[] out = scratch.inflated(Math.min(cap, Math.max(1024, 4 * len)));
      int n = 0;
      while (!inf.finished()) {
        if (n == out.length && out.length < cap) {
          out = scratch.growInflated((int) Math.min(cap, 2L * out.length), n);
        }
        if (n == cap) {
          // Room is exhausted: one more byte would exceed the cap.
          byte[] probe = new byte[1];
          if (inf.inflate(probe) > 0) {
            return -2;
          }
          if (inf.finished()) {
            break;
          }
          return inf.needsInput() || inf.needsDictionary() ? -1 : -2;
        }
        int k = inf.inflate(out, n, Math.min(cap, out.length) - n);
        // zlib may finish in a call that inflates nothing (the stream of an empty input): done, not truncated.
        if (k == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
          return -1; // truncated stream
        }
        n += k;
      }
      return inf.getRemaining() == 0 ? n : -1;
    } catch (DataFormatException e) {
      return -1;
    } finally {
      inf.reset();
      if (!INFLATERS.give(inf)) {
        inf.end();
      }
    }
  }
}
