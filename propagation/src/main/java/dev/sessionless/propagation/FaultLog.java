package dev.sessionless.propagation;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logs a fault on this side (a bug, never the caller's bad input) at ERROR with its stack
 * trace once per cause: the exception's class and the place it was thrown. A bug hit on every
 * request then shows once, not once a request; later hits of a known cause go to DEBUG. At
 * most {@value #MAX_CAUSES} causes are remembered; past them, every fault logs at ERROR
 * without its stack trace.
 */
final class FaultLog {
  static final int MAX_CAUSES = 256;
  private final System.Logger log;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  FaultLog(System.Logger log) {
    this.log = log;
  }

  /**
   * Logs {@code e}.
   *
   * @return whether this was the first report of its cause (logged with its stack trace)
   */
  boolean report(Throwable e) {
    StackTraceElement[] frames = e.getStackTrace();
    String cause = e.getClass().getName() + "@" + (frames.length > 0 ? frames[0] : "?");
    if (seen.contains(cause)) {
      log.log(System.Logger.Level.DEBUG, "a fault on this side again: {0}", cause);
      return false;
    }
    if (seen.size() >= MAX_CAUSES) {
      log.log(System.Logger.Level.ERROR, "a fault on this side (a bug; too many causes to track): {0}", cause);
      return false;
    }
    if (!seen.add(cause)) {
      return false;
    }
    log.log(System.Logger.Level.ERROR, "a fault on this side (a bug; logged once for this cause: " + cause + ")", e);
    return true;
  }
}
