package dev.sessionless.session.internal;

import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How {@link PlainJsonReader} reads one registered record type without Jackson: the components'
 * names in declaration order (the order the default mapper writes them), what each may hold, and
 * the canonical constructor, which the default mapper calls too.
 *
 * <p>A record gets a plan only when nothing but its components can shape its JSON: no Jackson
 * annotation on the class, a component, its accessor, its field, the canonical constructor or
 * one of its parameters; every component a {@code String}, an {@code int}/{@code Integer}, a
 * {@code long}/{@code Long}, a {@code boolean}/{@code Boolean}, a {@code List} of one of these
 * (or of such a record), or such a record itself; names of printable ASCII. Everything else
 * (and any JSON the plan does not expect) is read by the mapper, as before.
 */
final class RecordPlan {
  // Component kinds as int codes; the duplicates tool pairs this list with ClaimRules' flags: same shape only.
  static final int STRING = 0;
  static final int INT = 1;
  static final int INTEGER = 2;
  static final int LONG = 3;
  static final int LONG_BOX = 4;
  static final int BOOLEAN = 5;
  static final int BOOLEAN_BOX = 6;
  static final int LIST = 7;
  static final int RECORD = 8;
  /** The class of each kind from {@link #STRING} to {@link #LIST}, at its kind's index. */
  private static final List<Class<?>> KIND_CLASSES = List.of(String.class, int.class, Integer.class,
      long.class, Long.class, boolean.class, Boolean.class, List.class);

  /** Nested record types followed when planning, at most: deeper types are read by the mapper. */
  private static final int MAX_TYPE_DEPTH = 8;

  /** Each component's name as the bytes {@code "name":}, ready to compare. */
  final byte[][] names;
  final int[] kinds;
  /** For a {@link #LIST}, the kind of its elements. */
  final int[] elementKinds;
  /** For a {@link #RECORD}, or a {@link #LIST} of records, the nested plan. */
  final RecordPlan[] nested;
  /** The record type this plan reads and writes. */
  final Class<?> type;
  private final MethodHandle constructor;
  /**
   * Each component's accessor ({@code (Object) -> long} for an {@link #INT} or {@link #LONG},
   * {@code (Object) -> boolean} for a {@link #BOOLEAN}, else {@code (Object) -> Object}), or
   * {@code null} if {@link
   * PlainJsonWriter} may not write this record: the mapper would write more than the components
   * (a {@code getX()} or {@code isX()} method makes a property too), or it has no component.
   */
  final MethodHandle[] accessors;
  /**
   * Whether this record and every record nested in it have the compiler's own canonical
   * constructor and accessors ({@link PlainRecordCode}): rebuilding one from its components
   * then gives the same values, and {@code setAttribute}'s round-trip check is skipped.
   */
  final boolean rebuildsUnchanged;

  private RecordPlan(Class<?> type, byte[][] names, int[] kinds, int[] elementKinds, RecordPlan[] nested,
      MethodHandle constructor, MethodHandle[] accessors) {
    this.type = type;
    this.names = names;
    this.kinds = kinds;
    this.elementKinds = elementKinds;
    this.nested = nested;
    this.constructor = constructor;
    this.accessors = accessors;
    boolean unchanged = PlainRecordCode.isPlain(type);
    for (RecordPlan p : nested) {
      unchanged &= p == null || p.rebuildsUnchanged;
    }
    this.rebuildsUnchanged = unchanged;
  }

  /** Whether {@link PlainJsonWriter} writes this record, and every record nested in it. */
  boolean writable() {
    if (accessors == null) {
      return false;
    }
    for (RecordPlan p : nested) {
      if (p != null && !p.writable()) {
        return false;
      }
    }
    return true;
  }

  /** The value of component {@code k} of {@code record}, an instance of {@link #type}. */
  Object component(Object record, int k) {
    try {
      return (Object) accessors[k].invokeExact(record);
    } catch (Throwable e) {
      throw accessorFailed(k, e);
    }
  }

  /** Component {@code k} of kind {@link #INT} or {@link #LONG}, without boxing it. */
  long longComponent(Object record, int k) {
    try {
      return (long) accessors[k].invokeExact(record);
    } catch (Throwable e) {
      throw accessorFailed(k, e);
    }
  }

  /** Component {@code k} of kind {@link #BOOLEAN}, without boxing it. */
  boolean booleanComponent(Object record, int k) {
    try {
      return (boolean) accessors[k].invokeExact(record);
    } catch (Throwable e) {
      throw accessorFailed(k, e);
    }
  }

  /** What an accessor threw, rethrown as it was if unchecked, else wrapped. */
  private RuntimeException accessorFailed(int k, Throwable e) {
    if (e instanceof RuntimeException r) {
      return r;
    }
    if (e instanceof Error err) {
      throw err;
    }
    return new IllegalStateException("the accessor of " + type.getName() + "." + new String(names[k],
        StandardCharsets.US_ASCII) + " threw a checked exception", e);
  }

  /** The plans of those {@code registered} types that have one. */
  static Map<Class<?>, RecordPlan> of(Set<Class<?>> registered) {
    if (!PlainJsonReader.on()) {
      return Map.of(); // the records fast path is off: the mapper writes and reads them
    }
    Map<Class<?>, RecordPlan> plans = new HashMap<>();
    for (Class<?> c : registered) {
      RecordPlan p = plan(c, new ArrayList<>());
      if (p != null) {
        plans.put(c, p);
      }
    }
    return Collections.unmodifiableMap(plans);
  }

