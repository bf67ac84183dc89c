package dev.sessionless.core.internal;

import java.nio.charset.StandardCharsets;

/**
 * Reads the simplest state values straight from the token's bytes, as Jackson's standard
 * deserializers would: a JSON string as {@code String}, {@code true}/{@code false} as {@code
 * Boolean}, an integer in range as {@code Integer} or {@code Long}. For every other shape or
 * type it answers {@link #UNREAD} and the caller asks Jackson, which also words any error. The
 * bytes were checked already (well-formed UTF-8, valid JSON, no unpaired surrogate escape);
 * even so, anything unexpected is answered {@code UNREAD}, never guessed at.
 *
 * <p>Switch: none of its own. It runs only for a {@code StateMapper} whose {@code readsPlainly}
 * says the mapper reads that type exactly so; a mapper that answers {@code false} (the interface's
 * default) has every value read by the mapper. {@code StateValuesDifferentialTest} holds it to
 * Jackson.
 */
public final class StateValues {
  /** The answer for a value this class does not read. */
  public static final Object UNREAD = new Object();

  private StateValues() {}

  /**
   * The value of {@code type} in {@code b[start, end)}, or {@link #UNREAD}.
   *
   * @param maxStringLength the mapper's longest string, in chars
   * @param maxNumberLength the mapper's longest number, in digits
   */
  static Object read(Class<?> type, byte[] b, int start, int end, long maxStringLength, long maxNumberLength) {
    while (start < end && isSpace(b[start])) {
      start++;
    }
    while (end > start && isSpace(b[end - 1])) {
      end--;
    }
    if (start >= end) {
      return UNREAD;
    }
    if (type == String.class) {
      // never more chars than bytes, so within the limit in bytes is within it in chars
      return end - start - 2 <= maxStringLength ? string(b, start, end) : UNREAD;
    } else if (type == Boolean.class) {
      return bool(b, start, end);
    } else if (type == Integer.class || type == Long.class) {
      int digits = end - start - (b[start] == '-' ? 1 : 0);
      if (digits > maxNumberLength || digits > 19) {
        return UNREAD;
      }
      long v = integer(b, start, end);
      if (v == NOT_AN_INTEGER) {
        return UNREAD;
      }
      if (type == Long.class) {
        return v;
      }
      return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? Integer.valueOf((int) v) : UNREAD;
    }
    return UNREAD;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private static Object bool(byte[] b, int start, int end) {
    if (is(b, start, end, "true")) {
      return Boolean.TRUE;
    }
    return is(b, start, end, "false") ? Boolean.FALSE : UNREAD;
  }

  private static boolean is(byte[] b, int start, int end, String word) {
    if (end - start != word.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (b[start + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** Marks "not a plain integer, or out of the long range"; never a value, as it has 20 digits. */
  private static final long NOT_AN_INTEGER = Long.MIN_VALUE;

  /**
   * The integer {@code -?(0|[1-9][0-9]*)} in {@code b[start, end)} (at most 19 digits), or
   * {@link #NOT_AN_INTEGER} for any other text or a value outside the long range.
   */
  private static long integer(byte[] b, int start, int end) {
    boolean negative = b[start] == '-';
    int i = negative ? start + 1 : start;
    if (i >= end || (b[i] == '0' && end - i > 1)) {
      return NOT_AN_INTEGER;
    }
    long v = 0; // accumulated negatively: the long range reaches one further below zero
    for (; i < end; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NOT_AN_INTEGER;
      }
      if (v < (Long.MIN_VALUE + d) / 10) {
        return NOT_AN_INTEGER;
      }
      v = v * 10 - d;
    }
    if (negative) {
      return v == Long.MIN_VALUE ? NOT_AN_INTEGER : v; // MIN_VALUE itself: left to Jackson
    }
    return v == Long.MIN_VALUE ? NOT_AN_INTEGER : -v;
  }

  /** A JSON string at {@code b[start, end)}, quotes included, decoded; or {@link #UNREAD}. */
  private static Object string(byte[] b, int start, int end) {
    if (end - start < 2 || b[start] != '"' || b[end - 1] != '"') {
      return UNREAD;
    }
    int from = start + 1;
    int to = end - 1;
    int esc = -1;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (c == '\\') {
        esc = i;
        break;
      }
      if (c == '"' || (c >= 0 && c < 0x20)) {
        return UNREAD;
      }
    }
    if (esc < 0) {
      return new String(b, from, to - from, StandardCharsets.UTF_8);
    }
    StringBuilder sb = new StringBuilder(to - from);
    int run = from;
    int i = esc;
    while (i < to) {
      byte c = b[i];
      if (c == '"' || (c >= 0 && c < 0x20)) {
        return UNREAD;
      }
      if (c != '\\') {
        i++;
        continue;
      }
      // Raw runs end only at a backslash (ASCII), so each is whole UTF-8.
      sb.append(new String(b, run, i - run, StandardCharsets.UTF_8));
      if (i + 1 >= to) {
        return UNREAD;
      }
      switch (b[i + 1]) {
        case '"': sb.append('"'); break;
        case '\\': sb.append('\\'); break;
        case '/': sb.append('/'); break;
        case 'b': sb.append('\b'); break;
        case 'f': sb.append('\f'); break;
        case 'n': sb.append('\n'); break;
        case 'r': sb.append('\r'); break;
        case 't': sb.append('\t'); break;
        case 'u': {
          int u = hex4(b, i + 2, to);
          if (u < 0) {
            return UNREAD;
          }
          sb.append((char) u);
          i += 4;
          break;
        }
        default:
          return UNREAD;
      }
      i += 2;
      run = i;
    }
    sb.append(new String(b, run, to - run, StandardCharsets.UTF_8));
    // The index refused unpaired surrogate escapes; a string that has one anyway goes to Jackson.
    String s = sb.toString();
    return Utf8.hasNoLoneSurrogate(s) ? s : UNREAD;
  }

  private static int hex4(byte[] b, int i, int to) {
    if (i + 4 > to) {
      return -1;
    }
    int v = 0;
    for (int k = i; k < i + 4; k++) {
      int c = b[k];
      int d = c >= '0' && c <= '9' ? c - '0'
          : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }
}
