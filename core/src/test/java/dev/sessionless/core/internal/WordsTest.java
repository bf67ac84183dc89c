package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The string scanners' word-at-a-time stop finder agrees with a byte loop everywhere. */
class WordsTest {
  private static boolean stops(int c) {
    return c == '"' || c == '\\' || c < 0x20;
  }

  private static int firstStop(long x) {
    for (int k = 0; k < 8; k++) {
      if (stops((int) (x >>> (8 * k)) & 0xff)) {
        return k;
      }
    }
    return 8;
  }

  @Test
  void stringStopsFlagsFirstTheFirstQuoteBackslashOrControlByte() {
    long content = 0x6161616161616161L;
    for (int at = 0; at < 8; at++) {
      for (int v = 0; v < 256; v++) {
        long x = content & ~(0xffL << (8 * at)) | (long) v << (8 * at);
        long m = Words.stringStops(x);
        assertEquals(firstStop(x), m == 0 ? 8 : Long.numberOfTrailingZeros(m) >>> 3, "byte " + v + " at " + at);
      }
    }
    Random random = new Random(20261127L);
    int[] near = {0, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff};
    for (int r = 0; r < 1_000_000; r++) {
      long x = 0;
      for (int k = 0; k < 8; k++) {
        x |= (long) (random.nextBoolean() ? near[random.nextInt(near.length)] : random.nextInt(256)) << (8 * k);
      }
      long m = Words.stringStops(x);
      assertEquals(firstStop(x), m == 0 ? 8 : Long.numberOfTrailingZeros(m) >>> 3, Long.toHexString(x));
    }
  }

  @Test
  void skipStringContentStopsAtTheFirstStopOrWhereAByteLoopMustGoOn() {
    Random random = new Random(5);
    for (int n = 0; n <= 40; n++) {
      for (int r = 0; r < 300; r++) {
        byte[] b = new byte[n + 8]; // bytes past n are there, and must not be looked at
        for (int k = 0; k < b.length; k++) {
          b[k] = (byte) (random.nextInt(6) == 0 ? "\"\\\n".charAt(random.nextInt(3)) : 'a' + random.nextInt(26));
        }
        int from = random.nextInt(n + 1);
        int got = Words.skipStringContent(b, from, n);
        // Whole words only: the first stop among them, else where fewer than eight bytes remain.
        int tail = from + (n - from) / 8 * 8;
        int want = tail;
        for (int k = from; k < tail; k++) {
          if (stops(b[k] & 0xff)) {
            want = k;
            break;
          }
        }
        assertEquals(want, got, "from " + from + " n " + n);
      }
    }
  }
}
