package dev.sessionless.core.internal;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Raw DEFLATE (RFC 1951) for JWE {@code zip: DEF}, with a hard cap on inflated size. */
public final class Deflate {
  private Deflate() {}

  /** Compresses {@code in[0, len)}; returns the compressed bytes. */
  public static byte[] deflate(byte[] in, int len) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      d.setInput(in, 0, len);
      d.finish();
      byte[] out = new byte[len + len / 8 + 64];
      int n = 0;
      while (!d.finished()) {
        if (n == out.length) {
          out = java.util.Arrays.copyOf(out, out.length * 2);
        }
        n += d.deflate(out, n, out.length - n);
      }
      return java.util.Arrays.copyOf(out, n);
    } finally {
      d.end();
    }
  }

  /**
   * Inflates {@code in[0, len)} into {@code out}, never writing more than {@code out.length}.
   *
   * @return the inflated length; -1 if the data is not valid raw DEFLATE or has trailing bytes;
   *     -2 if it inflates to more than {@code out.length} bytes
   */
  public static int inflate(byte[] in, int len, byte[] out, int cap) {
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(in, 0, len);
      int n = 0;
      while (!inf.finished()) {
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
        int k = inf.inflate(out, n, cap - n);
        if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
          return -1; // truncated stream
        }
        n += k;
      }
      return inf.getRemaining() == 0 ? n : -1;
    } catch (DataFormatException e) {
      return -1;
    } finally {
      inf.end();
    }
  }
}
