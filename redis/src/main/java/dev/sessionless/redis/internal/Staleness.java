package dev.sessionless.redis.internal;

import dev.sessionless.core.TokenException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether {@code RedisRevocations}' local copy is stale: no read from Redis has succeeded
 * within the stale bound. Judged on the read path from the time of the last successful read
 * (one clock read and a comparison), so it holds even if the poller has died: an {@code Error}
 * ends a scheduled task for good, and a node that fails closed must not then stay open. The
 * stale state is logged once per spell, by whichever thread sees it first. Thread-safe.
 */
public final class Staleness {
  private static final System.Logger LOG = System.getLogger("dev.sessionless.redis.RedisRevocations");

  private final Clock clock;
  private final long boundMillis;
  private final boolean failClosed;
  private final AtomicLong syncs = new AtomicLong();
  /** When the last read from Redis succeeded, by {@link #clock}. */
  private volatile long lastSyncMillis;
  private final AtomicBoolean reported = new AtomicBoolean();

  /** Staleness past {@code bound} by {@code clock}; {@code failClosed} makes {@link #check} throw then. */
  public Staleness(Clock clock, Duration bound, boolean failClosed) {
    this.clock = clock;
    this.boundMillis = bound.toMillis();
    this.failClosed = failClosed;
  }

  /** Records a successful read, now. */
  public void synced() {
    lastSyncMillis = clock.millis();
    syncs.incrementAndGet();
  }

  /** How many reads succeeded. */
  public long syncCount() {
    return syncs.get();
  }

  /** Whether no read has succeeded within the bound, judged now. */
  public boolean isStale() {
    return clock.millis() - lastSyncMillis > boundMillis;
  }

  /** When the last read succeeded. */
  public Instant lastSync() {
    return Instant.ofEpochMilli(lastSyncMillis);
  }

  /**
   * The read path's check: logs a stale copy once and, failing closed, refuses.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the copy is stale and the node
   *     fails closed
   */
  public void check() {
    if (isStale()) {
      report(null);
      if (failClosed) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "no revocations could be read from"
            + " Redis since " + lastSync() + " (stale bound " + Duration.ofMillis(boundMillis) + "): check Redis;"
            + " this node fails closed by configuration");
      }
    }
  }

  /** After a poll that read Redis: ends a stale spell, saying so. */
  public void pollSucceeded() {
    if (reported.getAndSet(false)) {
      LOG.log(System.Logger.Level.WARNING, "revocations are read from Redis again; the copy is fresh");
    }
  }

  /** After a poll that failed with {@code e}: a warning, or the stale report if the bound has passed. */
  public void pollFailed(RuntimeException e) {
    if (isStale()) {
      report(e);
    } else {
      LOG.log(System.Logger.Level.WARNING, "reading revocations from Redis failed (" + e.getClass().getSimpleName()
          + "): this node keeps its copy and tries again at the next poll");
    }
  }

  /** Logs, once per stale spell, that the copy went stale; {@code cause} is the poller's last error, if any. */
  private void report(RuntimeException cause) {
    if (reported.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.ERROR, "no revocations could be read from Redis since " + lastSync()
          + ", longer than the stale bound: " + (failClosed
              ? "every revocation check now fails with REVOCATION_UNAVAILABLE (FAIL_CLOSED) until a read succeeds"
              : "this node keeps answering from its last copy (FAIL_OPEN)")
          + (cause == null ? "; the poller has not read Redis (see its earlier warnings, or it has stopped)"
              : "; last error " + cause.getClass().getSimpleName()));
    }
  }
}
