package dev.sessionless.core.internal;

import java.util.Arrays;
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

  private Deflate() {}

  /**
   * Compresses {@code in[0, len)}; returns the compressed bytes. Up to {@link
   * FixedHuffman#MAX_INPUT} bytes this is one fixed-code block, which any reader inflates without
   * building code tables first (see {@link FixedHuffman}); larger inputs go to zlib.
   */
  public static byte[] deflate(byte[] in, int len) {
    if (len <= FixedHuffman.MAX_INPUT) {
      return FixedHuffman.encode(in, len);
    }
    Deflater d = DEFLATERS.take();
    try {
      d.setInput(in, 0, len);
      d.finish();
      byte[] out = new byte[len + len / 8 + 64];
      int n = 0;
      while (!d.finished()) {
        if (n == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        n += d.deflate(out, n, out.length - n);
      }
      return Arrays.copyOf(out, n);
    } finally {
      d.reset();
      if (!DEFLATERS.give(d)) {
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
    Inflater inf = INFLATERS.take();
    try {
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
        if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
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
