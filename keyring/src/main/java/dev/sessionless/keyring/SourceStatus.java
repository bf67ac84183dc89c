package dev.sessionless.keyring;

import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.Source;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one source did last. Immutable; never key material. */
public final class SourceStatus {
  private final String description;
  private final Source.State state;
  private final List<String> keyIds;
  private final boolean verifyOnly;

  SourceStatus(String description, Source.State state, boolean verifyOnly) {
    this.description = description;
    this.state = state;
    this.keyIds = SnapshotPublisher.kids(state.keys);
    this.verifyOnly = verifyOnly;
  }

  /** The source: a path, a variable name or a URL without its query. */
  public String description() {
    return description;
  }

  /** When the last check succeeded (by the keyring's clock). */
  public Optional<Instant> lastSuccess() {
    return Optional.ofNullable(state.lastSuccess);
  }

  /** The reason and message of the last failure, if any, e.g. {@code "UNAVAILABLE: ... answered HTTP 503"}. */
  public Optional<String> lastFailure() {
    return Optional.ofNullable(state.lastFailure);
  }

  /** The reason of the last failure, if any. */
  public Optional<Reason> lastFailureReason() {
    return Optional.ofNullable(state.lastFailureReason);
  }

  /** When the last failure happened (by the keyring's clock), if any. */
  public Optional<Instant> lastFailureTime() {
    return Optional.ofNullable(state.lastFailureTime);
  }

  /** Checks made since the start, including failed ones. */
  public long checks() {
    return state.checks;
  }

  /** Failed checks since the start. */
  public long failures() {
    return state.failures;
  }

  /** Failed checks since the last success: 0 when the source is healthy. */
  public int consecutiveFailures() {
    return state.failuresInARow;
  }

  /**
   * The delay chosen after the last check until the next one (a poll interval, a share of
   * {@code max-age}, or a back-off after failures); zero before the first check.
   */
  public Duration nextCheckDelay() {
    return state.nextCheckDelay == null ? Duration.ZERO : state.nextCheckDelay;
  }

  /** The kids this source holds now. */
  public List<String> keyIds() {
    return keyIds;
  }

  /**
   * Whether the source is verify-only (every HTTP JWKS, and sources marked {@link
   * KeyringBuilder#verifyOnly()}): its keys never sign and never override a local source's key.
   */
  public boolean verifyOnly() {
    return verifyOnly;
  }

  /**
   * Kids of secret keys this verify-only source offered at its last good load and that were
   * dropped (see {@link KeyringBuilder#acceptSecretKeys()}); normally empty.
   */
  public List<String> refusedKeyIds() {
    return state.refusedKeyIds;
  }

  /**
   * Keys of this source's last good document that this library cannot use and skipped, as RFC
   * 7517 section 5 asks (an unknown key type or algorithm, a key reserved for encryption among
   * signing keys): kid (or {@code #} and the key's position when it has no usable kid) to why, in
   * document order. Only HTTP JWKS sources skip keys; a file or variable with an unusable key is
   * refused whole. Normally empty.
   */
  public Map<String, String> skippedKeys() {
    return state.skippedKeys;
  }

  @Override
  public String toString() {
    return description + "[checks=" + state.checks + ", failures=" + state.failures
        + (state.failuresInARow > 0 ? ", inARow=" + state.failuresInARow : "")
        + lastSuccess().map(i -> ", lastSuccess=" + i).orElse("")
        + lastFailure().map(f -> ", lastFailure=" + f).orElse("")
        + ", next=" + nextCheckDelay() + ", kids=" + keyIds + (verifyOnly ? ", verifyOnly" : "")
        + (state.refusedKeyIds.isEmpty() ? "" : ", refused=" + state.refusedKeyIds)
        + (state.skippedKeys.isEmpty() ? "" : ", skipped=" + state.skippedKeys.keySet()) + "]";
  }
}
