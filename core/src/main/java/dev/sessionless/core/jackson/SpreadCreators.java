package dev.sessionless.core.jackson;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.introspect.AnnotatedWithParams;

/**
 * Builds values that Jackson makes through a constructor of two or more arguments (every record
 * with two or more components, and {@code @JsonCreator} constructors) with a method handle
 * spread once per type, instead of Jackson 3's {@code MethodHandle.invokeWithArguments}, which
 * adapts the handle anew on every call: for the filter's benchmark cart (a record holding three
 * records) that was ~1 KB of garbage and ~0.9 µs per read, a third of reading it.
 *
 * <p>The same constructor, the same arguments, the same conversions ({@code asType} to the
 * generic type, as {@code invokeWithArguments} does) and the same handling of a constructor
 * that throws ({@link StdValueInstantiator}'s own: {@code handleInstantiationProblem} with the
 * rewrapped cause). Only Jackson's own {@code StdValueInstantiator} is replaced; an instantiator
 * a module supplies, a creator that is a factory method, and a constructor this module cannot
 * reach are left to Jackson.
 */
final class SpreadCreators extends ValueInstantiators.Base {
  private SpreadCreators() {}

  /** The module that installs it. */
  static JacksonModule module() {
    SpreadCreators creators = new SpreadCreators();
    return new JacksonModule() {
      @Override
      public String getModuleName() {
        return "sessionless-spread-creators";
      }

      @Override
      public Version version() {
        return Version.unknownVersion();
      }

      @Override
      public void setupModule(SetupContext context) {
        context.addValueInstantiators(creators);
      }
    };
  }

  @Override
  public ValueInstantiator modifyValueInstantiator(DeserializationConfig config,
      BeanDescription.Supplier description, ValueInstantiator instantiator) {
    if (instantiator.getClass() != StdValueInstantiator.class) {
      return instantiator;
    }
    StdValueInstantiator std = (StdValueInstantiator) instantiator;
    AnnotatedWithParams creator = std.getWithArgsCreator();
    if (!(creator instanceof AnnotatedConstructor) || creator.getParameterCount() < 2) {
      return instantiator;
    }
    try {
      Constructor<?> c = ((AnnotatedConstructor) creator).getAnnotated();
      MethodHandle h = MethodHandles.lookup().unreflectConstructor(c);
      return new Spreading(std, h.asType(h.type().generic()).asSpreader(Object[].class, c.getParameterCount()));
    } catch (IllegalAccessException | RuntimeException e) {
      return instantiator; // not reachable from here: Jackson calls it as before
    }
  }

  /** Jackson's instantiator, calling its constructor through a handle spread once. */
  static final class Spreading extends StdValueInstantiator {
    private static final long serialVersionUID = 1L;
    private final transient MethodHandle spread;

    Spreading(StdValueInstantiator src, MethodHandle spread) {
      super(src);
      this.spread = spread;
    }

    @Override
    public Object createFromObjectWith(DeserializationContext ctxt, Object[] args) {
      try {
        return (Object) spread.invokeExact(args);
      } catch (Exception e) {
        return ctxt.handleInstantiationProblem(_valueClass, args, rewrapCtorProblem(ctxt, e));
      } catch (Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t); // neither an Exception nor an Error: no constructor throws one
      }
    }
  }
}
