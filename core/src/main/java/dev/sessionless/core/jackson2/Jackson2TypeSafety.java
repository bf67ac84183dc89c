package dev.sessionless.core.jackson2;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.sessionless.core.internal.JacksonAdapters;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Jackson 2 twin of {@code core.jackson.JacksonTypeSafety}: refuses, when the filter is built,
 * a setup under which JSON read from a token could choose the class to instantiate, by the same
 * rules ({@code internal.JacksonAdapters}). The walk below repeats the Jackson 3 one because each
 * calls its own library's introspection, whose classes and method names differ.
 */
final class Jackson2TypeSafety {
  private Jackson2TypeSafety() {}

  /** @throws IllegalArgumentException if the mapper has default typing activated */
  static void refuseDefaultTyping(ObjectMapper mapper) {
    JavaType object = mapper.constructType(Object.class);
    if (mapper.getSerializationConfig().getDefaultTyper(object) != null
        || mapper.getDeserializationConfig().getDefaultTyper(object) != null) {
      throw JacksonAdapters.defaultTyping("ObjectMapper", "activateDefaultTyping/enableDefaultTyping");
    }
  }

  /** @throws IllegalArgumentException naming the mapper setting or the type and property at fault */
  static void check(ObjectMapper mapper, Set<Class<?>> registered) {
    refuseDefaultTyping(mapper);
    Set<Class<?>> seen = new HashSet<>();
    for (Class<?> type : registered) {
      walk(mapper, mapper.constructType(type), type.getName(), type, seen);
    }
  }

  private static void walk(ObjectMapper mapper, JavaType t, String where, Class<?> root, Set<Class<?>> seen) {
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
    List<BeanDescription> views = List.of(mapper.getSerializationConfig().introspect(t),
        mapper.getDeserializationConfig().introspect(t));
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
