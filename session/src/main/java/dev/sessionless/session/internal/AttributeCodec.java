package dev.sessionless.session.internal;

import dev.sessionless.core.StateMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns session attributes into JSON and back. Every attribute's type is recorded beside it as a
 * short tag, and a recorded tag is only ever looked up in a fixed table (JDK value types plus the
 * types the application registered): a name read from a token never loads a class.
 *
 * <p>Tags: one letter for each JDK value type ({@code s} String, {@code i} Integer, {@code l}
 * Long, {@code h} Short, {@code b} Byte, {@code d} Double, {@code f} Float, {@code z} Boolean,
 * {@code c} Character, {@code I} BigInteger, {@code D} BigDecimal, {@code L} a list, {@code M} a
 * map); a registered type's simple name ({@code Cart}) unless another registered type shares it,
 * it equals a JDK tag, or it has none (then its full class name). Tokens written before tags
 * recorded full class names ({@code java.lang.String}, {@code java.util.List}, {@code
 * com.example.Cart}); those are read too, so a rolling deploy loses no session.
 *
 * <p>The {@code records} fast path ({@code dev.sessionless.fastpath.records}, on by default; off
 * hands everything to the {@link StateMapper}). With the default mapper only, and only for what
 * it knows Jackson writes and reads one way, it writes, compares and reads JSON itself, the same
 * bytes and values Jackson would give (else the round-trip check falls back to the mapper):
 * <ul>
 *   <li>a list or map attribute of strings, booleans, {@code Integer}s, {@code Long}s, nulls and
 *       {@code java.util} lists and string-keyed maps of these, at most {@link #PLAIN_DEPTH}
 *       deep, to {@link PlainJsonWriter#writePlain} and {@link PlainJsonReader#read};
 *   <li>a registered record with a {@link RecordPlan} (plain components, no Jackson
 *       annotation) to {@link PlainJsonWriter#write} and {@link PlainJsonReader#readRecord},
 *       its round-trip check to {@link AttributeRoundTrip#recordJson}.
 * </ul>
 * Either side answers "not plain" for anything else, and that value goes to the mapper.
 */
public final class AttributeCodec {
  /** Recorded type of any {@link List} of JDK value types. */
  static final String LIST = "L";
  /** Recorded type of any {@link Map} from strings to JDK value types. */
  static final String MAP = "M";

  private static final List<Class<?>> SCALARS = List.of(String.class, Integer.class, Long.class,
      Short.class, Byte.class, Double.class, Float.class, Boolean.class, Character.class,
      BigInteger.class, BigDecimal.class);
  /** The tag of each of {@link #SCALARS}, in the same order. */
  private static final List<String> SCALAR_TAGS = List.of("s", "i", "l", "h", "b", "d", "f", "z", "c",
      "I", "D");

  private final StateMapper mapper;
  /** The mapper is the default one, whose reading of plain JSON is known (see {@link AttributeRoundTrip#readsBackAsItself}). */
  private final boolean defaultMapper;
  private final Map<String, Class<?>> byName;
  private final Map<Class<?>, String> tags;
  private final Set<Class<?>> registered;
  /** The registered records the default mapper's JSON of which is read without it. */
  private final Map<Class<?>, RecordPlan> plans;
  /** Those of {@link #plans} that {@link PlainJsonWriter} also writes. */
  private final Map<Class<?>, RecordPlan> writers;

  /**
   * Deepest nesting of lists and maps {@link PlainJsonWriter} writes for a list or map
   * attribute; deeper ones go to the mapper (and the carried-JSON check).
   */
  static final int PLAIN_DEPTH = 8;

  /** Deepest nesting of lists and maps accepted in one attribute value. */
  static final int MAX_DEPTH = 64;

  /**
   * A codec using {@code mapper} that also accepts exactly the {@code registered} classes.
   *
   * @throws IllegalArgumentException if a registered type could make the mapper pick a class
   *     from the JSON (see {@link StateMapper#checkTypes})
   */
  public AttributeCodec(StateMapper mapper, Set<Class<?>> registered) {
    mapper.checkTypes(Set.copyOf(registered));
    this.mapper = mapper;
    this.defaultMapper = mapper == StateMapper.defaults();
    this.registered = Set.copyOf(registered);
    this.plans = defaultMapper ? RecordPlan.of(this.registered) : Map.of();
    Map<Class<?>, RecordPlan> w = new HashMap<>();
    plans.forEach((c, p) -> {
      if (p.writable()) {
        w.put(c, p);
      }
    });
    this.writers = Collections.unmodifiableMap(w);
    Map<String, Class<?>> m = new HashMap<>();
    Map<Class<?>, String> t = new HashMap<>();
    for (int i = 0; i < SCALARS.size(); i++) {
      Class<?> c = SCALARS.get(i);
      m.put(c.getName(), c); // the full names earlier tokens recorded
      m.put(SCALAR_TAGS.get(i), c);
      t.put(c, SCALAR_TAGS.get(i));
    }
    m.put("java.util.List", List.class);
    m.put("java.util.Map", Map.class);
    m.put(LIST, List.class);
    m.put(MAP, Map.class);
    t.put(List.class, LIST);
    t.put(Map.class, MAP);
    // A simple name shared by two registered types (or equal to a JDK tag) names neither: a
    // token recording it then follows the bad-attribute policy instead of reading as the other.
    Map<String, Integer> simpleNames = new HashMap<>();
    for (Class<?> c : registered) {
      simpleNames.merge(c.getSimpleName(), 1, Integer::sum);
    }
    for (Class<?> c : registered) {
      if (t.containsKey(c)) {
        continue; // a JDK value type registered again keeps its tag
      }
      String simple = c.getSimpleName();
      boolean unique = !simple.isEmpty() && simpleNames.get(simple) == 1 && !t.containsValue(simple);
      m.put(c.getName(), c);
      t.put(c, unique ? simple : c.getName());
    }
    for (Map.Entry<Class<?>, String> e : t.entrySet()) {
      m.put(e.getValue(), e.getKey());
    }
    this.byName = Collections.unmodifiableMap(m);
    this.tags = Collections.unmodifiableMap(t);
  }

  /** The tag written for values of {@code type}, a type {@link #resolve} returned. */
  String tag(Class<?> type) {
    return tags.get(type);
  }

  /**
   * Reads the JSON at {@code bytes[off, off + len)} as {@code type}, a type {@link #resolve}
   * returned; {@code null} for JSON {@code null}.
   *
   * @throws RuntimeException if the JSON does not read as {@code type}
   */
  Object read(Class<?> type, byte[] bytes, int off, int len) {
    if (defaultMapper && (type == List.class || type == Map.class)) {
      // A list or map of plain strings, Integers and booleans (most session collections): read
      // as the default mapper would, without a parser; anything else goes to the mapper.
      Object v = PlainJsonReader.read(bytes, off, len, type);
      if (v != PlainJsonReader.NOT_PLAIN) {
        return v;
      }
    } else if (!plans.isEmpty()) {
      RecordPlan plan = plans.get(type);
      if (plan != null) {
        // A registered record of plain components, as the default mapper wrote it: built with
        // the same constructor from the same values, without a parser.
        Object v = PlainJsonReader.readRecord(bytes, off, len, plan);
        if (v != PlainJsonReader.NOT_PLAIN) {
          return v;
        }
      }
    }
    return mapper.read(bytes, off, len, type);
  }

  StateMapper mapper() {
    return mapper;
  }

  /** The class recorded under {@code typeName}, or {@code null}: a pure table look-up. */
  Class<?> resolve(String typeName) {
    return byName.get(typeName);
  }

  /** Whether values of this recorded type can change without a {@code setAttribute}. */
  static boolean isMutable(Class<?> type) {
    return type == null || !SCALARS.contains(type);
  }

  /**
   * The recorded type name of {@code value}, checking that its type is allowed.
   *
   * @throws IllegalArgumentException naming the attribute and its type if it is not allowed
   */
  String typeName(String name, Object value) {
    Class<?> c = value.getClass();
    if (registered.contains(c) || SCALARS.contains(c)) {
      return tags.get(c);
    }
    if (value instanceof List) {
      checkJdkValues(name, value, new IdentityHashMap<>(), 0);
      return LIST;
    }
    if (value instanceof Map) {
      checkJdkValues(name, value, new IdentityHashMap<>(), 0);
      return MAP;
    }
    throw new IllegalArgumentException("session attribute '" + name + "' has type " + c.getName()
        + ", which is not allowed: register it with SessionlessFilterBuilder.attributeTypes(...)"
        + " (or the attribute-types init parameter), or store JDK value types");
  }

  /** Checks a list or map attribute: JDK values only, string keys, no cycle, bounded depth. */
  private void checkJdkValues(String name, Object value, Map<Object, Boolean> path, int depth) {
    if (value == null || SCALARS.contains(value.getClass())) {
      return;
    }
    if (!(value instanceof List) && !(value instanceof Map)) {
      throw new IllegalArgumentException("session attribute '" + name + "' holds a value of type "
          + value.getClass().getName() + " inside a list or map: only JDK value types may appear there,"
          + " or register a type for the whole value");
    }
    if (path.put(value, Boolean.TRUE) != null) {
      throw new IllegalArgumentException("session attribute '" + name + "' is a list or map that contains"
          + " itself: a cycle cannot be stored as JSON");
    }
    if (depth >= MAX_DEPTH) {
      throw new IllegalArgumentException("session attribute '" + name + "' nests lists and maps more than "
          + MAX_DEPTH + " deep: store a flatter value");
    }
    if (value instanceof List) {
      for (Object o : (List<?>) value) {
        checkJdkValues(name, o, path, depth + 1);
      }
    } else {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException("session attribute '" + name + "' is a map with a key of type "
              + (e.getKey() == null ? "null" : e.getKey().getClass().getName())
              + ": map attributes need string keys");
        }
        checkJdkValues(name, e.getValue(), path, depth + 1);
      }
    }
    path.remove(value);
  }

  /**
   * The JSON of {@code value}, checked to round-trip: read back as {@code type} it must write
   * the same bytes (and, for JDK types, be equal). The bytes returned are the first and only
   * array built; they become the stored JSON.
   *
   * <p>What is checked, per value (never cached per type: whether a value survives depends on
   * the value, e.g. a {@code Map} holding a {@code Long} that reads back as an {@code Integer}):
   * <ul>
   *   <li>a JDK value type ({@link #SCALARS}: final classes whose {@code equals} compares their
   *       whole state) must read back equal; an equal value of the same final class writes the
   *       same JSON, so it is not serialised a second time;
   *   <li>a list or map must read back equal, and its read-back value must write the same bytes
   *       (compared as they are written, without building them);
   *   <li>a registered type must read back as a value that writes the same bytes (again
   *       compared as written).
   * </ul>
   *
   * @throws IllegalArgumentException naming the attribute and its type if it does not round-trip
   */
  byte[] checkedJson(String name, Object value, String typeName) {
    Class<?> type = byName.get(typeName);
    try {
      RecordPlan plan = writers.isEmpty() ? null : writers.get(type);
      if (plan != null) {
        byte[] json = AttributeRoundTrip.recordJson(value, plan);
        if (json != null) {
          return json;
        }
        // Not plain, or not read back as itself: the mapper's full check decides (and words it).
      }
      boolean collection = defaultMapper && (type == List.class || type == Map.class);
      if (collection) {
        // Written without a generator when it can be. What the writer takes with readsBackEqual
        // is a part of what plain() accepts: it reads back equal and writes these bytes again,
        // so no second pass; and at most PLAIN_DEPTH deep, with no control character or lone
        // surrogate, it is JSON a token carries (no carried-JSON check either).
        byte[] own = PlainJsonWriter.writePlain(value, PLAIN_DEPTH, true);
        if (own != null) {
          return own;
        }
      }
      byte[] json = mapper.write(value);
      if (collection && AttributeRoundTrip.readsBackAsItself(value, 0)) {
        // Known to read back equal and to write these bytes again: no second pass needed.
        AttributeRoundTrip.checkCarried(name, value, json);
        return json;
      }
      Object back = read(type, json, 0, json.length);
      boolean jdk = !registered.contains(type);
      boolean same;
      if (jdk && !value.equals(back)) {
        same = false;
      } else if (jdk && SCALARS.contains(type)) {
        same = true; // equal, same final class: writes what value wrote
      } else {
        SameBytes out = new SameBytes(json, 0, json.length);
        mapper.writeTo(back, out);
        same = out.same();
      }
      if (!same) {
        throw new IllegalArgumentException("session attribute '" + name + "' of type "
            + value.getClass().getName() + " does not survive a JSON round trip (it reads back"
            + " as something else): store a type Jackson writes and reads faithfully");
      }
      AttributeRoundTrip.checkCarried(name, value, json);
      return json;
    } catch (java.io.IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException && e.getMessage() != null
          && e.getMessage().startsWith("session attribute")) {
        throw (IllegalArgumentException) e;
      }
      throw new IllegalArgumentException("session attribute '" + name + "' of type "
          + value.getClass().getName() + " cannot be stored as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Whether {@code value} may be compared with its JSON without the mapper ({@link
   * #sameWithoutMapper}): a list or map, or a registered record {@link PlainJsonWriter} writes,
   * with the default mapper. Such a value needs no {@link Snapshot}: comparing it is as cheap as
   * walking it and allocates nothing.
   */
  boolean comparesWithoutMapper(Object value) {
    return defaultMapper && (value instanceof List || value instanceof Map
        || !writers.isEmpty() && writers.containsKey(value.getClass()));
  }

  /**
   * Whether {@code value} still writes exactly {@code json[off, off + len)}, compared without
   * the mapper; {@code null} when only the mapper can tell (a value not plain after all).
   */
  Boolean sameWithoutMapper(Object value, byte[] json, int off, int len) {
    if (!defaultMapper) {
      return null;
    }
    try {
      if (value instanceof List || value instanceof Map) {
        return PlainJsonWriter.samePlain(value, PLAIN_DEPTH, json, off, len);
      }
      RecordPlan plan = writers.isEmpty() ? null : writers.get(value.getClass());
      return plan == null ? null : PlainJsonWriter.same(value, plan, json, off, len);
    } catch (RuntimeException e) {
      return null; // an accessor that throws, a list changed meanwhile: the mapper's check words it
    }
  }

  /**
   * Whether {@code value} still writes exactly the JSON at {@code json[off, off + len)}: one
   * serialisation compared byte by byte as it is written, without building the bytes.
   */
  boolean writesSame(Object value, byte[] json, int off, int len) {
    Boolean plain = sameWithoutMapper(value, json, off, len);
    if (plain != null) {
      return plain;
    }
    SameBytes out = new SameBytes(json, off, len);
    try {
      mapper.writeTo(value, out);
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalStateException("a session attribute of type " + value.getClass().getName()
          + " can no longer be written as JSON", e);
    }
    return out.same();
  }

  /** The JSON of a value already accepted; {@code null} if it can no longer be written. */
  byte[] json(Object value) {
    try {
      byte[] plain = null;
      if (defaultMapper && (value instanceof List || value instanceof Map)) {
        plain = PlainJsonWriter.writePlain(value, PLAIN_DEPTH, false);
      } else if (!writers.isEmpty() && writers.containsKey(value.getClass())) {
        plain = PlainJsonWriter.write(value, writers.get(value.getClass()));
      }
      return plain != null ? plain : mapper.write(value);
    } catch (RuntimeException e) {
      throw new IllegalStateException("a session attribute of type " + value.getClass().getName()
          + " can no longer be written as JSON", e);
    }
  }
}
