package dev.sessionless.testing;

import java.util.concurrent.TimeUnit;

/**
 * Ending a child process the tests or the load tool started (a {@code redis-server}, an HAProxy):
 * the one rule both follow, so that neither leaves a process behind.
 */
public final class ChildProcesses {
  private ChildProcesses() {}

  /**
   * Stops {@code process} (TERM, then KILL after five seconds), waits for it, and removes {@code
   * shutdownHook} (the hook that would have killed it at JVM exit), if the JVM is not already
   * exiting. An interrupt while waiting kills the process at once and keeps the interrupt flag.
   */
  public static void stop(Process process, Thread shutdownHook) {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or will, on a process that has ended
    }
  }
}
