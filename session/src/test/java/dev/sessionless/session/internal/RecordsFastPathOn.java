package dev.sessionless.session.internal;

import dev.sessionless.core.internal.FastPaths;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Switches the {@code records} fast path on around each test of a class that tests the path's
 * own parts ({@link PlainJsonWriter}, {@link PlainJsonReader}, {@link RecordPlan}), whatever
 * {@code -Ddev.sessionless.fastpath.records} says, and back afterwards. With it off those parts
 * answer "not plain" by design; {@code PlainRoundTripTest} holds the codec to the mapper in both
 * modes.
 */
final class RecordsFastPathOn implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RecordsFastPathOn.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("was", FastPaths.set(FastPaths.Path.RECORDS, true));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    FastPaths.set(FastPaths.Path.RECORDS, context.getStore(NS).get("was", Boolean.class));
  }

  /** The plans of {@code types}, made with the fast path on (for a class's static fields). */
  static Map<Class<?>, RecordPlan> plans(Set<Class<?>> types) {
    boolean was = FastPaths.set(FastPaths.Path.RECORDS, true);
    try {
      return RecordPlan.of(types);
    } finally {
      FastPaths.set(FastPaths.Path.RECORDS, was);
    }
  }
}
