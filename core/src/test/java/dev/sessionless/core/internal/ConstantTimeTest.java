package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The word-at-a-time comparison says what a byte loop says, for a difference at any place. */
class ConstantTimeTest {
  @Test
  void equalRangesAreEqualAndOneFlippedBitAnywhereIsNot() {
    Random random = new Random(20261127L);
    for (int len = 0; len <= 70; len++) {
      for (int aOff : new int[] {0, 3}) {
        for (int bOff : new int[] {0, 5}) {
          byte[] a = new byte[aOff + len + 2];
          random.nextBytes(a);
          byte[] b = new byte[bOff + len + 1];
          System.arraycopy(a, aOff, b, bOff, len);
          assertTrue(ConstantTime.equals(a, aOff, b, bOff, len), "length " + len);
          for (int at = 0; at < len; at++) {
            int bit = 1 << random.nextInt(8);
            b[bOff + at] ^= bit;
            assertFalse(ConstantTime.equals(a, aOff, b, bOff, len), "length " + len + ", byte " + at);
            b[bOff + at] ^= bit;
          }
        }
      }
    }
    assertTrue(ConstantTime.equals(new byte[] {1, 2}, new byte[] {1, 2}));
    assertFalse(ConstantTime.equals(new byte[] {1, 2}, new byte[] {1, 2, 3}));
    assertEquals(false, ConstantTime.equals(new byte[] {(byte) 0x80}, new byte[] {0}));
  }
}
