package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What the session engine tells operators, on the adapter's {@code System.Logger} (the servlet
 * filter's {@value #LOGGER} unless the adapter names its own), without flooding the log when
 * every request has the same problem:
 *
 * <ul>
 *   <li>rejected tokens: one DEBUG line per request, and once a minute a summary with the count
 *       per reason (WARNING, or INFO when every rejection of that minute was an expired token,
 *       which is normal for returning users);
 *   <li>internal failures and attributes that no longer read back: the first occurrence of each
 *       cause in full, then at most one line per cause per minute with how often it happened.
 * </ul>
 *
 * <p>No time passes inside: the clock is read when something happens (and once per request by
 * {@link #tick()}), so no thread is needed. Never logs a token or an attribute value. Thread-safe;
 * nothing is logged holding its lock (a log handler may write to a file or the network).
 */
public final class FilterLog {
  /** The servlet filter's logger name, the default. */
  public static final String LOGGER = "dev.sessionless.servlet.SessionlessFilter";
  /** How long a summary window lasts, in milliseconds. */
  static final long WINDOW_MILLIS = 60_000;
  /** Distinct causes remembered; beyond this, new causes share one bucket. */
  static final int MAX_CAUSES = 64;

  /** Repeated occurrences of one cause. */
  private static final class Repeats {
    final Level level;
    final String what;
    long windowStart;
    long count;

    Repeats(Level level, String what, long windowStart) {
      this.level = level;
      this.what = what;
      this.windowStart = windowStart;
    }
  }

  private final Clock clock;
  private final System.Logger log;
  private final Map<TokenException.Reason, Long> rejections = new EnumMap<>(TokenException.Reason.class);
  private final Map<String, Repeats> causes = new LinkedHashMap<>();
  private long rejectionWindowStart;
  /** Earliest time anything may be due; read per request without the lock. */
  private volatile long nextDue = Long.MAX_VALUE;

  /** A log on the servlet filter's logger whose minutes follow {@code clock}. */
  public FilterLog(Clock clock) {
    this(clock, System.getLogger(LOGGER));
  }

  /** A log on {@code log} whose minutes follow {@code clock}. */
  public FilterLog(Clock clock, System.Logger log) {
    this.clock = clock;
    this.log = log;
  }

  /** A token was rejected: counted for the minute's summary. */
  public void rejected(TokenException.Reason reason) {
    log.log(Level.DEBUG, "session token rejected ({0}); starting a fresh session", reason);
    long now = clock.millis();
    List<Line> due;
    synchronized (this) {
      due = flush(now);
      if (rejections.isEmpty()) {
        rejectionWindowStart = now;
        due(now + WINDOW_MILLIS);
      }
      rejections.merge(reason, 1L, Long::sum);
    }
    write(due);
  }

  /**
   * A server-side failure while reading a session token: logged at ERROR with its stack trace
   * the first time, then counted.
   */
  void internalFailure(Throwable failure) {
    String key = failure.getClass().getName()
        + (failure instanceof TokenException ? "/" + ((TokenException) failure).reason() : "")
        + "@" + origin(failure);
    if (Outages.isOutage(failure)) {
      occurred(Level.ERROR, key, (key.contains("/KEY_SOURCE_UNAVAILABLE@")
          ? "the key source cannot vouch for the token's key (a JWKS URL down past its stale bound):"
          : "the revocation source cannot answer (a store down past its stale bound):")
          + " requests that need the session answer 503 until it recovers", failure);
      return;
    }
    occurred(Level.ERROR, key, "a session token could not be read because of a failure on this server"
        + " (not the client's token): requests that need the session answer 500 until it is fixed", failure);
  }

  /**
   * The application changed the session after the response committed, so the change was not
   * sent: logged at WARNING once per kind of change, then counted. {@code what} is {@code
   * attribute}, {@code in-place} or {@code invalidate}.
   */
  void changeDropped(String what) {
    occurred(Level.WARNING, "after-commit:" + what, "a session change (" + what + ") was made after the"
        + " response committed, so the client never received it and the change is lost: change the session"
        + " before writing the body, flushing, redirecting or sending an error, or give the response a larger"
        + " buffer", null);
  }

  /**
   * A stored attribute no longer reads back as its recorded type: logged at WARNING with its
   * name and type, never its value.
   */
  void badAttribute(String name, String typeName, String problem, String action) {
    occurred(Level.WARNING, "attribute:" + name + ":" + typeName + ":" + action,
        "session attribute '" + name + "' (recorded type " + typeName + ") " + problem + ": " + action, null);
  }

  private void occurred(Level level, String key, String what, Throwable failure) {
    long now = clock.millis();
    boolean first;
    List<Line> due;
    synchronized (this) {
      due = flush(now);
      Repeats r = causes.get(key);
      if (r == null && causes.size() >= MAX_CAUSES) {
        key = "(other causes)";
        r = causes.get(key);
        what = "other failures (too many distinct causes to list)";
      }
      first = r == null;
      if (first) {
        causes.put(key, new Repeats(level, what, now));
        due(now + WINDOW_MILLIS);
      } else {
        r.count++;
      }
    }
    write(due);
    if (first) {
      if (failure != null) {
        log.log(level, what, failure);
      } else {
        log.log(level, what);
      }
    }
  }

  /** Writes any summary that is due; cheap when none is (one clock read, one volatile read). */
  public void tick() {
    if (nextDue == Long.MAX_VALUE) {
      return;
    }
    long now = clock.millis();
    if (now >= nextDue) {
      List<Line> due;
      synchronized (this) {
        due = flush(now);
      }
      write(due);
    }
  }

  private void due(long at) {
    if (at < nextDue) {
      nextDue = at;
    }
  }

  /** A summary line, written once the lock is released: a log handler may do I/O. */
  private static final class Line {
    final Level level;
    final String format;
    final Object[] args;

    Line(Level level, String format, Object... args) {
      this.level = level;
      this.format = format;
      this.args = args;
    }
  }

  private void write(List<Line> lines) {
    for (Line l : lines) {
      log.log(l.level, l.format, l.args);
    }
  }

  /** Holding the lock: resets every window that has ended, and returns its summary lines. */
  private List<Line> flush(long now) {
    if (now < nextDue) {
      return List.of();
    }
    List<Line> lines = new ArrayList<>(2);
    long next = Long.MAX_VALUE;
    if (!rejections.isEmpty()) {
      if (now - rejectionWindowStart >= WINDOW_MILLIS) {
        StringJoiner counts = new StringJoiner(", ");
        long total = 0;
        for (Map.Entry<TokenException.Reason, Long> e : rejections.entrySet()) {
          counts.add(e.getKey() + "=" + e.getValue());
          total += e.getValue();
        }
        boolean onlyExpired = rejections.size() == 1 && rejections.containsKey(TokenException.Reason.EXPIRED);
        lines.add(new Line(onlyExpired ? Level.INFO : Level.WARNING, "{0} session token(s) rejected in the last"
            + " {1} s (each request started a fresh session): {2}", total, (now - rejectionWindowStart) / 1000, counts));
        rejections.clear();
      } else {
        next = rejectionWindowStart + WINDOW_MILLIS;
      }
    }
    for (var it = causes.values().iterator(); it.hasNext(); ) {
      Repeats r = it.next();
      if (now - r.windowStart < WINDOW_MILLIS) {
        next = Math.min(next, r.windowStart + WINDOW_MILLIS);
        continue;
      }
      if (r.count == 0) {
        it.remove(); // quiet for a whole window: the next occurrence is logged in full again
        continue;
      }
      lines.add(new Line(r.level, "{0} more time(s) in the last {1} s: {2}", r.count, (now - r.windowStart) / 1000,
          r.what));
      r.count = 0;
      r.windowStart = now;
      next = Math.min(next, now + WINDOW_MILLIS);
    }
    nextDue = next;
    return lines;
  }

  /** Where a failure was thrown: the top frame of its innermost cause, or "?". */
  private static String origin(Throwable t) {
    Throwable root = t;
    for (int i = 0; i < 16 && root.getCause() != null; i++) {
      root = root.getCause();
    }
    StackTraceElement[] frames = root.getStackTrace();
    return root.getClass().getName() + (frames.length == 0 ? "" : "@" + frames[0]);
  }
}
