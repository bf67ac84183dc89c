package dev.sessionless.core.jackson;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Refuses, when the filter is built, a Jackson setup under which JSON read from a token could
 * choose the class to instantiate (the root of Jackson's deserialization gadget attacks): default
 * typing on the mapper, {@code @JsonTypeInfo(use = CLASS)} or {@code MINIMAL_CLASS} on a
 * registered type, on any of its properties, or on any type reachable through its properties,
 * and properties declared as {@code Object} (or {@code Serializable}, {@code Comparable}), which
 * only polymorphic typing could read back as what was stored. Walks the types with the mapper's
 * own introspection, so mix-ins and naming strategies count. Name-based type ids ({@code
 * use = NAME} with {@code @JsonSubTypes}) name a closed set and are allowed.
 */
final class JacksonTypeSafety {
  private static final Set<Class<?>> UNTYPED = Set.of(Object.class, Serializable.class, Comparable.class);

  private JacksonTypeSafety() {}

  /** @throws IllegalArgumentException if the mapper has default typing activated */
  static void refuseDefaultTyping(JsonMapper mapper) {
    JavaType object = mapper.constructType(Object.class);
    if (mapper.serializationConfig().getDefaultTyper(object) != null
        || mapper.deserializationConfig().getDefaultTyper(object) != null) {
      throw new IllegalArgumentException("the JsonMapper has default typing activated, which lets JSON read"
          + " from a token choose classes to instantiate: give Sessionless a mapper without"
          + " activateDefaultTyping");
    }
  }

  /** @throws IllegalArgumentException naming the mapper setting or the type and property at fault */
  static void check(JsonMapper mapper, Set<Class<?>> registered) {
    refuseDefaultTyping(mapper);
    Set<Class<?>> seen = new HashSet<>();
    for (Class<?> type : registered) {
      walk(mapper, mapper.constructType(type), type.getName(), type, seen);
    }
  }

  private static void walk(JsonMapper mapper, JavaType t, String where, Class<?> root, Set<Class<?>> seen) {
    if (t.isContainerType() || t.isReferenceType()) {
      if (t.getKeyType() != null) {
        walk(mapper, t.getKeyType(), where + " (map key)", root, seen);
      }
      walk(mapper, t.getContentType(), where + " (content)", root, seen);
      return;
    }
    Class<?> raw = t.getRawClass();
    if (UNTYPED.contains(raw)) {
      throw new IllegalArgumentException("attribute type " + root.getName() + ": " + where + " is declared as "
          + raw.getSimpleName() + ", which reads back only as maps, lists and strings unless Jackson"
          + " picks a class from the JSON: declare a concrete type");
    }
    if (raw.isPrimitive() || raw.isEnum() || raw.getName().startsWith("java.")
        || raw.getName().startsWith("com.fasterxml.jackson.")
        || raw.getName().startsWith("tools.jackson.") || !seen.add(raw)) {
      return;
    }
    List<BeanDescription> views = List.of(mapper._serializationContext().introspectBeanDescription(t),
        mapper._deserializationContext().introspectBeanDescription(t));
    refuseClassIds(views.get(0).getClassInfo(), "attribute type " + root.getName() + ": "
        + (raw == root ? "the class" : where + " (" + raw.getName() + ")"));
    for (BeanDescription view : views) {
      for (BeanPropertyDefinition p : view.findProperties()) {
        String at = (raw == root ? "" : where + ".") + "property '" + p.getName() + "'";
        List<Annotated> members = new ArrayList<>();
        members.add(p.getField());
        members.add(p.getGetter());
        members.add(p.getSetter());
        members.add(p.getConstructorParameter());
        for (Annotated m : members) {
          if (m != null) {
            refuseClassIds(m, "attribute type " + root.getName() + ": " + at);
          }
        }
        walk(mapper, p.getPrimaryType(), at, root, seen);
      }
    }
  }

  private static void refuseClassIds(Annotated a, String what) {
    JsonTypeInfo info = a.getAnnotation(JsonTypeInfo.class);
    if (info != null && (info.use() == JsonTypeInfo.Id.CLASS || info.use() == JsonTypeInfo.Id.MINIMAL_CLASS)) {
      throw new IllegalArgumentException(what + " carries @JsonTypeInfo(use = " + info.use() + "), which lets"
          + " JSON read from a token name any class to instantiate: use Id.NAME with @JsonSubTypes");
    }
  }
}
