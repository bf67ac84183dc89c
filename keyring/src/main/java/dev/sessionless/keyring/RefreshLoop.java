package dev.sessionless.keyring;

import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.GuardedLogger;
import dev.sessionless.keyring.internal.KeyringEvents;
import dev.sessionless.keyring.internal.RefreshScheduler;
import dev.sessionless.keyring.internal.Source;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Keyring}'s checks of its sources: the first load in {@code build()}, then each source's
 * chain of checks on the refresh scheduler, the early checks a token with an unknown kid asks for,
 * the count of unexpected refresh errors, and {@link #close()}. Separate from {@link Keyring} so
 * that the public class holds its API and the rule that nothing ends a source's chain of checks
 * stands in one place.
 */
final class RefreshLoop {
  private static final System.Logger LOG = System.getLogger(Keyring.class.getName());
  /** When to check again after an unexpected refresh error left no planned delay. */
  private static final Duration RETRY_AFTER_ERROR = Duration.ofSeconds(5);

  private final List<Source> sources;
  private final Clock clock;
  private final long unknownKeyIntervalMillis;
  private final boolean anyChecksOnUnknownKey;
  private final RefreshScheduler scheduler;
  private final AtomicLong lastUnknownKeyCheck = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong refreshErrors = new AtomicLong();
  private final System.Logger log = new GuardedLogger(LOG, this::loggerFailed);
  // Kinds of unexpected refresh errors already logged at ERROR; refresh thread only.
  private final Set<String> refreshErrorKinds = new HashSet<>();
  private final KeyringEvents events;
  private final SnapshotPublisher published;
  private volatile boolean closed;

  RefreshLoop(List<Source> sources, Clock clock, Duration unknownKeyInterval, RefreshScheduler scheduler,
      KeyUsage usage, KeyringEvents events) {
    this.sources = sources;
    this.clock = clock;
    this.unknownKeyIntervalMillis = unknownKeyInterval.toMillis();
    this.anyChecksOnUnknownKey = sources.stream().anyMatch(Source::checksOnUnknownKey);
    this.scheduler = scheduler;
    this.events = events;
    this.published = new SnapshotPublisher(sources, log, usage, events);
  }

  /** Where the checks publish the keys in force. */
  SnapshotPublisher published() {
    return published;
  }

  /** Unexpected failures of the refresh itself, and of the log back end; see {@link KeyringStatus#refreshErrors()}. */
  long refreshErrors() {
    return refreshErrors.get();
  }

  /** Whether {@link #close()} was called. */
  boolean closed() {
    return closed;
  }

  /** One check of one source, reported to the listener and to JFR. */
  private Duration check(Source s) {
    jdk.jfr.Event e = events.begin(s);
    Duration next = s.check(clock.instant(), log);
    events.checked(s, e);
    return next;
  }

  /** Loads every source once, on the caller's thread, then hands the checks to the refresh thread. */
  void start() {
    boolean startsEmpty = false;
    for (Source s : sources) {
      check(s);
      Source.State st = s.state();
      if (st.lastSuccess == null) {
        if (!s.mayStartEmpty()) {
          close();
          throw new KeyringException(st.lastFailureReason,
              "could not load keys from " + s.describe() + ": " + st.lastFailure);
        }
        startsEmpty = true;
      }
    }
    published.publish();
    if (published.current().keys().isEmpty()) {
      if (!startsEmpty) {
        close();
        throw new KeyringException(Reason.CONFIGURATION, "the configured sources hold no keys");
      }
      log.log(Level.WARNING, "*** keyring started WITHOUT keys: every token is rejected and nothing can "
          + "be signed until a source answers; retrying in the background ***");
    }
    for (Source s : sources) {
      scheduler.schedule(() -> run(s), s.state().nextCheckDelay);
    }
    log.log(Level.INFO, "keyring started with {0} key(s) from {1} source(s): {2}",
        published.current().keys().size(), sources.size(), SnapshotPublisher.kids(published.current()));
  }

  /**
   * One check of one source, then the next one scheduled — whatever happened in between: an
   * unexpected exception or error (a bug, a logger that throws) is counted and logged, and never
   * ends the source's chain of checks.
   */
  private void run(Source s) {
    if (closed) {
      return;
    }
    Duration next = null;
    try {
      next = check(s);
      published.publish();
    } catch (RuntimeException | Error e) {
      refreshFailed(s, e);
    }
    if (next == null) {
      Duration planned = s.state().nextCheckDelay;
      next = planned == null || planned.isZero() ? RETRY_AFTER_ERROR : planned;
    }
    Duration delay = next;
    if (!closed) {
      scheduler.schedule(() -> run(s), delay);
    }
  }

  /**
   * A token named an unknown kid: checks the HTTP sources early, on the refresh thread, at most
   * once per unknown-key refresh interval; see {@link Keyring#unknownKeyId(String)}.
   */
  void unknownKeyId() {
    if (closed || !anyChecksOnUnknownKey) {
      return;
    }
    long now = clock.millis();
    long last = lastUnknownKeyCheck.get();
    if (last != Long.MIN_VALUE && now - last < unknownKeyIntervalMillis && now >= last) {
      return;
    }
    if (!lastUnknownKeyCheck.compareAndSet(last, now)) {
      return; // another thread won the race and asks for the check
    }
    scheduler.execute(() -> {
      if (closed) {
        return;
      }
      try {
        for (Source s : sources) {
          if (s.checksOnUnknownKey()) {
            check(s);
          }
        }
        published.publish();
      } catch (RuntimeException | Error e) {
        refreshFailed(null, e);
      }
    });
  }

  /** An unexpected failure of the refresh itself (not a source's failure): counted, logged once per kind. */
  private void refreshFailed(Source s, Throwable e) {
    refreshErrors.incrementAndGet();
    // The message may quote content: log the type only.
    String kind = e.getClass().getName();
    log.log(refreshErrorKinds.add(kind) ? Level.ERROR : Level.DEBUG, "unexpected {0} while refreshing {1}; the "
        + "keys in force stay as they were and the next check is scheduled as usual", kind,
        s == null ? "the keys" : s.describe());
  }

  /** The log back end threw: count it (it cannot be logged). */
  private void loggerFailed(Throwable e) {
    refreshErrors.incrementAndGet();
  }

  /** Stops the checks (interrupting one in progress) and closes the sources; idempotent. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    scheduler.shutdown();
    for (Source s : sources) {
      s.close();
    }
  }
}
