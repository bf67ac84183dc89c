package dev.sessionless.webflux.internal;

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
 * Which classes may be session attribute values, and the short tag each is recorded under in
 * the token, in the servlet filter's format (so a token one writes the other reads): one letter
 * per JDK value type, {@code L} and {@code M} for lists and string-keyed maps of them, a
 * registered type's simple name (its full name when the simple name is shared or taken). A tag
 * read from a token is only looked up in this table: a token never makes a class load.
 *
 * <p>An interim copy of the servlet filter's {@code AttributeCodec} rules, kept to what the
 * WebFlux adapter needs, until the shared session engine exports them (issue 37).
 */
final class AttributeTypes {
  private static final List<Class<?>> SCALARS = List.of(String.class, Integer.class, Long.class,
      Short.class, Byte.class, Double.class, Float.class, Boolean.class, Character.class,
      BigInteger.class, BigDecimal.class);
  private static final List<String> SCALAR_TAGS = List.of("s", "i", "l", "h", "b", "d", "f", "z", "c", "I", "D");
  /** Deepest nesting of lists and maps accepted in one attribute value. */
  private static final int MAX_DEPTH = 64;

  private final StateMapper mapper;
  private final Set<Class<?>> registered;
  private final Map<String, Class<?>> byTag;
  private final Map<Class<?>, String> tags;

  AttributeTypes(StateMapper mapper, Set<Class<?>> registered) {
    mapper.checkTypes(Set.copyOf(registered));
    this.mapper = mapper;
    this.registered = Set.copyOf(registered);
    Map<String, Class<?>> byTag = new HashMap<>();
    Map<Class<?>, String> tags = new HashMap<>();
    for (int i = 0; i < SCALARS.size(); i++) {
      byTag.put(SCALARS.get(i).getName(), SCALARS.get(i)); // the full names older tokens recorded
      tags.put(SCALARS.get(i), SCALAR_TAGS.get(i));
    }
    byTag.put("java.util.List", List.class);
    byTag.put("java.util.Map", Map.class);
    tags.put(List.class, "L");
    tags.put(Map.class, "M");
    Map<String, Integer> simple = new HashMap<>();
    registered.forEach(c -> simple.merge(c.getSimpleName(), 1, Integer::sum));
    for (Class<?> c : registered) {
      if (!tags.containsKey(c)) {
        String s = c.getSimpleName();
        byTag.put(c.getName(), c);
        tags.put(c, !s.isEmpty() && simple.get(s) == 1 && !tags.containsValue(s) ? s : c.getName());
      }
    }
    tags.forEach((c, t) -> byTag.put(t, c));
    this.byTag = Collections.unmodifiableMap(byTag);
    this.tags = Collections.unmodifiableMap(tags);
  }

  /** The class recorded under {@code tag}, or {@code null}: a table look-up only. */
  Class<?> resolve(String tag) {
    return byTag.get(tag);
  }

  /** Whether values of {@code type} cannot change without a {@code put}. */
  static boolean immutable(Class<?> type) {
    return SCALARS.contains(type);
  }

  /**
   * The tag of {@code value}, checking its type is allowed.
   *
   * @throws IllegalArgumentException naming the attribute and its type if it is not
   */
  String tag(String name, Object value) {
    Class<?> c = value.getClass();
    if (registered.contains(c) || SCALARS.contains(c)) {
      return tags.get(c);
    }
    if (value instanceof List || value instanceof Map) {
      checkJdkValues(name, value, new IdentityHashMap<>(), 0);
      return value instanceof List ? "L" : "M";
    }
    throw new IllegalArgumentException("session attribute '" + name + "' has type " + c.getName()
        + ", which is not allowed: register it with SessionlessWebSessionManagerBuilder.attributeTypes(...),"
        + " or store JDK value types");
  }

  private void checkJdkValues(String name, Object value, Map<Object, Boolean> path, int depth) {
    if (value == null || SCALARS.contains(value.getClass())) {
      return;
    }
    if (depth >= MAX_DEPTH || path.put(value, Boolean.TRUE) != null) {
      throw new IllegalArgumentException("session attribute '" + name + "' nests lists and maps too deep, or"
          + " in a cycle");
    }
    if (value instanceof List) {
      for (Object v : (List<?>) value) {
        checkJdkValues(name, v, path, depth + 1);
      }
    } else if (value instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException("session attribute '" + name + "' is a map with a key that is"
              + " not a String");
        }
        checkJdkValues(name, e.getValue(), path, depth + 1);
      }
    } else {
      throw new IllegalArgumentException("session attribute '" + name + "' holds a " + value.getClass().getName()
          + " inside a list or map: only JDK value types may be nested (register a record instead)");
    }
    path.remove(value);
  }

  /** The value's JSON. */
  byte[] json(Object value) {
    return mapper.write(value);
  }

  /**
   * Reads {@code bytes[off, off + len)} as {@code type}.
   *
   * @throws RuntimeException if it does not read as {@code type}
   */
  Object read(Class<?> type, byte[] bytes, int off, int len) {
    return mapper.read(bytes, off, len, type);
  }
}
