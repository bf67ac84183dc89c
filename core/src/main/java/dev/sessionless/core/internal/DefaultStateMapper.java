package dev.sessionless.core.internal;

import dev.sessionless.core.StateMapper;

/**
 * Where {@link StateMapper#defaults()} finds the default mapper, {@code
 * dev.sessionless.core.jackson.JacksonStateMapper.defaults()}, without the API package depending
 * on the adapter package that implements its interface (that would be a package cycle: the
 * adapter imports {@code StateMapper}). The adapter is in this module, so the lookup by name
 * cannot miss; it runs once, on first use.
 */
public final class DefaultStateMapper {
  /** The class whose {@code defaults()} is the default mapper. */
  static final String ADAPTER = "dev.sessionless.core.jackson.JacksonStateMapper";

  private static final class Holder {
    static final StateMapper INSTANCE = find();
  }

  /** The default mapper (always the same instance). */
  public static StateMapper get() {
    return Holder.INSTANCE;
  }

  private static StateMapper find() {
    try {
      return (StateMapper) Class.forName(ADAPTER, true, DefaultStateMapper.class.getClassLoader())
          .getMethod("defaults").invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("sessionless-core is incomplete: " + ADAPTER + ".defaults() is missing", e);
    }
  }

  private DefaultStateMapper() {}
}
