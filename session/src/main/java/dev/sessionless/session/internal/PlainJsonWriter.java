package dev.sessionless.session.internal;

import dev.sessionless.core.internal.ByteSink;
import java.util.List;

/**
 * The writing half of the {@code records} fast path ({@link AttributeCodec} says when it runs):
 * writes an attribute value as the default mapper (Jackson) would, byte for byte, or compares a
 * value with JSON written before, without a Jackson generator (about 550 bytes of generator state
 * and a copy per serialisation).
 *
 * <p>What it takes, and the JSON it writes for it (no whitespace anywhere):
 * <ul>
 *   <li>a registered record with a writable {@link RecordPlan}: {@code {"name":value,...}}, the
 *       components in declaration order, {@code null} for a null one; each an {@code int},
 *       {@code long}, {@code boolean}, their boxes, a {@code String}, a {@code java.util} list of
 *       one of these (elements of exactly the declared class), or another such record;
 *   <li>a list or map attribute ({@link #writePlain}): a {@code java.util} list ({@code [a,b]})
 *       or map with string keys ({@code {"k":v}}, in iteration order) of strings, booleans,
 *       {@code Integer}s, {@code Long}s, nulls and such lists and maps;
 *   <li>the session metadata ({@link #meta}).
 * </ul>
 * Numbers and strings are spelled as {@link PlainJsonOutput} says ({@code Long.toString} form;
 * {@code "} and {@code \} escaped, the rest UTF-8). Anything else (a {@code Double}, a control
 * character, an unpaired surrogate, another list class, an element of another class than its
 * component declares, deeper than allowed) makes it give up: {@link #write} answers {@code null},
 * {@link #same} {@code null}, and the caller asks the mapper, which decides and words any refusal.
 * {@code PlainJsonWriterTest} holds its bytes to the mapper's on generated values, and {@code
 * PlainRoundTripTest} holds the codec with this path on to the codec with it off.
 */
final class PlainJsonWriter extends PlainJsonOutput {
  /** The element kind of a list attribute's elements: any plain value, not a component kind. */
  private static final int ANY = -1;
  /** Refuse values the mapper would not read back equal (see {@link #writePlain}). */
  private boolean readsBackEqual;

  private PlainJsonWriter(ByteSink out, byte[] expected, int pos, int end) {
    super(out, expected, pos, end);
  }

  /**
   * The JSON of {@code value} written as the record {@code plan} (or, without a plan, as a plain
   * list or map at most {@code maxDepth} deep); {@code null} if it is not plain.
   */
  private static byte[] written(Object value, RecordPlan plan, int maxDepth, boolean readsBackEqual) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    ByteSink sink = ByteSink.take();
    try {
      PlainJsonWriter w = new PlainJsonWriter(sink, null, 0, 0);
      w.readsBackEqual = readsBackEqual;
      return w.walk(value, plan, maxDepth) ? w.written() : null;
    } finally {
      sink.release();
    }
  }

  /** Whether {@code value}, walked as {@link #written} walks it, puts exactly {@code json[off, off + len)}. */
  private static Boolean compared(Object value, RecordPlan plan, int maxDepth, byte[] json, int off, int len) {
    if (!PlainJsonReader.on()) {
      return null;
    }
    PlainJsonWriter w = new PlainJsonWriter(null, json, off, off + len);
    return w.walk(value, plan, maxDepth) ? w.matchedAll() : null;
  }

  private boolean walk(Object value, RecordPlan plan, int maxDepth) {
    return plan != null ? record(value, plan, 0) : plain(value, 0, maxDepth);
  }

  /** The JSON of {@code value}, an instance of {@code plan.type}; {@code null} if it is not plain. */
  static byte[] write(Object value, RecordPlan plan) {
    return written(value, plan, 0, false);
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
      return w.written();
    } finally {
      sink.release();
    }
  }

  /**
   * Whether {@code value} writes exactly {@code json[off, off + len)}, compared as it is
   * written; {@code null} if it is not plain (ask the mapper).
   */
  static Boolean same(Object value, RecordPlan plan, byte[] json, int off, int len) {
    return compared(value, plan, 0, json, off, len);
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
    return written(value, null, maxDepth, readsBackEqual);
  }

  /**
   * Whether a list or map value writes exactly {@code json[off, off + len)} ({@link
   * #writePlain}'s values), compared as it is written; {@code null} if it is not plain.
   */
  static Boolean samePlain(Object value, int maxDepth, byte[] json, int off, int len) {
    return compared(value, null, maxDepth, json, off, len);
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
      return elements(list, ANY, null, depth, maxDepth);
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
    return elements(list, kind, nested, depth, 0);
  }

  /**
   * {@code [e,...]}: each element as a component element of {@code kind} ({@link #value}), or
   * for {@link #ANY} as a plain value ({@link #plain}, up to {@code maxDepth}).
   */
  private boolean elements(List<?> list, int kind, RecordPlan nested, int depth, int maxDepth) {
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
      if (kind == ANY) {
        if (!plain(e, depth + 1, maxDepth)) {
          return false;
        }
      } else if (e == null) {
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

  private static final byte[] META_CREATED = {'{', '"', 'c', '"', ':'};
  private static final byte[] META_MAX_INACTIVE = {',', '"', 'm', '"', ':'};
  private static final byte[] META_TAGS = {',', '"', 't', '"', ':', '{'};
}
