package dev.sessionless.testing;

import java.lang.ref.Reference;
import java.util.concurrent.TimeUnit;

/**
 * Whether an object became unreachable, decided without depending on the machine's speed: the
 * collector runs again and again until the reference clears, up to a generous bound. A leak
 * test on a loaded two-core machine must not fail because a thread that drops the last strong
 * reference (a pool worker, a container's background thread) had not run yet; and a leak still
 * fails it, only after the bound. {@code System.gc()} is a request the JVM may ignore (with
 * {@code -XX:+DisableExplicitGC}); such a run fails the leak tests, it does not pass them.
 */
public final class Collected {
  /** How long to keep collecting before the referent counts as leaked. */
  public static final long BOUND_SECONDS = 30;

  private Collected() {}

  /**
   * Runs the collector until {@code ref} is cleared (at least ten times before giving up, and
   * until {@link #BOUND_SECONDS} have passed).
   *
   * @return whether it was cleared: {@code false} means the referent is still strongly reachable
   * @throws InterruptedException if the waiting thread is interrupted (a test timeout)
   */
  public static boolean awaitCleared(Reference<?> ref) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    for (int round = 0; !ref.refersTo(null); round++) {
      if (round >= 10 && System.nanoTime() > deadline) {
        return false;
      }
      System.gc();
      Thread.sleep(Math.min(20L * (round + 1), 500)); // let other threads drop what they hold
    }
    return true;
  }
}
