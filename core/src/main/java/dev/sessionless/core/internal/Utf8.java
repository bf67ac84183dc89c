package dev.sessionless.core.internal;

/** Strict UTF-8 and UTF-16 well-formedness checks (RFC 3629). */
public final class Utf8 {
  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private Utf8() {}

  /**
   * Whether {@code b[off, off + len)} is well-formed UTF-8: no overlong forms, no surrogate
   * code points, nothing above U+10FFFF, no truncated sequence. ASCII runs are checked eight
   * bytes at a time.
   */
  public static boolean isValid(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end) {
      if (i + 8 <= end && ((long) LONG.get(b, i) & 0x8080808080808080L) == 0) {
        i += 8; // eight ASCII bytes
        continue;
      }
      int c = b[i];
      if (c >= 0) {
        i++;
        continue;
      }
      c &= 0xff;
      if (c < 0xC2) {
        return false; // continuation byte as lead, or overlong 2-byte form
      } else if (c < 0xE0) {
        if (i + 1 >= end || !cont(b[i + 1])) {
          return false;
        }
        i += 2;
      } else if (c < 0xF0) {
        if (i + 2 >= end || !cont(b[i + 1]) || !cont(b[i + 2])) {
          return false;
        }
        int b1 = b[i + 1] & 0xff;
        if ((c == 0xE0 && b1 < 0xA0) || (c == 0xED && b1 >= 0xA0)) {
          return false; // overlong, or a UTF-16 surrogate encoded as UTF-8
        }
        i += 3;
      } else if (c < 0xF5) {
        if (i + 3 >= end || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) {
          return false;
        }
        int b1 = b[i + 1] & 0xff;
        if ((c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 >= 0x90)) {
          return false; // overlong, or above U+10FFFF
        }
        i += 4;
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean cont(byte b) {
    return (b & 0xC0) == 0x80;
  }

  /** Whether {@code s[off, off + len)} has no unpaired surrogate (as a JSON {@code \\uD800} escape can make). */
  public static boolean hasNoLoneSurrogate(char[] s, int off, int len) {
    int end = off + len;
    for (int i = off; i < end; i++) {
      char c = s[i];
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s[i + 1])) {
          i++;
        } else {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether {@code s} has no unpaired surrogate. */
  public static boolean hasNoLoneSurrogate(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return false;
        }
      }
    }
    return true;
  }
}
