package dev.sessionless.propagation;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that reads a pinned instant on the thread that pinned it, and the base clock
 * otherwise: the minter reads the time once, caps the lifetime against it, and the codec then
 * stamps {@code iat}/{@code exp} from the very same second, so a second ticking over in between
 * can never push a token past its parent's expiry.
 */
final class PinnedClock extends Clock {
  private final Clock base;
  private final ThreadLocal<long[]> pinned = new ThreadLocal<>();

  PinnedClock(Clock base) {
    this.base = base;
  }

  /** Pins {@code millis} on this thread until {@link #unpin()}. */
  void pin(long millis) {
    pinned.set(new long[] {millis});
  }

  void unpin() {
    pinned.remove();
  }

  @Override
  public long millis() {
    long[] p = pinned.get();
    return p != null ? p[0] : base.millis();
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
    throw new UnsupportedOperationException("a pinned clock has no zone to change");
  }
}
