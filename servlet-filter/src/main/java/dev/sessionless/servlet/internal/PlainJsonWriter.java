package dev.sessionless.servlet.internal;

import dev.sessionless.core.internal.ByteSink;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a registered record that has a {@link RecordPlan}, or a list or map of plain JDK values,
 * the way the default mapper does, or compares such a value with JSON already written, without a
 * Jackson generator (about 550 bytes of generator state and a copy per serialisation).
 *
 * <p>It writes only what it knows the mapper writes the same way: components in declaration
 * order, {@code null} for a null component, numbers in {@code toString} form, strings with
 * {@code "} and {@code \} escaped and everything else from U+0020 up as UTF-8. A string with a
 * control character or an unpaired surrogate, a list element of another class than its
 * component declares, or a list class from outside {@code java.util} makes it give up ({@link
 * #write} returns {@code null}, {@link #same} {@code null}), and the caller asks the mapper.
 * {@code PlainJsonWriterTest} holds its bytes to the mapper's on generated records.
 */
final class PlainJsonWriter {
  /** In writing mode, where the JSON goes (a pooled buffer); else null. */
  private final ByteSink out;
  private int pos;
  /** In comparing mode, the JSON compared with, from {@link #pos} to {@link #end}; else null. */
  private final byte[] expected;
  private final int end;
  private boolean differs;
  /** Refuse values the mapper would not read back equal (see {@link #writePlain}). */
  private boolean readsBackEqual;

  private PlainJsonWriter(ByteSink out, byte[] expected, int pos, int end) {
    this.out = out;
    this.expected = expected;
    this.pos = pos;
    this.end = end;
  }

  /** The JSON of {@code value}, an instance of {@code plan.type}; {@code null} if it is not plain. */
  static byte[] write(Object value, RecordPlan plan) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    ByteSink sink = ByteSink.take();
    try {
      PlainJsonWriter w = new PlainJsonWriter(sink, null, 0, 0);
      return w.record(value, plan, 0) ? Arrays.copyOf(sink.array(), sink.size()) : null;
    } finally {
      sink.release();
    }
  }

  /**
   * The session metadata as {@link StoredState#metaJson} writes it, {@code {"c":N,"m":N,"t":{"name":"tag",…}}},
   * for the attributes {@code entries} whose tags {@code tag} gives, straight into bytes;
   * {@code null} if a name or tag has a character {@link #string} leaves to the encoder.
   */
  static <V> byte[] meta(long created, int maxInactive, java.util.Map<String, V> entries,
      java.util.function.Function<? super V, String> tag) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    ByteSink sink = ByteSink.take();
    try {
      PlainJsonWriter w = new PlainJsonWriter(sink, null, 0, 0);
      w.put(META_CREATED);
      w.number(created);
      w.put(META_MAX_INACTIVE);
      w.number(maxInactive);
      w.put(META_TAGS);
      boolean first = true;
      for (java.util.Map.Entry<String, V> e : entries.entrySet()) {
        if (!first) {
          w.put((byte) ',');
        }
        first = false;
        if (!w.string(e.getKey())) {
          return null;
        }
        w.put((byte) ':');
        if (!w.string(tag.apply(e.getValue()))) {
          return null;
        }
      }
      w.put((byte) '}');
      w.put((byte) '}');
      return Arrays.copyOf(sink.array(), sink.size());
    } finally {
      sink.release();
    }
  }

  /**
   * Whether {@code value} writes exactly {@code json[off, off + len)}, compared as it is
   * written; {@code null} if it is not plain (ask the mapper).
   */
  static Boolean same(Object value, RecordPlan plan, byte[] json, int off, int len) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    PlainJsonWriter w = new PlainJsonWriter(null, json, off, off + len);
    if (!w.record(value, plan, 0)) {
      return null;
    }
    return !w.differs && w.pos == w.end;
  }

  /**
   * What {@link PlainJsonReader#readRecord} would build from {@code write(value, plan)}, built
   * without the JSON: every record, nested ones too, through its canonical constructor from its
   * components' values, every list as a new {@code ArrayList}, strings and boxed numbers as they
   * are (equal to what the reader would make of their JSON, which {@code PlainJsonWriterTest}
   * and {@code RecordPlanTest} hold to Jackson's writing and reading). {@link
   * PlainJsonReader#NOT_PLAIN} if a constructor refuses, or a value is not what its component
   * declares. So {@code setAttribute}'s round-trip check runs each constructor on what the next
   * request will hand it, without parsing text it has just written.
   */
  static Object rebuild(Object value, RecordPlan p) {
    if (!PlainJsonReader.on()) {
      return PlainJsonReader.NOT_PLAIN;
    }
    return rebuild(value, p, 0);
  }

  private static Object rebuild(Object value, RecordPlan p, int depth) {
    if (value.getClass() != p.type || depth > AttributeCodec.MAX_DEPTH) {
      return PlainJsonReader.NOT_PLAIN;
    }
    int n = p.kinds.length;
    Object[] args = new Object[n];
    for (int k = 0; k < n; k++) {
      int kind = p.kinds[k];
      Object v;
      if (kind == RecordPlan.INT) {
        v = (int) p.longComponent(value, k);
      } else if (kind == RecordPlan.LONG) {
        v = p.longComponent(value, k);
      } else if (kind == RecordPlan.BOOLEAN) {
        v = p.booleanComponent(value, k);
      } else {
        v = p.component(value, k);
        if (v != null) {
          v = kind == RecordPlan.LIST ? rebuildList(v, p.elementKinds[k], p.nested[k], depth)
              : rebuildValue(v, kind, p.nested[k], depth);
        }
      }
      if (v == PlainJsonReader.NOT_PLAIN) {
        return v;
      }
      args[k] = v;
    }
    return p.make(args);
  }

  private static Object rebuildList(Object v, int kind, RecordPlan nested, int depth) {
    if (!(v instanceof List<?> list) || !v.getClass().getName().startsWith("java.util.")) {
      return PlainJsonReader.NOT_PLAIN;
    }
    List<Object> out = new java.util.ArrayList<>(list.size());
    for (Object e : list) {
      Object r = e == null ? null : rebuildValue(e, kind, nested, depth);
      if (r == PlainJsonReader.NOT_PLAIN) {
        return r;
      }
      out.add(r);
    }
    return out;
  }

  /** A non-null value of {@code kind}: itself if immutable, rebuilt if a record. */
  private static Object rebuildValue(Object v, int kind, RecordPlan nested, int depth) {
    if (!fits(v, kind)) {
      return PlainJsonReader.NOT_PLAIN;
    }
    return kind == RecordPlan.RECORD ? rebuild(v, nested, depth + 1) : v;
  }

  /**
   * The JSON of a list or map attribute made of strings, booleans, {@code Integer}s, {@code
   * Long}s, nulls, and {@code java.util} lists and string-keyed maps of these, as the default
   * mapper writes it; {@code null} if anything else is in it (a {@code Double}, whose text is
   * the mapper's to choose, a control character, a lone surrogate, deeper than {@code maxDepth}).
   * With {@code readsBackEqual}, also {@code null} for a {@code Long} that fits an {@code int}
   * (the mapper reads it back as an {@code Integer}): whatever is written then reads back equal.
   */
  static byte[] writePlain(Object value, int maxDepth, boolean readsBackEqual) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    ByteSink sink = ByteSink.take();
    try {
      PlainJsonWriter w = new PlainJsonWriter(sink, null, 0, 0);
      w.readsBackEqual = readsBackEqual;
      return w.plain(value, 0, maxDepth) ? Arrays.copyOf(sink.array(), sink.size()) : null;
    } finally {
      sink.release();
    }
  }

  /**
   * Whether a list or map value writes exactly {@code json[off, off + len)} ({@link
   * #writePlain}'s values), compared as it is written; {@code null} if it is not plain.
   */
  static Boolean samePlain(Object value, int maxDepth, byte[] json, int off, int len) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    PlainJsonWriter w = new PlainJsonWriter(null, json, off, off + len);
    if (!w.plain(value, 0, maxDepth)) {
      return null;
    }
    return !w.differs && w.pos == w.end;
  }

  private boolean plain(Object v, int depth, int maxDepth) {
    if (v == null) {
      put(NULL);
      return true;
    } else if (v instanceof String s) {
      return string(s);
    } else if (v instanceof Boolean b) {
      put(b ? TRUE : FALSE);
      return true;
    } else if (v instanceof Integer i) {
      number(i);
      return true;
    } else if (v instanceof Long l) {
      if (readsBackEqual && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return false;
      }
      number(l);
      return true;
    } else if (depth >= maxDepth || !v.getClass().getName().startsWith("java.util.")) {
      return false;
    } else if (v instanceof List<?> list) {
      put((byte) '[');
      boolean first = true;
      for (Object e : list) {
        if (differs) {
          break;
        }
        if (!first) {
          put((byte) ',');
        }
        first = false;
        if (!plain(e, depth + 1, maxDepth)) {
          return false;
        }
      }
      put((byte) ']');
      return true;
    } else if (v instanceof java.util.Map<?, ?> map) {
      put((byte) '{');
      boolean first = true;
      for (java.util.Map.Entry<?, ?> e : map.entrySet()) {
        if (differs) {
          break;
        }
        if (!first) {
          put((byte) ',');
        }
        first = false;
        if (!(e.getKey() instanceof String k) || !string(k)) {
          return false;
        }
        put((byte) ':');
        if (!plain(e.getValue(), depth + 1, maxDepth)) {
          return false;
        }
      }
      put((byte) '}');
      return true;
    }
    return false;
  }

  private boolean record(Object value, RecordPlan p, int depth) {
    if (value.getClass() != p.type || depth > AttributeCodec.MAX_DEPTH) {
      return false;
    }
    put((byte) '{');
    int n = p.kinds.length;
    for (int k = 0; k < n && !differs; k++) {
      if (k > 0) {
        put((byte) ',');
      }
      put(p.names[k]);
      int kind = p.kinds[k];
      if (kind == RecordPlan.INT || kind == RecordPlan.LONG) {
        number(p.longComponent(value, k));
        continue;
      }
      if (kind == RecordPlan.BOOLEAN) {
        put(p.booleanComponent(value, k) ? TRUE : FALSE);
        continue;
      }
      Object v = p.component(value, k);
      if (v == null) {
        put(NULL);
      } else if (p.kinds[k] == RecordPlan.LIST) {
        if (!list(v, p.elementKinds[k], p.nested[k], depth)) {
          return false;
        }
      } else if (!value(v, p.kinds[k], p.nested[k], depth)) {
        return false;
      }
    }
    put((byte) '}');
    return true;
  }

  private boolean list(Object v, int kind, RecordPlan nested, int depth) {
    if (!(v instanceof List<?> list) || !v.getClass().getName().startsWith("java.util.")) {
      return false; // another List class may be written otherwise (its own annotations)
    }
    put((byte) '[');
    boolean first = true;
    for (Object e : list) {
      if (differs) {
        break;
      }
      if (!first) {
        put((byte) ',');
      }
      first = false;
      if (e == null) {
        put(NULL);
      } else if (!value(e, kind, nested, depth)) {
        return false;
      }
    }
    put((byte) ']');
    return true;
  }

  /** A non-null value of a component or element {@code kind}; false if it is not what the kind says. */
  private boolean value(Object v, int kind, RecordPlan nested, int depth) {
    if (!fits(v, kind)) {
      return false;
    }
    if (kind == RecordPlan.RECORD) {
      return record(v, nested, depth + 1);
    }
    if (v instanceof String s) {
      return string(s);
    }
    if (v instanceof Boolean b) {
      put(b ? TRUE : FALSE);
    } else {
      number(((Number) v).longValue());
    }
    return true;
  }

  /** Whether non-null {@code v} is of the class a component or element of {@code kind} holds (any record for {@link RecordPlan#RECORD}: checked against its plan). */
  private static boolean fits(Object v, int kind) {
    return switch (kind) {
      case RecordPlan.STRING -> v instanceof String;
      case RecordPlan.INT, RecordPlan.INTEGER -> v instanceof Integer;
      case RecordPlan.LONG, RecordPlan.LONG_BOX -> v instanceof Long;
      case RecordPlan.BOOLEAN, RecordPlan.BOOLEAN_BOX -> v instanceof Boolean;
      case RecordPlan.RECORD -> true;
      default -> false;
    };
  }

  /** {@code l} in {@code Long.toString} form, digit by digit. */
  private void number(long l) {
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
  private boolean string(String s) {
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

  private void put(byte[] bytes) {
    for (byte x : bytes) {
      put(x);
    }
  }

  private void put(byte x) {
    if (expected != null) {
      if (!differs && (pos >= end || expected[pos] != x)) {
        differs = true;
      }
      pos++;
      return;
    }
    out.write(x);
  }

  private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
  private static final byte[] META_CREATED = {'{', '"', 'c', '"', ':'};
  private static final byte[] META_MAX_INACTIVE = {',', '"', 'm', '"', ':'};
  private static final byte[] META_TAGS = {',', '"', 't', '"', ':', '{'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
}
