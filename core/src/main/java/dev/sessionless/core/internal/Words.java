package dev.sessionless.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Eight bytes at a time (SWAR): a little-endian {@code long} read and the byte classes the JSON
 * scanners stop at. In each mask only the lowest flag is sure (a borrow or carry can set flags
 * above it), and it is the only one the callers read.
 */
final class Words {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private Words() {}

  /** The eight bytes at {@code b[i]}, the first in the low bits. */
  static long at(byte[] b, int i) {
    return (long) LONG.get(b, i);
  }

  /** The high bit of each byte of {@code x} that is a quote, a backslash or below 0x20. */
  static long stringStops(long x) {
    long quote = x ^ 0x2222222222222222L;
    long backslash = x ^ 0x5c5c5c5c5c5c5c5cL;
    return ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (x - 0x2020202020202020L) & ~x) & HIGHS;
  }

  /** As {@link #stringStops}, and also every byte above 0x7e: what is not printable ASCII content. */
  static long notPlain(long x) {
    return stringStops(x) | ((x + ONES) | x) & HIGHS; // 0x7f and up: the high bit set, or set by adding one
  }

  /**
   * The first index from {@code j} on whose byte {@link #stringStops} flags, if one is found in a
   * whole word before {@code n}; else the index where fewer than eight bytes remain before
   * {@code n}, for a byte loop to go on from.
   */
  static int skipStringContent(byte[] b, int j, int n) {
    for (; j + Long.BYTES <= n; j += Long.BYTES) {
      long stops = stringStops(at(b, j));
      if (stops != 0) {
        return j + (Long.numberOfTrailingZeros(stops) >>> 3);
      }
    }
    return j;
  }
}
