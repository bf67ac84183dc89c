package dev.sessionless.session.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Walks an attribute value for a {@link Snapshot}: which classes hold nothing that can change
 * (leaves), which are {@code java.util} collections and maps (walked element by element, in
 * iteration order, as Jackson writes them), and which are records (walked component by
 * component through their accessors). What a class is, is found once per filter; a class that
 * is none of these stops the walk, and its values are compared as JSON.
 *
 * <p>Thread-safe.
 */
final class ValueWalker {
  /** Final JDK classes whose instances never change. */
  private static final List<Class<?>> IMMUTABLE = List.of(String.class, Integer.class, Long.class,
      Short.class, Byte.class, Double.class, Float.class, Boolean.class, Character.class,
      BigInteger.class, BigDecimal.class, UUID.class, Instant.class, LocalDate.class, LocalTime.class,
      LocalDateTime.class, OffsetDateTime.class, OffsetTime.class, ZonedDateTime.class, Duration.class,
      Period.class, Year.class, YearMonth.class, MonthDay.class, ZoneOffset.class);
  private static final Object LEAF = new Object();
  private static final Object CONTAINER = new Object();
  private static final Object OPAQUE = new Object();
  /** The most classes remembered per filter; others are treated as opaque (compared as JSON). */
  static final int MAX_CLASSES = 1024;
  private static final MethodType ACCESSOR = MethodType.methodType(Object.class, Object.class);

  /** Receives what a walk finds, in order; {@code false} stops it. */
  interface Sink {
    /** An object that may change (a collection, a map, a record), or {@link Snapshot#END}: by identity. */
    boolean accept(Object o);

    /** A value that never changes ({@code null} included): by equality. */
    boolean acceptLeaf(Object o);

    /** A record's primitive component, as its bits. */
    boolean acceptBits(long b);
  }

  /** Per class: {@link #LEAF}, {@link #CONTAINER}, {@link #OPAQUE}, or a record's components. */
  private final ConcurrentHashMap<Class<?>, Object> kinds = new ConcurrentHashMap<>();

  ValueWalker() {
    for (Class<?> c : IMMUTABLE) {
      kinds.put(c, LEAF);
    }
  }

  /**
   * Hands {@code value} and everything it holds to {@code sink}, depth first; {@code false} if
   * the sink stopped the walk or the value holds something this cannot vouch for.
   *
   * @throws RuntimeException if an accessor throws or a collection changes during the walk
   */
  boolean walk(Object value, Sink sink, int depth) {
    if (value == null || value.getClass() == String.class) {
      return sink.acceptLeaf(value);
    }
    Object kind = kind(value.getClass());
    if (kind == LEAF) {
      return sink.acceptLeaf(value);
    }
    if (kind == OPAQUE || depth >= Snapshot.MAX_DEPTH || !sink.accept(value)) {
      return false;
    }
    if (kind == CONTAINER) {
      return Snapshot.walkContainer(value, sink, this, depth);
    }
    for (Component c : (Component[]) kind) {
      if (!c.walk(value, sink, this, depth + 1)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A record component and how to read it: a reference is walked, a primitive is read as its
   * bits without boxing (a boxed {@code long} would be a new object on every read).
   */
  private static final class Component {
    static final int REFERENCE = 0;
    static final int INTEGRAL = 1;
    static final int FLOATING = 2;
    static final int BOOLEAN = 3;
    /**
     * A reference declared as a final class that never changes ({@code String}, {@code Long},
     * ...; not {@code BigDecimal}, which a mutable subclass could extend).
     */
    static final int LEAF = 4;

    final MethodHandle accessor;
    final int type;

    Component(MethodHandle accessor, int type) {
      this.accessor = accessor;
      this.type = type;
    }

    boolean walk(Object record, Sink sink, ValueWalker walker, int depth) {
      try {
        switch (type) {
          case INTEGRAL:
            return sink.acceptBits((long) accessor.invokeExact(record));
          case FLOATING:
            return sink.acceptBits(Double.doubleToRawLongBits((double) accessor.invokeExact(record)));
          case BOOLEAN:
            return sink.acceptBits((boolean) accessor.invokeExact(record) ? 1 : 0);
          case LEAF:
            return sink.acceptLeaf((Object) accessor.invokeExact(record));
          default:
            return walker.walk((Object) accessor.invokeExact(record), sink, depth);
        }
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a record accessor threw " + t.getClass().getName(), t);
      }
    }
  }

  /** Whether values of {@code c} never change (for tests and the leaf test of enums). */
  boolean isLeaf(Class<?> c) {
    return kind(c) == LEAF;
  }

  private Object kind(Class<?> c) {
    Object k = kinds.get(c);
    if (k == null) {
      if (kinds.size() >= MAX_CLASSES) {
        return OPAQUE;
      }
      k = classify(c);
      kinds.putIfAbsent(c, k);
    }
    return k;
  }

  private Object classify(Class<?> c) {
    if (c.getClassLoader() == null && "java.util".equals(c.getPackageName())
        && (Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c))) {
      return CONTAINER;
    }
    if (Enum.class.isAssignableFrom(c)) {
      return immutableEnum(c) ? LEAF : OPAQUE;
    }
    if (c.isRecord()) {
      return accessors(c);
    }
    return OPAQUE;
  }

  /**
   * An enum constant (of {@code c}, or of the enum a constant's body extends) whose instance
   * fields are all final and of never-changing types: nothing of it can change.
   */
  private boolean immutableEnum(Class<?> c) {
    for (Class<?> k = c; k != null && k != Enum.class; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        Class<?> t = f.getType();
        if (!Modifier.isFinal(f.getModifiers()) || !(t.isPrimitive() || IMMUTABLE.contains(t))) {
          return false;
        }
      }
    }
    return true;
  }

  /** A record's components with their accessors; {@link #OPAQUE} if one is not reachable. */
  private static Object accessors(Class<?> c) {
    RecordComponent[] components = c.getRecordComponents();
    Component[] read = new Component[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        Method m = components[i].getAccessor();
        if (!m.trySetAccessible()) {
          return OPAQUE;
        }
        MethodHandle h = MethodHandles.lookup().unreflect(m);
        Class<?> t = m.getReturnType();
        if (t == boolean.class) {
          read[i] = new Component(h.asType(MethodType.methodType(boolean.class, Object.class)), Component.BOOLEAN);
        } else if (t == double.class || t == float.class) {
          read[i] = new Component(h.asType(MethodType.methodType(double.class, Object.class)), Component.FLOATING);
        } else if (t.isPrimitive()) {
          read[i] = new Component(h.asType(MethodType.methodType(long.class, Object.class)), Component.INTEGRAL);
        } else {
          read[i] = new Component(h.asType(ACCESSOR), IMMUTABLE.contains(t) && Modifier.isFinal(t.getModifiers())
              ? Component.LEAF : Component.REFERENCE);
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      return OPAQUE; // a module that does not open the record to this one: compared as JSON
    }
    return read;
  }
}
