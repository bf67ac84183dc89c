package dev.sessionless.keyring;

import dev.sessionless.keyring.internal.RefreshScheduler;
import java.util.function.Supplier;

/** Reaches the builder's package-private test hooks from tests in other packages. */
public final class TestHooks {
  private TestHooks() {}

  /** Runs the keyring's checks on {@code scheduler} instead of its own thread. */
  public static KeyringBuilder scheduler(KeyringBuilder builder, Supplier<RefreshScheduler> scheduler) {
    return builder.scheduler(scheduler);
  }
}
