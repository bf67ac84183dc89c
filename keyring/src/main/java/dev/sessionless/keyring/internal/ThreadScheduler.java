package dev.sessionless.keyring.internal;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The production {@link RefreshScheduler}: a single-thread scheduled executor whose one daemon
 * thread is named {@code sessionless-keyring-N} (N counts keyrings in this JVM).
 */
public final class ThreadScheduler implements RefreshScheduler {
  /** The prefix of every refresh thread's name. */
  public static final String THREAD_NAME_PREFIX = "sessionless-keyring-";
  private static final AtomicInteger COUNT = new AtomicInteger();

  private final ScheduledThreadPoolExecutor executor;

  /** A scheduler with its own thread, started lazily by the first task. */
  public ThreadScheduler() {
    String name = THREAD_NAME_PREFIX + COUNT.incrementAndGet();
    executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
  }

  @Override
  public void schedule(Runnable task, Duration delay) {
    try {
      executor.schedule(task, Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // shut down meanwhile: nothing more runs
    }
  }

  @Override
  public void execute(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      // shut down meanwhile: nothing more runs
    }
  }

  @Override
  public void shutdown() {
    executor.shutdownNow();
  }
}
