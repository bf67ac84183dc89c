package dev.sessionless.keyring.internal;

import java.time.Duration;

/**
 * Runs a keyring's checks. In production this is {@link ThreadScheduler}: one named daemon
 * thread. Tests may drive a keyring with a scheduler of their own that runs due tasks by a fake
 * clock, so refresh timing can be simulated deterministically.
 *
 * <p>Every task of one keyring runs on one thread at a time, in submission order for tasks due
 * at the same moment; implementations must keep that guarantee, since sources rely on it instead
 * of locks.
 */
public interface RefreshScheduler {
  /** Runs {@code task} after {@code delay}; does nothing once shut down. */
  void schedule(Runnable task, Duration delay);

  /** Runs {@code task} as soon as possible; does nothing once shut down. Never blocks. */
  void execute(Runnable task);

  /** Stops running tasks and interrupts a running one; idempotent. */
  void shutdown();
}
