package dev.sessionless.core.internal;

import java.nio.charset.StandardCharsets;

/**
 * The JSON grammar pieces both byte scanners ({@link FastClaims} and {@link StateScanner}) check
 * by RFC 8259: strings with their escapes, numbers and literals. Each answers the index after
 * what it read, or -1 when the bytes do not fit the grammar (or a limit): the scanner then hands
 * over to the Jackson path, which decides and words any rejection. The caller has checked UTF-8.
 */
final class JsonScan {
  private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

  private JsonScan() {}

  /**
   * A string's content from {@code i} (after its opening quote) through its closing quote:
   * control characters and bad escapes fail; with {@code pairs}, so does an escaped surrogate
   * that is not half of a pair.
   */
  static int string(byte[] b, int i, int end, boolean pairs) {
    for (int j = Words.skipStringContent(b, i, end); j < end; j++) {
      int c = b[j];
      if (c == '"') {
        return j + 1;
      }
      if (c >= 0 && c < 0x20) {
        return -1;
      }
      if (c == '\\') {
        if (++j >= end) {
          return -1;
        }
        switch (b[j]) {
          case '"':
          case '\\':
          case '/':
          case 'b':
          case 'f':
          case 'n':
          case 'r':
          case 't':
            break;
          case 'u': {
            int u = hex4(b, j + 1, end);
            if (u < 0) {
              return -1;
            }
            j += 4;
            if (pairs && Character.isLowSurrogate((char) u)) {
              return -1;
            }
            if (pairs && Character.isHighSurrogate((char) u)) {
              int low = j + 2 < end && b[j + 1] == '\\' && b[j + 2] == 'u' ? hex4(b, j + 3, end) : -1;
              if (low < 0 || !Character.isLowSurrogate((char) low)) {
                return -1;
              }
              j += 6;
            }
            break;
          }
          default:
            return -1;
        }
      }
      // Other bytes, non-ASCII included, are string content.
    }
    return -1;
  }

  /** The four hex digits at {@code b[i]}, before {@code end}, as a number; or -1. */
  static int hex4(byte[] b, int i, int end) {
    if (i + 4 > end) {
      return -1;
    }
    int v = 0;
    for (int k = i; k < i + 4; k++) {
      int c = b[k];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }

  /** {@code true}, {@code false} or {@code null} at {@code b[i]}, by its first byte; else -1. */
  static int literal(byte[] b, int i, int end) {
    byte[] word = b[i] == 't' ? TRUE : b[i] == 'f' ? FALSE : NULL;
    int len = word.length;
    if (i + len > end) {
      return -1;
    }
    for (int k = 0; k < len; k++) {
      if (b[i + k] != word[k]) {
        return -1;
      }
    }
    return i + len;
  }

  /** A number by RFC 8259's grammar, -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?, of at most {@code maxChars}. */
  static int number(byte[] b, int i, int end, int maxChars) {
    int start = i;
    if (b[i] == '-') {
      i++;
    }
    if (i >= end) {
      return -1;
    }
    if (b[i] == '0') {
      i++;
    } else if (b[i] >= '1' && b[i] <= '9') {
      i = digits(b, i, end);
    } else {
      return -1;
    }
    if (i < end && b[i] == '.') {
      int d = ++i;
      i = digits(b, i, end);
      if (i == d) {
        return -1;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int d = i;
      i = digits(b, i, end);
      if (i == d) {
        return -1;
      }
    }
    return i - start > maxChars ? -1 : i;
  }

  private static int digits(byte[] b, int i, int end) {
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i;
  }
}
