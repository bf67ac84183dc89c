package dev.sessionless.core.internal;

import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Counts rejected tokens per second of the codec's clock and, when a second ends with at least
 * {@link #THRESHOLD} rejections, records one JFR event {@code dev.sessionless.RejectionBurst}
 * (disabled by default; enable it in a recording). Runs on the rejection path only: an accepted
 * token never touches it.
 */
public final class RejectionBursts {
  /** Rejections in one second that make a burst. */
  public static final int THRESHOLD = 100;

  /** The JFR event: many tokens rejected within one second (forged cookies, a key withdrawn too early). */
  @Name("dev.sessionless.RejectionBurst")
  @Label("Token Rejection Burst")
  @Category({"Sessionless", "Tokens"})
  @Description("At least 100 tokens rejected by one codec within one second")
  @Enabled(false)
  @StackTrace(false)
  public static final class BurstEvent extends Event {
    @Label("Second")
    @Description("The second (epoch seconds, codec clock) the rejections fell in")
    long epochSecond;

    @Label("Rejections")
    long rejections;
  }

  // Upper 34 bits: the second; lower 30 bits: the count within it. One CAS per rejection.
  private final AtomicLong window = new AtomicLong();

  /** Counts one rejection at {@code epochSecond}; records the previous second if it was a burst. */
  public void rejected(long epochSecond) {
    while (true) {
      long w = window.get();
      long second = w >>> 30;
      long count = w & ((1L << 30) - 1);
      long next = second == epochSecond ? (count == (1L << 30) - 1 ? w : w + 1) : (epochSecond << 30) | 1;
      if (window.compareAndSet(w, next)) {
        if (second != epochSecond && count >= THRESHOLD) {
          record(second, count);
        }
        return;
      }
    }
  }

  private static void record(long second, long count) {
    BurstEvent e = new BurstEvent();
    if (e.isEnabled()) {
      e.epochSecond = second;
      e.rejections = count;
      e.commit();
    }
  }
}
