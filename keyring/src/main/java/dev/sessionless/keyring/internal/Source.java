package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import java.time.Duration;
import java.time.Instant;

/**
 * One place keys come from. Every method but the status getters runs on the keyring's single
 * refresh thread (or in {@code build()}, before that thread starts), so implementations need no
 * locking for their own fields; status fields are volatile so {@code status()} can read them.
 */
public abstract class Source {
  private volatile KeySet keys = KeySet.empty();
  private volatile Instant lastSuccess;
  private volatile String lastFailure;
  private volatile KeyringException.Reason lastFailureReason;
  private volatile long failures;
  private volatile long checks;
  private int failuresInARow;

  /** Where the keys come from, for logs and status: a path, a variable name or a redacted URL. */
  public abstract String describe();

  /**
   * Loads or re-checks the keys.
   *
   * @param now the keyring clock's current instant
   * @return the keys now, or {@code null} when they are known to be unchanged
   * @throws KeyringException when the source cannot be read or its content is not a key set
   */
  protected abstract KeySet load(Instant now);

  /** How long after a successful check the next one runs. */
  protected abstract Duration nextCheckAfterSuccess();

  /** How long after the {@code n}-th failure in a row the next attempt runs. */
  protected abstract Duration nextCheckAfterFailure(int n);

  /**
   * Whether this source's keys, last loaded at {@code lastSuccess}, are too old to serve at
   * {@code now} while the source keeps failing. Local sources never go stale.
   */
  protected boolean tooStale(Instant lastSuccess, Instant now) {
    return false;
  }

  /** Whether a token naming an unknown key should make this source check early. */
  public boolean checksOnUnknownKey() {
    return false;
  }

  /** Runs one check; returns the delay until the next. Never throws. */
  public final Duration check(Instant now, System.Logger log) {
    checks++;
    try {
      KeySet loaded = load(now);
      if (loaded != null) {
        keys = loaded;
      }
      lastSuccess = now;
      failuresInARow = 0;
      return nextCheckAfterSuccess();
    } catch (KeyringException e) {
      failures++;
      failuresInARow++;
      lastFailure = e.reason() + ": " + e.getMessage();
      lastFailureReason = e.reason();
      if (lastSuccess != null && !keys.keys().isEmpty() && tooStale(lastSuccess, now)) {
        keys = KeySet.empty();
        log.log(System.Logger.Level.ERROR, "{0}: no good keys since {1}, past the stale bound; its keys are "
            + "dropped and tokens under them are now rejected ({2})", describe(), lastSuccess, lastFailure);
      } else {
        log.log(System.Logger.Level.WARNING, "{0}: check failed, keeping the last good keys ({1})",
            describe(), lastFailure);
      }
      return nextCheckAfterFailure(failuresInARow);
    } catch (RuntimeException e) {
      failures++;
      failuresInARow++;
      lastFailure = "UNEXPECTED: " + e.getClass().getName();
      lastFailureReason = KeyringException.Reason.MALFORMED;
      log.log(System.Logger.Level.WARNING, "{0}: check failed unexpectedly, keeping the last good keys ({1})",
          describe(), e.getClass().getName());
      return nextCheckAfterFailure(failuresInARow);
    }
  }

  /** The last good keys (empty before the first success or after being dropped as stale). */
  public final KeySet keys() {
    return keys;
  }

  /** When the last check succeeded, or {@code null}. */
  public final Instant lastSuccess() {
    return lastSuccess;
  }

  /** The reason and message of the last failure, or {@code null}; never key material. */
  public final String lastFailure() {
    return lastFailure;
  }

  /** The reason of the last failure, or {@code null}. */
  public final KeyringException.Reason lastFailureReason() {
    return lastFailureReason;
  }

  /** Failed checks since the start. */
  public final long failures() {
    return failures;
  }

  /** Checks since the start, failed or not. */
  public final long checks() {
    return checks;
  }
}
