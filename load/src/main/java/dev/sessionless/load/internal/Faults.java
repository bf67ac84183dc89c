package dev.sessionless.load.internal;

import dev.sessionless.load.ClosedPhase;
import dev.sessionless.load.Injector;
import dev.sessionless.load.PhaseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Faults injected while a step runs: node {@link #NODE} is killed at 30% of the measured window
 * and a fresh one started on its port at 55%; the signing key rotates at 75% (Sessionless, on
 * servlets or WebFlux, only: the other systems have no key). Each fault is recorded with the second it happened.
 */
public final class Faults {
  /** The node that is killed and restarted. */
  public static final int NODE = 1;
  /** When node {@link #NODE} is killed: this share of the measured window (after the step's warm-up). */
  static final double KILL_AT = 0.30;
  /** When a fresh node {@link #NODE} starts on its port, with empty memory. */
  static final double RESTART_AT = 0.55;
  /** When the Sessionless nodes' signing key rotates. */
  static final double ROTATE_AT = 0.75;

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
    schedule(timer, start, from + (long) (KILL_AT * measured), events, "node " + NODE + " killed",
        () -> cluster.stopNode(NODE));
    schedule(timer, start, from + (long) (RESTART_AT * measured), events, "node " + NODE + " restarted (empty memory)",
        () -> cluster.restartNode(NODE));
    if (cluster.kind().tokens()) {
      schedule(timer, start, from + (long) (ROTATE_AT * measured), events,
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
   * The {@code faults} profile: each system in turn, {@code options.users} users for {@code
   * options.step} while the faults hit its cluster; then every user comes back once, untimed, so
   * a loss that no request saw during the step (a user thinking at the end) still counts.
   *
   * @param say receives one line as each system starts (the demo's progress), or null for none
   * @return per system, in the order of {@code shops}, its step's result and the faults that hit it
   */
  public static Map<String, Outcome<PhaseResult>> underLoad(Injector injector, Map<String, ShopWorkload> shops,
      Map<String, Cluster> clusters, Options options, Consumer<String> say) {
    Map<String, Outcome<PhaseResult>> outcomes = new LinkedHashMap<>();
    shops.forEach((system, shop) -> {
      if (say != null) {
        say.accept(FaultsReport.name(system) + ": " + options.users + " users shop for " + FaultsReport.seconds(options.step)
            + " while node " + NODE + " is killed and restarted" + (clusters.get(system).kind().tokens() ? " and the key rotates" : ""));
      }
      outcomes.put(system, during(clusters.get(system), options.step, options.warmup, options.keepOldKey,
          () -> injector.runClosed(system + " faults " + options.users + " users", shop,
              new ClosedPhase(options.users, options.think, options.step, options.thinkDistribution))));
      injector.revisit(shop.users());
    });
    return outcomes;
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
