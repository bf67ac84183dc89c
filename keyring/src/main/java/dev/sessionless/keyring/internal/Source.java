package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import dev.sessionless.core.TokenKey;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Objects;

/**
 * One place keys come from. {@link #check} and {@link #load} run on the keyring's single refresh
 * thread only (or in {@code build()}, before that thread gets any work), so implementations need
 * no locking for their own fields. What other threads read — the keys and the status — is one
 * immutable {@link State} behind a volatile reference, so a reader always sees a consistent one.
 */
public abstract class Source {
  private volatile State state = State.INITIAL;
  private VerifyOnly verifyOnly;
  private String lastDropNote = "";

  /**
   * Makes this source verify-only: its keys never sign, never override a local source's key,
   * lose their private parts, and secret keys are dropped unless {@code policy} accepts them.
   * Called once, before the first check.
   */
  public final void verifyOnly(VerifyOnly policy) {
    this.verifyOnly = policy;
  }

  /** Whether this source is verify-only. */
  public final boolean isVerifyOnly() {
    return verifyOnly != null;
  }

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

  /** How long after the {@code n}-th failure in a row the next attempt runs; by default as after a success. */
  protected Duration nextCheckAfterFailure(int n) {
    return nextCheckAfterSuccess();
  }

  /**
   * Whether this source's keys, last loaded at {@code lastSuccess}, are too old to serve at
   * {@code now} while the source keeps failing. Local sources never go stale.
   */
  protected boolean tooStale(Instant lastSuccess, Instant now) {
    return false;
  }

  /**
   * Keys of the document last loaded that were skipped as unusable (kid, why); only sources that
   * read other parties' documents skip any.
   */
  protected Map<String, String> skippedKeys() {
    return Map.of();
  }

  /** Whether a token naming an unknown key should make this source check early. */
  public boolean checksOnUnknownKey() {
    return false;
  }

  /** Whether {@code build()} may go on when this source fails at start (it keeps trying). */
  public boolean mayStartEmpty() {
    return false;
  }

  /** Whether the source is checked again after its first load (files and URLs are; fixed keys are not). */
  protected boolean rechecks() {
    return true;
  }

  /** Releases what the source holds (a connection pool); called once by {@code close()}. */
  public void close() {}

  /**
   * Runs one check; returns the delay until the next. Throws only what the logger throws: every
   * failure of the source itself, unexpected ones included, is recorded in its state.
   */
  public final Duration check(Instant now, System.Logger log) {
    State s = state;
    KeySet keys;
    List<String> refused = s.refusedKeyIds;
    Map<String, String> skipped;
    String note = null;
    Duration next;
    try {
      KeySet loaded = load(now);
      keys = loaded == null ? s.keys : loaded;
      if (loaded != null && verifyOnly != null) {
        VerifyOnly.Result r = verifyOnly.apply(loaded);
        keys = r.keys;
        refused = r.droppedSecretKeys;
        note = r.note();
      }
      skipped = loaded == null ? s.skippedKeys : skippedKeys();
      next = nextCheckAfterSuccess();
    } catch (KeyringException e) {
      return failed(s, now, e.reason(), e.reason() + ": " + e.getMessage(), log);
    } catch (RuntimeException | Error e) {
      // A bug, a broken deployment or an unexpected library failure: not the content's fault, so
      // not MALFORMED. Its message may quote content, so keep only the type.
      return failed(s, now, KeyringException.Reason.INTERNAL, "INTERNAL: unexpected " + e.getClass().getName(), log);
    }
    state = new State(keys, now, s.lastFailure, s.lastFailureReason, s.lastFailureTime,
        s.checks + 1, s.failures, 0, next, refused, Set.of(), skipped);
    for (Map.Entry<String, String> e : skipped.entrySet()) {
      if (!s.skippedKeys.containsKey(e.getKey())) { // once per kid, while the document keeps it
        log.log(Level.WARNING, "{0}: skipped key {1}, which this library cannot use ({2}); its other keys are "
            + "in use (RFC 7517 section 5)", describe(), e.getKey(), e.getValue());
      }
    }
    if (note != null && !note.equals(lastDropNote)) {
      lastDropNote = note;
      if (!note.isEmpty()) {
        log.log(Level.WARNING, "{0} is verify-only: {1}. Its keys verify tokens and never sign{2}", describe(), note,
            refused.isEmpty() ? "" : "; to verify with secret keys from it, mark it acceptSecretKeys()");
      }
    }
    if (s.failuresInARow > 0 && s.lastSuccess != null) {
      log.log(Level.INFO, "{0}: recovered after {1} failed check(s)", describe(), s.failuresInARow);
    }
    return next;
  }

