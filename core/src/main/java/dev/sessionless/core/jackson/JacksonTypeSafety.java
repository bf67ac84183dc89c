package dev.sessionless.core.jackson;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.sessionless.core.internal.JacksonAdapters;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
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
 * use = NAME} with {@code @JsonSubTypes}) name a closed set and are allowed. The rules and messages
 * are shared with Jackson 2's twin ({@code internal.JacksonAdapters}); the walk is not, because it
 * calls each library's own introspection.
 */
final class JacksonTypeSafety {
  private JacksonTypeSafety() {}

  /** @throws IllegalArgumentException if the mapper has default typing activated */
  static void refuseDefaultTyping(JsonMapper mapper) {
    JavaType object = mapper.constructType(Object.class);
    if (mapper.serializationConfig().getDefaultTyper(object) != null
        || mapper.deserializationConfig().getDefaultTyper(object) != null) {
      throw JacksonAdapters.defaultTyping("JsonMapper", "activateDefaultTyping");
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
    if (JacksonAdapters.stopsAt(raw, root, where, seen)) {
      return;
    }
    List<BeanDescription> views = List.of(mapper._serializationContext().introspectBeanDescription(t),
        mapper._deserializationContext().introspectBeanDescription(t));
    refuseClassIds(views.get(0).getClassInfo(), JacksonAdapters.classLabel(raw, root, where));
    for (BeanDescription view : views) {
      for (BeanPropertyDefinition p : view.findProperties()) {
        String at = JacksonAdapters.propertyPath(raw, root, where, p.getName());
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
    JacksonAdapters.refuseClassIds(a.getAnnotation(JsonTypeInfo.class), what);
  }
}
