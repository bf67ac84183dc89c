package dev.sessionless.core.internal;

import java.util.Arrays;

/** {@link Deflate#deflate(byte[], int, boolean, Scratch)}'s output as an array of its own, for tests. */
final class Deflated {
  private Deflated() {}

  static byte[] of(byte[] in, int len) {
    return copied(in, len, false);
  }

  static byte[] withDictionary(byte[] in, int len) {
    return copied(in, len, true);
  }

  private static byte[] copied(byte[] in, int len, boolean dictionary) {
    Scratch s = Scratch.take();
    try {
      int n = Deflate.deflate(in, len, dictionary, s); // first: it may replace the buffer
      return Arrays.copyOf(s.inflated(), n);
    } finally {
      s.release();
    }
  }
}
