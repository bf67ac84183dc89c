package dev.sessionless.session.internal;

import dev.sessionless.core.internal.ByteSink;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The byte side of {@link PlainJsonWriter}: it either writes JSON bytes into a pooled buffer or
 * compares them, one by one as they would be written, with JSON written before, and it spells
 * numbers and strings exactly as the default mapper (Jackson) does.
 *
 * <ul>
 *   <li>a number: {@code Long.toString} form ({@code -12}, {@code 0}), digit by digit;
 *   <li>a string: in quotes, {@code "} and {@code \} escaped with a backslash, every other char
 *       from U+0020 up as its UTF-8 bytes (surrogate pairs as one four-byte sequence, {@code /}
 *       and non-ASCII unescaped, as Jackson leaves them). A control character (below U+0020) or an
 *       unpaired surrogate makes {@link #string} answer {@code false}: Jackson's escapes for those
 *       are its own to choose, so the caller hands the value to it.
 * </ul>
 *
 * <p>In comparing mode nothing is allocated: the first byte that differs, or one past the end,
 * sets {@link #differs} and the walk above stops early.
 */
class PlainJsonOutput {
  static final byte[] NULL = {'n', 'u', 'l', 'l'};
  static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

  /** In writing mode, where the JSON goes (a pooled buffer); else null. */
  private final ByteSink out;
  /** In comparing mode, the JSON compared with, from {@link #pos} to {@link #end}; else null. */
  private final byte[] expected;
  private final int end;
  private int pos;
  /** In comparing mode, whether a byte put so far differs from (or runs past) {@link #expected}. */
  boolean differs;

  /** Writes into {@code out} ({@code expected} null), or compares with {@code expected[pos, end)}. */
  PlainJsonOutput(ByteSink out, byte[] expected, int pos, int end) {
    this.out = out;
    this.expected = expected;
    this.pos = pos;
    this.end = end;
  }

  /** In writing mode, a copy of what was written. */
  final byte[] written() {
    return Arrays.copyOf(out.array(), out.size());
  }

  /** In comparing mode, whether exactly the expected bytes were put, no more and no fewer. */
  final boolean matchedAll() {
    return !differs && pos == end;
  }

  /** {@code l} in {@code Long.toString} form, digit by digit. */
  final void number(long l) {
    if (l < 0) {
      if (l == Long.MIN_VALUE) {
        put(MIN_LONG);
        return;
      }
      put((byte) '-');
      l = -l;
    }
    long p = 1;
    while (p <= l / 10) {
      p *= 10;
    }
    for (; p > 0; p /= 10) {
      put((byte) ('0' + l / p % 10));
    }
  }

  /** A JSON string as the mapper writes it; false (nothing decided) for a control character or lone surrogate. */
  final boolean string(String s) {
    put((byte) '"');
    int n = s.length();
    for (int i = 0; i < n && !differs; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80) {
        if (c == '"' || c == '\\') {
          put((byte) '\\');
        }
        put((byte) c);
      } else if (c < 0x20) {
        return false; // the mapper's escapes for these are left to it
      } else if (c < 0x800) {
        put((byte) (0xc0 | c >> 6));
        put((byte) (0x80 | c & 0x3f));
      } else if (!Character.isSurrogate(c)) {
        put((byte) (0xe0 | c >> 12));
        put((byte) (0x80 | c >> 6 & 0x3f));
        put((byte) (0x80 | c & 0x3f));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        put((byte) (0xf0 | cp >> 18));
        put((byte) (0x80 | cp >> 12 & 0x3f));
        put((byte) (0x80 | cp >> 6 & 0x3f));
        put((byte) (0x80 | cp & 0x3f));
      } else {
        return false;
      }
    }
    put((byte) '"');
    return true;
  }

  final void put(byte[] bytes) {
    for (byte x : bytes) {
      put(x);
    }
  }

  final void put(byte x) {
    if (expected != null) {
      if (!differs && (pos >= end || expected[pos] != x)) {
        differs = true;
      }
      pos++;
      return;
    }
    out.write(x);
  }
}
