package dev.sessionless.load;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * How the {@link Injector} watches itself and reports a step: its own CPU, the progress line,
 * the pacing of sends, and the figures read from a step's histogram.
 */
final class InjectorWatch {
  private InjectorWatch() {}

  /** Adds a note when the injector's threads used most of the machine; true when it did. */
  static boolean cpuNote(double cpu, List<String> notes) {
    int cores = Runtime.getRuntime().availableProcessors();
    if (cpu > 0.8 * cores) {
      notes.add(String.format(Locale.ROOT, "the injector's own threads used %.2f of %d cores: it is"
          + " CPU-bound, so the system under test was not the only limit", cpu, cores));
      return true;
    }
    return false;
  }

  /** A step's figures from its histogram (microseconds in, milliseconds out). */
  static PhaseResult result(String label, double target, int users, double seconds, long completed,
      long errors, long late, long dropped, Histogram h, double cpu, boolean saturated, List<String> notes) {
    boolean empty = h.getTotalCount() == 0;
    return new PhaseResult(label, target, users, seconds, completed, errors, late, dropped,
        completed / seconds,
        empty ? Double.NaN : h.getValueAtPercentile(50) / 1000.0,
        empty ? Double.NaN : h.getValueAtPercentile(90) / 1000.0,
        empty ? Double.NaN : h.getValueAtPercentile(99) / 1000.0,
        empty ? Double.NaN : h.getValueAtPercentile(99.9) / 1000.0,
        empty ? Double.NaN : h.getMaxValue() / 1000.0,
        cpu, saturated, notes);
  }

  /** Prints a progress line a second on {@code progress} (none when it is null) until cancelled. */
  static ScheduledFuture<?> progress(ScheduledExecutorService ticker, Consumer<String> progress, String label,
      long start, Recorder live, double target) {
    if (progress == null) {
      return ticker.schedule(() -> { }, 0, TimeUnit.SECONDS);
    }
    Histogram[] recycle = {null};
    long[] last = {System.nanoTime()};
    return ticker.scheduleAtFixedRate(() -> {
      Histogram h = live.getIntervalHistogram(recycle[0]);
      recycle[0] = h;
      long now = System.nanoTime();
      double rate = h.getTotalCount() / ((now - last[0]) / 1e9);
      last[0] = now;
      progress.accept(String.format(Locale.ROOT, "%s  %5.1fs  %8.0f req/s%s  p99 %8.2f ms",
          label, (now - start) / 1e9, rate,
          Double.isNaN(target) ? "" : String.format(Locale.ROOT, " (target %.0f)", target),
          h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0));
    }, 1, 1, TimeUnit.SECONDS);
  }

  /** Parks, then spins, until {@code deadline} on the {@link System#nanoTime()} clock. */
  static void waitUntil(long deadline) {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      if (left > 200_000) {
        LockSupport.parkNanos(left - 100_000);
      } else {
        Thread.onSpinWait();
      }
    }
  }

  /** CPU time of the injector's threads and the HTTP client's selector, in nanoseconds. */
  static long cpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (!mx.isThreadCpuTimeSupported()) {
      return 0;
    }
    long total = 0;
    for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      String name = info.getThreadName();
      if (name.startsWith(Injector.THREAD_PREFIX) || name.startsWith("HttpClient-")) {
        long t = mx.getThreadCpuTime(info.getThreadId());
        if (t > 0) {
          total += t;
        }
      }
    }
    return total;
  }
}
