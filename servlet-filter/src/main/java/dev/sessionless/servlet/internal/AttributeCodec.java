package dev.sessionless.servlet.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns session attributes into JSON and back. Every attribute's type is recorded by name, and a
 * recorded name is only ever looked up in a fixed table (JDK value types plus the types the
 * application registered): a class name read from a token never loads a class.
 */
public final class AttributeCodec {
  /** Recorded type of any {@link List} of JDK value types. */
  static final String LIST = "java.util.List";
  /** Recorded type of any {@link Map} from strings to JDK value types. */
  static final String MAP = "java.util.Map";

  private static final List<Class<?>> SCALARS = List.of(String.class, Integer.class, Long.class,
      Short.class, Byte.class, Double.class, Float.class, Boolean.class, Character.class,
      BigInteger.class, BigDecimal.class);

  private final ObjectMapper mapper;
  private final Map<String, Class<?>> byName;
  private final Set<Class<?>> registered;

  /** Deepest nesting of lists and maps accepted in one attribute value. */
  static final int MAX_DEPTH = 64;

  /**
   * A codec using {@code mapper} that also accepts exactly the {@code registered} classes.
   *
   * @throws IllegalArgumentException if the mapper has default typing enabled, or a registered
   *     type could make Jackson pick a class from the JSON (see {@link TypeSafety})
   */
  public AttributeCodec(ObjectMapper mapper, Set<Class<?>> registered) {
    TypeSafety.check(mapper, registered);
    this.mapper = mapper;
    this.registered = Set.copyOf(registered);
    Map<String, Class<?>> m = new HashMap<>();
    for (Class<?> c : SCALARS) {
      m.put(c.getName(), c);
    }
    m.put(LIST, List.class);
    m.put(MAP, Map.class);
    for (Class<?> c : registered) {
      m.put(c.getName(), c);
    }
    this.byName = Collections.unmodifiableMap(m);
  }

  ObjectMapper mapper() {
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
      return c.getName();
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
        + ", which is not allowed: register it with SessionlessFilter.Builder.attributeTypes(...)"
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
   * the same bytes (and, for JDK types, be equal).
   *
   * @throws IllegalArgumentException naming the attribute and its type if it does not round-trip
   */
  byte[] checkedJson(String name, Object value, String typeName) {
    Class<?> type = byName.get(typeName);
    try {
      byte[] json = mapper.writeValueAsBytes(value);
      Object back = mapper.readValue(json, type);
      byte[] again = mapper.writeValueAsBytes(back);
      boolean jdk = !registered.contains(type);
      if (!Arrays.equals(json, again) || (jdk && !value.equals(back))) {
        throw new IllegalArgumentException("session attribute '" + name + "' of type "
            + value.getClass().getName() + " does not survive a JSON round trip (it reads back"
            + " as something else): store a type Jackson writes and reads faithfully");
      }
      return json;
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException && e.getMessage() != null
          && e.getMessage().startsWith("session attribute")) {
        throw (IllegalArgumentException) e;
      }
      throw new IllegalArgumentException("session attribute '" + name + "' of type "
          + value.getClass().getName() + " cannot be stored as JSON: " + e.getMessage(), e);
    }
  }

  /** The JSON of a value already accepted; {@code null} if it can no longer be written. */
  byte[] json(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("a session attribute of type " + value.getClass().getName()
          + " can no longer be written as JSON", e);
    }
  }
}
