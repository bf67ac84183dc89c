package dev.sessionless.core.internal;

/** Comparisons whose running time does not depend on where the inputs differ. */
public final class ConstantTime {
  private ConstantTime() {}

  /** Whether {@code a[aOff, aOff + len)} equals {@code b[bOff, bOff + len)}, in time that depends on {@code len} only. */
  public static boolean equals(byte[] a, int aOff, byte[] b, int bOff, int len) {
    // Eight bytes a step, every step taken whatever the bytes: no early exit, no branch on data.
    long wide = 0;
    int i = 0;
    for (; i + Long.BYTES <= len; i += Long.BYTES) {
      wide |= Words.at(a, aOff + i) ^ Words.at(b, bOff + i);
    }
    int diff = 0;
    for (; i < len; i++) {
      diff |= a[aOff + i] ^ b[bOff + i];
    }
    return (wide | diff) == 0;
  }

  /** Whether two arrays are equal; the time depends on their lengths only. */
  public static boolean equals(byte[] a, byte[] b) {
    return a.length == b.length && equals(a, 0, b, 0, a.length);
  }
}
