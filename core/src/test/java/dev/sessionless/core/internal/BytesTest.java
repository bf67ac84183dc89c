package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Holds the eight-bytes-a-step search to a plain loop at every offset, length and place. */
class BytesTest {
  private static int plain(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void findsTheFirstMatchWhereAPlainLoopDoes() {
    Random random = new Random(20261126L);
    byte[] values = {'.', '-', '/', 0, (byte) 0x2e, (byte) 0xae, (byte) 0xff, 0x2d, 0x2f, 'a'};
    for (int len = 0; len <= 40; len++) {
      for (int r = 0; r < 400; r++) {
        byte[] b = new byte[len];
        for (int k = 0; k < len; k++) {
          // Mostly bytes one bit or one borrow away from a dot, so false flags would show.
          b[k] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : values[random.nextInt(values.length)];
        }
        int from = len == 0 ? 0 : random.nextInt(len + 1);
        int to = from + random.nextInt(len - from + 1);
        assertEquals(plain(b, from, to, (byte) '.'), Bytes.indexOf(b, from, to, (byte) '.'),
            () -> java.util.Arrays.toString(b) + " [" + from + ", " + to + ")");
      }
    }
    byte[] none = "eyJhbGciOiJIUzI1NiJ9eyJhbGciOiJIUzI1NiJ9".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertEquals(-1, Bytes.indexOf(none, 0, none.length, (byte) '.'));
    none[37] = '.';
    assertEquals(37, Bytes.indexOf(none, 0, none.length, (byte) '.'));
    assertEquals(-1, Bytes.indexOf(none, 0, 37, (byte) '.'), "a match past the end is not seen");
  }
}