  private Duration failed(State s, Instant now, KeyringException.Reason reason, String message, System.Logger log) {
    int inARow = s.failuresInARow + 1;
    Duration next = nextCheckAfterFailure(inARow);
    KeySet keys = s.keys;
    Set<String> staleKids = s.staleKeyIds;
    boolean drop = s.lastSuccess != null && !keys.keys().isEmpty() && tooStale(s.lastSuccess, now);
    if (drop) {
      // Keys that cannot be confirmed for that long no longer verify, but their kids are kept:
      // a token under one is an outage of this side (KEY_SOURCE_UNAVAILABLE), not a logout.
      Set<String> kids = new HashSet<>();
      for (TokenKey k : keys.keys()) {
        kids.add(k.kid());
      }
      staleKids = Set.copyOf(kids);
      keys = KeySet.empty();
    }
    state = new State(keys, s.lastSuccess, message, reason, now, s.checks + 1, s.failures + 1, inARow, next,
        s.refusedKeyIds, staleKids, s.skippedKeys);
    if (drop) {
      log.log(Level.ERROR, "{0}: no good keys since {1}, past the stale bound; its keys no longer verify, and "
          + "tokens under them fail as KEY_SOURCE_UNAVAILABLE (an outage, 503) until it is read again ({2})",
          describe(), s.lastSuccess, message);
    } else if (reason == KeyringException.Reason.INTERNAL && (inARow == 1 || !message.equals(s.lastFailure))) {
      // Not the content's fault: an error, once per run like the warnings below.
      log.log(Level.ERROR, "{0}: check failed inside the keyring ({1}), {2}{3}", describe(), message,
          s.lastSuccess == null ? "no keys from it yet" : "keeping its last good keys",
          rechecks() ? "; next attempt in " + next : "");
    } else if (inARow == 1 || !message.equals(s.lastFailure)) {
      // The first failure of a run (or a new kind of failure) is a warning; repeats are counted.
      log.log(Level.WARNING, "{0}: check failed, {1} ({2}){3}", describe(),
          s.lastSuccess == null ? "no keys from it yet" : "keeping its last good keys", message,
          rechecks() ? "; next attempt in " + next : "");
    } else {
      log.log(Level.DEBUG, "{0}: check failed again ({1} in a row: {2})", describe(), inARow, message);
    }
    return next;
  }

  /**
   * The last good keys (empty before the first success or after being dropped as stale; see
   * {@link State#staleKeyIds} for those).
   */
  public final KeySet keys() {
    return state.keys;
  }

  /** Everything the status view shows, read at once. */
  public final State state() {
    return state;
  }

  /** What a source knows after its last check. Immutable. */
  public static final class State {
    static final State INITIAL = new State(KeySet.empty(), null, null, null, null, 0, 0, 0, null, List.of(),
        Set.of(), Map.of());

    /** The last good keys. */
    public final KeySet keys;
    /** When the last check succeeded (keyring clock), or {@code null}. */
    public final Instant lastSuccess;
    /** The reason and message of the last failure, or {@code null}; never key material. */
    public final String lastFailure;
    /** The reason of the last failure, or {@code null}. */
    public final KeyringException.Reason lastFailureReason;
    /** When the last failure happened (keyring clock), or {@code null}. */
    public final Instant lastFailureTime;
    /** Checks since the start, failed or not. */
    public final long checks;
    /** Failed checks since the start. */
    public final long failures;
    /** Failed checks since the last success. */
    public final int failuresInARow;
    /** The delay chosen for the next check, or {@code null} before the first check. */
    public final Duration nextCheckDelay;
    /** Kids of secret keys a verify-only source offered at its last good load and did not take. */
    public final List<String> refusedKeyIds;
    /**
     * Kids of the keys dropped past the stale bound, until the next good load: tokens under them
     * are an outage ({@code KEY_SOURCE_UNAVAILABLE}), not a rejection.
     */
    public final Set<String> staleKeyIds;
    /** Keys of the last good load skipped as unusable: kid (or {@code #} and position), why. */
    public final Map<String, String> skippedKeys;

    State(KeySet keys, Instant lastSuccess, String lastFailure, KeyringException.Reason lastFailureReason,
        Instant lastFailureTime, long checks, long failures, int failuresInARow, Duration nextCheckDelay,
        List<String> refusedKeyIds, Set<String> staleKeyIds, Map<String, String> skippedKeys) {
      this.keys = Objects.requireNonNull(keys);
      this.lastSuccess = lastSuccess;
      this.lastFailure = lastFailure;
      this.lastFailureReason = lastFailureReason;
      this.lastFailureTime = lastFailureTime;
      this.checks = checks;
      this.failures = failures;
      this.failuresInARow = failuresInARow;
      this.nextCheckDelay = nextCheckDelay;
      this.refusedKeyIds = List.copyOf(refusedKeyIds);
      this.staleKeyIds = Set.copyOf(staleKeyIds);
      this.skippedKeys = skippedKeys;
    }
  }
}
