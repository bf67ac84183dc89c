package dev.sessionless.load.internal;

import dev.sessionless.load.PhaseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Faults injected while a step runs: node {@link #NODE} is killed at 30% of the measured window
 * and a fresh one started on its port at 55%; the signing key rotates at 75% (Sessionless only:
 * the other systems have no key). Each fault is recorded with the second it happened.
 */
public final class Faults {
  /** The node that is killed and restarted. */
  public static final int NODE = 1;

  /** One fault, {@code atSeconds} after the step began. */
  public record Event(double atSeconds, String what) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.1fs %s", atSeconds, what);
    }
  }

  private Faults() {}

  /**
   * Runs {@code step} on this thread while the faults hit {@code cluster}.
   *
   * @param cluster the system under test
   * @param duration the step's length, warm-up included
   * @param warmup the step's discarded start: the faults fall in the measured window after it
   * @param keepOldKey whether the rotation keeps the old key for verification (a correct
   *     rotation); {@code false} drops it at once, a broken rotation
   * @param step runs the step
   * @return the step's result and the faults that happened
   */
  public static <T> Outcome<T> during(Cluster cluster, Duration duration, Duration warmup, boolean keepOldKey,
      Supplier<T> step) {
    List<Event> events = java.util.Collections.synchronizedList(new ArrayList<>());
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "load-faults");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    long measured = duration.minus(warmup).toNanos();
    long from = warmup.toNanos();
    schedule(timer, start, from + (long) (0.30 * measured), events, "node " + NODE + " killed",
        () -> cluster.stopNode(NODE));
    schedule(timer, start, from + (long) (0.55 * measured), events, "node " + NODE + " restarted (empty memory)",
        () -> cluster.restartNode(NODE));
    if (cluster.kind() == Cluster.Kind.SESSIONLESS) {
      schedule(timer, start, from + (long) (0.75 * measured), events,
          keepOldKey ? "signing key rotated (old key kept for verification)" : "signing key replaced (old key dropped)",
          () -> cluster.rotateKeys(keepOldKey));
    }
    try {
      T result = step.get();
      return new Outcome<>(result, List.copyOf(events));
    } finally {
      timer.shutdownNow();
      try {
        timer.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A step's result and the faults that hit it. */
  public record Outcome<T>(T result, List<Event> events) {}

  /**
   * The side-by-side Markdown table of a faults run: per system, journeys completed, carts and
   * sessions lost, requests failed, p50/p99 and the largest Cookie header, then the faults' times.
   */
  public static String table(Map<String, Outcome<PhaseResult>> outcomes, Map<String, ShopWorkload> shops, int users,
      Duration think, int nodes) {
    int onNode = 0;
    for (int id = 0; id < users; id++) {
      onNode += id % nodes == NODE ? 1 : 0;
    }
    StringBuilder md = new StringBuilder();
    md.append("## Faults under load: node ").append(NODE).append(" killed and restarted, key rotated\n\n")
        .append(users).append(" users per system, think time ").append(think.toMillis())
        .append(" ms; the session-sticky users on the killed node are ").append(onNode).append(".\n\n")
        .append("| system | journeys completed | carts lost | sessions lost | requests failed | p50 | p99 | largest Cookie header |\n")
        .append("|---|---|---|---|---|---|---|---|\n");
    outcomes.forEach((system, o) -> {
      ShopWorkload shop = shops.get(system);
      PhaseResult r = o.result();
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %s | %s | %d bytes |%n", system,
          shop.journeysCompleted(), shop.cartsLost(), shop.sessionsLost(), r.errors(), ReportText.ms(r.p50()), ReportText.ms(r.p99()),
          shop.maxCookieBytes()));
    });
    md.append('\n');
    outcomes.forEach((system, o) -> md.append("- ").append(system).append(": ")
        .append(String.join(", ", o.events().stream().map(Event::toString).toList())).append('\n'));
    return md.append('\n').toString();
  }

  private static void schedule(ScheduledExecutorService timer, long start, long atNanos, List<Event> events,
      String what, Runnable fault) {
    timer.schedule(() -> {
      try {
        fault.run();
        events.add(new Event((System.nanoTime() - start) / 1e9, what));
      } catch (RuntimeException e) {
        events.add(new Event((System.nanoTime() - start) / 1e9, what + " FAILED: " + e.getMessage()));
      }
    }, Math.max(0, atNanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
  }
}
