package dev.sessionless.load.internal;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Warms up until the JIT has settled: runs rounds of warm-up load (every system in turn) until
 * the JIT compilers spent less than {@link #SETTLED_SHARE} of a round's time compiling in
 * {@link #QUIET_ROUNDS} rounds in a row, or a time limit is reached.
 *
 * <p>Why: all the systems under test share one JVM. A fixed warm-up left the compilers busy well
 * into the measured steps (on two cores, C2 took ~16% of the machine during the Sessionless steps
 * after a 10 s warm-up), and switching from one system to the next made shared code (Jetty's
 * handlers and parser) deoptimise and compile again. Rounds that alternate the systems let those
 * call sites become polymorphic once, before anything is measured, so no system pays for the
 * other's profile in its steps.
 */
public final class JitSettling {
  /** A round counts as settled when compiling took less than this share of its wall time. */
  public static final double SETTLED_SHARE = 0.02;
  /** Quiet rounds in a row that count as settled (one quiet round can fall between two bursts). */
  public static final int QUIET_ROUNDS = 2;

  /**
   * What the settling did.
   *
   * @param rounds warm-up rounds run
   * @param spent wall time of those rounds
   * @param lastShare compile time over wall time in the last round ({@code NaN} when no round
   *     ran or the JVM does not report compile time)
   * @param settled whether the last {@link #QUIET_ROUNDS} rounds were below {@link #SETTLED_SHARE}
   */
  public record Outcome(int rounds, Duration spent, double lastShare, boolean settled) {
    /** One line for the report, e.g. {@code JIT settled after 7 warm-up rounds (41 s): 0.8% of the last round compiling}. */
    public String describe() {
      if (rounds == 0) {
        return "JIT settling off";
      }
      if (Double.isNaN(lastShare)) {
        return String.format(Locale.ROOT, "%d warm-up %s (%d s); this JVM does not report compile time",
            rounds, rounds == 1 ? "round" : "rounds", spent.toSeconds());
      }
      return String.format(Locale.ROOT, "JIT %s after %d warm-up %s (%d s): %.1f%% of the last round compiling",
          settled ? "settled" : "still compiling at the limit", rounds, rounds == 1 ? "round" : "rounds",
          spent.toSeconds(), 100 * lastShare);
    }
  }

  private JitSettling() {}

  /** The JVM's accumulated compile time in ms, summed over compiler threads, if it reports one. */
  public static Supplier<OptionalLong> jvmCompileMillis() {
    CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
    if (bean == null || !bean.isCompilationTimeMonitoringSupported()) {
      return OptionalLong::empty;
    }
    return () -> OptionalLong.of(bean.getTotalCompilationTime());
  }

  /**
   * Runs {@code round} until {@link #QUIET_ROUNDS} rounds in a row compile less than {@link
   * #SETTLED_SHARE} of their time, or the rounds so far have taken {@code limit}; at least one
   * round unless {@code limit} is zero.
   *
   * @param limit the most time to spend (zero: run nothing)
   * @param round one round of warm-up load
   * @param compileMillis the compile-time counter ({@link #jvmCompileMillis()})
   * @param nanoTime the clock
   * @param progress receives a line per round
   * @return what happened
   */
  public static Outcome run(Duration limit, Runnable round, Supplier<OptionalLong> compileMillis,
      LongSupplier nanoTime, Consumer<String> progress) {
    if (limit.isZero() || limit.isNegative()) {
      return new Outcome(0, Duration.ZERO, Double.NaN, false);
    }
    long start = nanoTime.getAsLong();
    int rounds = 0;
    int quiet = 0;
    double share = Double.NaN;
    while (true) {
      OptionalLong c0 = compileMillis.get();
      long t0 = nanoTime.getAsLong();
      round.run();
      long t1 = nanoTime.getAsLong();
      OptionalLong c1 = compileMillis.get();
      rounds++;
      if (c0.isEmpty() || c1.isEmpty()) {
        return new Outcome(rounds, Duration.ofNanos(t1 - start), Double.NaN, false);
      }
      share = (c1.getAsLong() - c0.getAsLong()) / Math.max(1e-3, (t1 - t0) / 1e6);
      quiet = share < SETTLED_SHARE ? quiet + 1 : 0;
      boolean settled = quiet >= QUIET_ROUNDS;
      progress.accept(String.format(Locale.ROOT, "JIT settling: round %d, %.1f%% compiling%s", rounds, 100 * share,
          settled ? " (settled)" : quiet > 0 ? " (quiet)" : ""));
      if (settled || t1 - start >= limit.toNanos()) {
        return new Outcome(rounds, Duration.ofNanos(t1 - start), share, settled);
      }
    }
  }
}
