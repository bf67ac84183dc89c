package dev.sessionless.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * A clock tests move by hand, in UTC; never sleeps. Safe to read from other threads (a
 * keyring's refresh thread, a container's request threads) while a test moves it.
 */
public final class FakeClock extends Clock {
  private volatile Instant now;

  /** A clock standing at {@code start}. */
  public FakeClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward (or back, for a negative duration). */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    now = instant;
  }

  /**
   * A clock that reads this one, except that a read of its {@link Clock#millis()} for which
   * {@code failure} answers an exception throws that exception instead, as a clock backed by a
   * time service that just went away would. Its {@link Clock#instant()} reads its own {@code
   * millis()}, so {@code failure} sees every read, from a caller of either method.
   *
   * @param failure asked on every read; answers the exception to throw, or {@code null} to read
   *     the time
   */
  public Clock failingWhen(Supplier<? extends RuntimeException> failure) {
    FakeClock time = this;
    // What every java.time.Clock must implement, like the other clocks here; there is nothing to share.
    return new Clock() {
      @Override
      public long millis() {
        RuntimeException e = failure.get();
        if (e != null) {
          throw e;
        }
        return time.millis();
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis());
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }
    };
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public long millis() {
    return now.toEpochMilli();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
