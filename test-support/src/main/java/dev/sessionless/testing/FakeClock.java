package dev.sessionless.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

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
