package dev.sessionless.keyring.live;

import dev.sessionless.keyring.internal.RefreshScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * A refresh scheduler that follows a fake clock: tasks run on the test's thread when the test
 * calls {@link #runDue()} and their time has come, earliest first (submission order on ties).
 * Not thread-safe: for single-threaded simulations.
 */
final class FakeScheduler implements RefreshScheduler {
  private static final class Task {
    final Instant due;
    final long seq;
    final Runnable run;

    Task(Instant due, long seq, Runnable run) {
      this.due = due;
      this.seq = seq;
      this.run = run;
    }
  }

  private final Clock clock;
  private final PriorityQueue<Task> queue = new PriorityQueue<>(
      Comparator.comparing((Task t) -> t.due).thenComparingLong(t -> t.seq));
  private long seq;
  private boolean shutdown;
  int ran;

  FakeScheduler(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void schedule(Runnable task, Duration delay) {
    if (!shutdown) {
      queue.add(new Task(clock.instant().plus(delay), seq++, task));
    }
  }

  @Override
  public void execute(Runnable task) {
    schedule(task, Duration.ZERO);
  }

  @Override
  public void shutdown() {
    shutdown = true;
    queue.clear();
  }

  /** Runs every task whose time has come, including ones they schedule for now. */
  void runDue() {
    Instant now = clock.instant();
    while (!queue.isEmpty() && !queue.peek().due.isAfter(now)) {
      queue.poll().run.run();
      ran++;
    }
  }
}
