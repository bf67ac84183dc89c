package dev.sessionless.session.internal;

import dev.sessionless.core.internal.FastPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a list, map or plain record attribute (one with a {@link RecordPlan}) written by the
 * default mapper without a JSON parser, when its
 * JSON keeps to a narrow shape, and produces exactly what the default mapper would: an {@link
 * ArrayList} for an array, a {@link LinkedHashMap} in member order for an object, a {@code
 * String}, an {@code Integer}, a {@code Boolean} or {@code null}. Anything outside that shape
 * answers {@link #NOT_PLAIN} and goes to the mapper as before, which decides and words any
 * refusal:
 *
 * <ul>
 *   <li>no whitespace anywhere (the mapper writes none);
 *   <li>strings of printable ASCII without escapes (no {@code \}, no control or non-ASCII byte);
 *   <li>integers of at most nine digits, without a leading zero or a minus zero (an {@code
 *       Integer} for the mapper too); no fractions, exponents or longer numbers;
 *   <li>object member names that are such strings, each at most once;
 *   <li>no deeper than {@link #MAX_DEPTH}.
 * </ul>
 *
 * <p>Every value comes back new and mutable, as the mapper's would: the session hands it to the
 * application, which may change it in place. A differential test holds this reader to the
 * mapper's results on generated and mutated JSON.
 */
final class PlainJsonReader {
  /** The answer for JSON this reader does not take: read it with the mapper. */
  static final Object NOT_PLAIN = new Object();

  /** Deepest nesting followed (the top-level list or map is 1) before handing over. */
  static final int MAX_DEPTH = 16;

  /** The element kind of an untyped list: any plain value ({@link #value}). */
  private static final int ANY = -1;
  private static final long NO_INTEGER = Long.MIN_VALUE;
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private final byte[] b;
  private final int end;
  private int i;

  private PlainJsonReader(byte[] b, int off, int len) {
    this.b = b;
    this.i = off;
    this.end = off + len;
  }

  /**
   * Reads {@code b[off, off + len)} as a {@code List} or a {@code Map} ({@code type}).
   *
   * @return the value, or {@link #NOT_PLAIN}
   */
  static Object read(byte[] b, int off, int len, Class<?> type) {
    if (len < 2 || !on()) {
      return NOT_PLAIN;
    }
    byte first = b[off];
    if (!(type == List.class && first == '[' || type == Map.class && first == '{')) {
      return NOT_PLAIN;
    }
    PlainJsonReader r = new PlainJsonReader(b, off, len);
    Object v = r.value(1);
    return v == NOT_PLAIN || r.i != r.end ? NOT_PLAIN : v;
  }

  /**
   * Reads {@code b[off, off + len)} as the record {@code plan} describes: its components in
   * order, each at most once, of the kinds the plan names.
   *
   * @return the record, or {@link #NOT_PLAIN}
   */
  static Object readRecord(byte[] b, int off, int len, RecordPlan plan) {
    if (len < 2 || b[off] != '{' || !on()) {
      return NOT_PLAIN;
    }
    PlainJsonReader r = new PlainJsonReader(b, off, len);
    Object v = r.record(plan, 1);
    return v == NOT_PLAIN || r.i != r.end ? NOT_PLAIN : v;
  }

  /**
   * Whether this reader and {@link PlainJsonWriter} run: off with {@code
   * dev.sessionless.fastpath.records=off} (or {@code dev.sessionless.fastpaths=off}), when every
   * attribute is written, read and compared by the {@code StateMapper} instead.
   */
  static boolean on() {
    return FastPaths.on(FastPaths.Path.RECORDS);
  }

  private Object record(RecordPlan p, int depth) {
    if (depth > MAX_DEPTH) {
      return NOT_PLAIN;
    }
    i++; // the opening brace
    int n = p.kinds.length;
    Object[] args = new Object[n];
    for (int k = 0; k < n; k++) {
      if (k > 0 && (i >= end || b[i++] != ',') || !skip(p.names[k])) {
        return NOT_PLAIN;
      }
      Object v = typed(p.kinds[k], p.elementKinds[k], p.nested[k], depth);
      if (v == NOT_PLAIN) {
        return NOT_PLAIN;
      }
      args[k] = v;
    }
    if (i >= end || b[i++] != '}') {
      return NOT_PLAIN;
    }
    return p.make(args);
  }

  /** Steps over {@code bytes} (a literal, or a member's {@code "name":}) if they come next. */
  private boolean skip(byte[] bytes) {
    int n = bytes.length;
    if (end - i < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != bytes[k]) {
        return false;
      }
    }
    i += n;
    return true;
  }

  private Object typed(int kind, int elementKind, RecordPlan nested, int depth) {
    if (kind == ANY) {
      return value(depth);
    }
    if (i >= end) {
      return NOT_PLAIN;
    }
    byte c = b[i];
    if (c == 'n' && kind != RecordPlan.INT && kind != RecordPlan.LONG && kind != RecordPlan.BOOLEAN) {
      return skip(NULL) ? null : NOT_PLAIN;
    }
    switch (kind) {
      case RecordPlan.STRING:
        return c == '"' ? string() : NOT_PLAIN;
      case RecordPlan.INT:
      case RecordPlan.INTEGER:
        return c == '-' || (c >= '0' && c <= '9') ? typedInteger(false) : NOT_PLAIN;
      case RecordPlan.LONG:
      case RecordPlan.LONG_BOX:
        return c == '-' || (c >= '0' && c <= '9') ? typedInteger(true) : NOT_PLAIN;
      case RecordPlan.BOOLEAN:
      case RecordPlan.BOOLEAN_BOX:
        return c == 't' ? (skip(TRUE) ? Boolean.TRUE : NOT_PLAIN)
            : c == 'f' && skip(FALSE) ? Boolean.FALSE : NOT_PLAIN;
      case RecordPlan.LIST:
        return c == '[' && depth + 1 <= MAX_DEPTH ? list(elementKind, nested, depth + 1) : NOT_PLAIN;
      default: // RECORD
        return c == '{' ? record(nested, depth + 1) : NOT_PLAIN;
    }
  }

  private Object value(int depth) {
    if (i >= end) {
      return NOT_PLAIN;
    }
    byte c = b[i];
    switch (c) {
      case '"':
        return string();
      case '[':
        return depth > MAX_DEPTH ? NOT_PLAIN : list(ANY, null, depth);
      case '{':
        return depth > MAX_DEPTH ? NOT_PLAIN : object(depth);
      case 't':
        return skip(TRUE) ? Boolean.TRUE : NOT_PLAIN;
      case 'f':
        return skip(FALSE) ? Boolean.FALSE : NOT_PLAIN;
      case 'n':
        return skip(NULL) ? null : NOT_PLAIN;
      default:
        return c == '-' || (c >= '0' && c <= '9') ? integer() : NOT_PLAIN;
    }
  }

  /** An array at {@code depth} whose elements are of {@code elementKind} ({@link #ANY}: plain values). */
  private Object list(int elementKind, RecordPlan nested, int depth) {
    List<Object> list = new ArrayList<>();
    if (opens(']')) {
      return list;
    }
    int after;
    do {
      Object v = typed(elementKind, 0, nested, depth + 1);
      if (v == NOT_PLAIN) {
        return NOT_PLAIN;
      }
      list.add(v);
    } while ((after = after(']')) == MORE);
    return after == CLOSED ? list : NOT_PLAIN;
  }

  private Object object(int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    if (opens('}')) {
      return map;
    }
    int after;
    do {
      if (i >= end || b[i] != '"') {
        return NOT_PLAIN;
      }
      Object name = string();
      if (name == NOT_PLAIN || i >= end || b[i++] != ':') {
        return NOT_PLAIN;
      }
      Object v = value(depth + 1);
      if (v == NOT_PLAIN) {
        return NOT_PLAIN;
      }
      int size = map.size();
      map.put((String) name, v);
      if (map.size() == size) {
        return NOT_PLAIN; // a duplicated name: the mapper decides what that means
      }
    } while ((after = after('}')) == MORE);
    return after == CLOSED ? map : NOT_PLAIN;
  }

  /** Steps over a container's opening bracket; whether {@code close} follows at once (empty). */
  private boolean opens(char close) {
    i++;
    if (i < end && b[i] == close) {
      i++;
      return true;
    }
    return false;
  }

  private static final int CLOSED = 1;
  private static final int MORE = 0;
  private static final int BAD = -1;

  /** After a member: {@link #CLOSED} by {@code close}, {@link #MORE} after a comma, else {@link #BAD}. */
  private int after(char close) {
    if (i >= end) {
      return BAD;
    }
    byte c = b[i++];
    return c == close ? CLOSED : c == ',' ? MORE : BAD;
  }

  private Object string() {
    int start = ++i; // after the opening quote
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        String s = new String(b, start, i - start, StandardCharsets.ISO_8859_1);
        i++;
        return s;
      }
      if (c < 0x20 || c > 0x7e || c == '\\') {
        return NOT_PLAIN; // an escape, a control or a non-ASCII byte: the mapper's to read
      }
      i++;
    }
    return NOT_PLAIN;
  }

  /** An integer of at most nine digits (an {@code Integer} for the mapper too). */
  private Object integer() {
    long v = integerValue();
    return v == NO_INTEGER || v < -999_999_999 || v > 999_999_999 ? NOT_PLAIN : (Object) (int) v;
  }

  /**
   * An integer for a component declared {@code int}/{@code Integer} ({@code asLong} false) or
   * {@code long}/{@code Long}: any that fits the declared type, boxed as that type; one that does
   * not fit is the mapper's to refuse.
   */
  private Object typedInteger(boolean asLong) {
    long v = integerValue();
    if (v == NO_INTEGER || !asLong && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
      return NOT_PLAIN;
    }
    return asLong ? (Object) v : (Object) (int) v;
  }

  /**
   * The integer at {@code i} by the strict grammar (no leading zero, no minus zero, no fraction
   * or exponent after it) that fits a {@code long}, stepping over it; {@link #NO_INTEGER}
   * otherwise ({@code Long.MIN_VALUE} itself is never accepted, so it can mark the refusal).
   */
  private long integerValue() {
    boolean negative = b[i] == '-';
    int start = negative ? i + 1 : i;
    int j = start;
    long v = 0;
    while (j < end && b[j] >= '0' && b[j] <= '9') {
      int d = b[j] - '0';
      if (v > (Long.MAX_VALUE - d) / 10) {
        return NO_INTEGER;
      }
      v = v * 10 + d;
      j++;
    }
    int digits = j - start;
    if (digits == 0 || (digits > 1 && b[start] == '0') || (negative && v == 0)
        || (j < end && (b[j] == '.' || b[j] == 'e' || b[j] == 'E'))) {
      return NO_INTEGER;
    }
    i = j;
    return negative ? -v : v;
  }
}
