package dev.sessionless.core.internal;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.sessionless.core.StateMapper.ReadLimits;
import java.io.Serializable;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the Jackson 3 and Jackson 2 state mappers ({@code core.jackson}, {@code core.jackson2})
 * share: the type-safety rules and their messages, the reader cache and the plain-read check.
 * Nothing here touches a Jackson databind type; the two adapters keep only their library calls,
 * which cannot be shared because Jackson 3 ({@code tools.jackson}) and Jackson 2 ({@code
 * com.fasterxml.jackson}) are different classes with different method names.
 */
public final class JacksonAdapters {
  /** The most {@code ObjectReader}s one mapper keeps; readers for further types are made per read. */
  public static final int MAX_READERS = 256;

  /** Final JDK value types: the only candidates for {@code StateMapper.readsPlainly}. */
  public static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Integer.class,
      Long.class, Short.class, Byte.class, Double.class, Float.class, Character.class,
      BigInteger.class, BigDecimal.class);

  private static final Set<Class<?>> UNTYPED = Set.of(Object.class, Serializable.class, Comparable.class);

  private JacksonAdapters() {}

  /** A mapper's read limits from its stream constraints (a document length of 0 or less: none). */
  public static ReadLimits limits(long maxString, long maxNumber, long maxDocument) {
    return new ReadLimits(maxString, maxNumber, maxDocument <= 0 ? Long.MAX_VALUE : maxDocument);
  }

  /** The reader for {@code type}, made by {@code make} and kept while fewer than {@code max} are. */
  public static <R> R reader(ConcurrentHashMap<Type, R> readers, int max, Type type, Function<Type, R> make) {
    R r = readers.get(type);
    if (r == null) {
      r = make.apply(type);
      if (readers.size() < max) {
        R raced = readers.putIfAbsent(type, r);
        if (raced != null) {
          r = raced;
        }
      }
    }
    return r;
  }

  /** The types of {@link #IMMUTABLE} that {@code own} reads with the very deserializer {@code reference} does. */
  public static Set<Class<?>> sameDeserializers(Map<Class<?>, ?> own, Map<Class<?>, ?> reference) {
    Set<Class<?>> same = new HashSet<>();
    for (Class<?> c : IMMUTABLE) {
      Object d = own.get(c);
      if (d != null && d == reference.get(c)) {
        same.add(c);
      }
    }
    return Set.copyOf(same);
  }

  /** The lazily found set of types a mapper reads plainly; a mapper that cannot be inspected reads none. */
  public static final class PlainTypes {
    private final Supplier<Set<Class<?>>> find;
    private volatile Set<Class<?>> found;

    /** {@code find} is called once, on the first question about a type in {@link #IMMUTABLE}. */
    public PlainTypes(Supplier<Set<Class<?>>> find) {
      this.find = find;
    }

    /** Whether the mapper reads {@code type} plainly. */
    public boolean contains(Class<?> type) {
      if (!IMMUTABLE.contains(type)) {
        return false;
      }
      Set<Class<?>> p = found;
      if (p == null) {
        try {
          p = find.get();
        } catch (RuntimeException e) {
          p = Set.of(); // a mapper we cannot inspect: Jackson reads everything
        }
        found = p;
      }
      return p.contains(type);
    }
  }

  /** The refusal of a mapper with default typing; {@code mapper} names its class, {@code without} the call to leave out. */
  public static IllegalArgumentException defaultTyping(String mapper, String without) {
    return new IllegalArgumentException("the " + mapper + " has default typing activated, which lets JSON read"
        + " from a token choose classes to instantiate: give Sessionless a mapper without " + without);
  }

  /**
   * Whether the type-safety walk stops at {@code raw} (primitives, enums, JDK and Jackson types,
   * types already walked); refuses a type declared as {@code Object}, {@code Serializable} or
   * {@code Comparable}, which only polymorphic typing could read back as what was stored.
   *
   * @throws IllegalArgumentException for such a type, naming {@code root} and {@code where}
   */
  public static boolean stopsAt(Class<?> raw, Class<?> root, String where, Set<Class<?>> seen) {
    if (UNTYPED.contains(raw)) {
      throw new IllegalArgumentException("attribute type " + root.getName() + ": " + where + " is declared as "
          + raw.getSimpleName() + ", which reads back only as maps, lists and strings unless Jackson"
          + " picks a class from the JSON: declare a concrete type");
    }
    return raw.isPrimitive() || raw.isEnum() || raw.getName().startsWith("java.")
        || raw.getName().startsWith("com.fasterxml.jackson.")
        || raw.getName().startsWith("tools.jackson.") || !seen.add(raw);
  }

  /** How the walk names {@code raw} reached at {@code where} from {@code root}. */
  public static String classLabel(Class<?> raw, Class<?> root, String where) {
    return "attribute type " + root.getName() + ": " + (raw == root ? "the class" : where + " (" + raw.getName() + ")");
  }

  /** Where property {@code name} of {@code raw} is, as the walk names it. */
  public static String propertyPath(Class<?> raw, Class<?> root, String where, String name) {
    return (raw == root ? "" : where + ".") + "property '" + name + "'";
  }

  /**
   * Refuses class-name type ids ({@code @JsonTypeInfo(use = CLASS)} or {@code MINIMAL_CLASS}) on
   * the member or class {@code what} names; {@code info} may be null.
   */
  public static void refuseClassIds(JsonTypeInfo info, String what) {
    if (info != null && (info.use() == JsonTypeInfo.Id.CLASS || info.use() == JsonTypeInfo.Id.MINIMAL_CLASS)) {
      throw new IllegalArgumentException(what + " carries @JsonTypeInfo(use = " + info.use() + "), which lets"
          + " JSON read from a token name any class to instantiate: use Id.NAME with @JsonSubTypes");
    }
  }
}