  /**
   * Builds the value from its components' values; {@link PlainJsonReader#NOT_PLAIN} if the
   * constructor refuses them (the mapper then reads the JSON and words the refusal).
   */
  Object make(Object[] args) {
    try {
      return (Object) constructor.invokeExact(args);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      return PlainJsonReader.NOT_PLAIN;
    }
  }

  /** The plan of {@code type}, or {@code null}; {@code path} holds the records being planned. */
  private static RecordPlan plan(Class<?> type, List<Class<?>> path) {
    if (!type.isRecord() || path.contains(type) || path.size() >= MAX_TYPE_DEPTH || jackson(type)) {
      return null;
    }
    path.add(type);
    try {
      RecordComponent[] rc = type.getRecordComponents();
      int n = rc.length;
      byte[][] names = new byte[n][];
      int[] kinds = new int[n];
      int[] elementKinds = new int[n];
      RecordPlan[] nested = new RecordPlan[n];
      Class<?>[] params = new Class<?>[n];
      for (int k = 0; k < n; k++) {
        RecordComponent c = rc[k];
        if (!plainName(c.getName()) || jackson(c) || jackson(c.getAccessor())
            || jackson(type.getDeclaredField(c.getName()))) {
          return null;
        }
        names[k] = ("\"" + c.getName() + "\":").getBytes(StandardCharsets.US_ASCII);
        params[k] = c.getType();
        kinds[k] = kind(c.getType());
        if (kinds[k] == RECORD) {
          nested[k] = plan(c.getType(), path);
          if (nested[k] == null) {
            return null;
          }
        } else if (kinds[k] == LIST) {
          Type g = c.getGenericType();
          if (!(g instanceof ParameterizedType) || !(((ParameterizedType) g).getActualTypeArguments()[0] instanceof Class)) {
            return null;
          }
          Class<?> element = (Class<?>) ((ParameterizedType) g).getActualTypeArguments()[0];
          elementKinds[k] = kind(element);
          if (elementKinds[k] == RECORD) {
            nested[k] = plan(element, path);
            if (nested[k] == null) {
              return null;
            }
          } else if (elementKinds[k] < 0 || elementKinds[k] == LIST || element.isPrimitive()) {
            return null;
          }
        } else if (kinds[k] < 0) {
          return null;
        }
      }
      Constructor<?> ctor = type.getDeclaredConstructor(params);
      if (jackson(ctor)) {
        return null;
      }
      for (java.lang.reflect.Parameter p : ctor.getParameters()) {
        if (jackson(p)) {
          return null;
        }
      }
      ctor.setAccessible(true);
      MethodHandle h = MethodHandles.lookup().unreflectConstructor(ctor)
          .asSpreader(Object[].class, n)
          .asType(MethodType.methodType(Object.class, Object[].class));
      return new RecordPlan(type, names, kinds, elementKinds, nested, h, accessors(type, rc));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // Not reachable from here (a module not open to us), or a component type that does not
      // load: the mapper reads it, and reports what it finds.
      return null;
    } finally {
      path.remove(path.size() - 1);
    }
  }

  /**
   * The components' accessors (see {@link #accessors}), or {@code null} when the mapper
   * would write other properties too: Jackson (with Jackson 2's defaults) also writes what any
   * public {@code getX()} or {@code isX()} method returns, so a record with such a method (even a
   * component named so) is left to the mapper. A record without components is too.
   */
  private static MethodHandle[] accessors(Class<?> type, RecordComponent[] rc) {
    if (rc.length == 0) {
      return null;
    }
    for (java.lang.reflect.Method m : type.getMethods()) {
      String n = m.getName();
      if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0
          && !n.equals("getClass")
          && (n.startsWith("get") && n.length() > 3 || n.startsWith("is") && n.length() > 2)) {
        return null;
      }
    }
    MethodHandle[] hs = new MethodHandle[rc.length];
    try {
      for (int k = 0; k < rc.length; k++) {
        java.lang.reflect.Method a = rc[k].getAccessor();
        a.setAccessible(true);
        Class<?> t = rc[k].getType();
        Class<?> as = t == int.class || t == long.class ? long.class : t == boolean.class ? boolean.class : Object.class;
        hs[k] = MethodHandles.lookup().unreflect(a).asType(MethodType.methodType(as, Object.class));
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // not reachable from here: the mapper writes it
    }
    return hs;
  }

  /** The component kind of {@code t}: its index in {@link #KIND_CLASSES}, {@link #RECORD}, or -1. */
  private static int kind(Class<?> t) {
    int k = KIND_CLASSES.indexOf(t);
    return k >= 0 ? k : t.isRecord() ? RECORD : -1;
  }

  private static boolean plainName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return !name.isEmpty();
  }

  /** Whether any annotation from Jackson (2 or 3) is on {@code e}: it may change the JSON. */
  private static boolean jackson(AnnotatedElement e) {
    for (Annotation a : e.getDeclaredAnnotations()) {
      if (fromJackson(a.annotationType())) {
        return true;
      }
      // An annotation of the application's own that bundles Jackson's (@JacksonAnnotationsInside).
      for (Annotation meta : a.annotationType().getDeclaredAnnotations()) {
        if (fromJackson(meta.annotationType())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean fromJackson(Class<?> annotationType) {
    String pkg = annotationType.getPackageName();
    return pkg.startsWith("tools.jackson") || pkg.startsWith("com.fasterxml.jackson");
  }
}
