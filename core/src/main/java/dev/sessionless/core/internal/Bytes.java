package dev.sessionless.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte searches eight bytes a step, for the decode path's scans over a whole token. */
public final class Bytes {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private Bytes() {}

  /** The index of the first {@code c} in {@code b[from, to)}, or -1. */
  public static int indexOf(byte[] b, int from, int to, byte c) {
    long pattern = (c & 0xffL) * ONES;
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long x = (long) LONG.get(b, i) ^ pattern;
      long zero = (x - ONES) & ~x & HIGHS; // the lowest flag is the first match; any above may be false
      if (zero != 0) {
        return i + (Long.numberOfTrailingZeros(zero) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }
}
