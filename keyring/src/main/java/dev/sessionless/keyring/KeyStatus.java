package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import java.time.Instant;
import java.util.Optional;

/**
 * One key as {@link Keyring#status()} sees it: what its lifecycle allows, and what this node saw
 * it do. The answer an operator needs before retiring or deleting a key.
 *
 * <p><b>Safe to retire</b> (stop signing): the key does not sign now, or another key of its
 * algorithm would sign in its place. <b>Safe to delete</b>: by the lifecycle, no token it signed
 * can still be accepted — its last possible signing (retirement or expiry) plus the keyring's
 * {@link KeyringBuilder#maxTokenLifetime(java.time.Duration) maximum token lifetime} plus 10
 * minutes of clock skew has passed, or the key itself has expired — <em>and</em> this node
 * confirms it by traffic: no token verified with it for the {@link
 * KeyringBuilder#retirementTrafficWindow(java.time.Duration) traffic window}, watched for at least
 * that long. Traffic is per node: delete a key only when every node says so (the metric {@code
 * sessionless.keys.safe.to.delete} makes that one query).
 *
 * <p>Immutable; never key material.
 */
public final class KeyStatus {
  private final String kid;
  private final Algorithm algorithm;
  private final boolean signing;
  private final Instant signingEnds;
  private final Instant lastSigned;
  private final long verifications;
  private final long encryptions;
  private final Instant lastVerified;
  private final boolean safeToRetire;
  private final Instant safeToDeleteFrom;
  private final boolean quiet;
  private final boolean safeToDelete;

  KeyStatus(String kid, Algorithm algorithm, boolean signing, Instant signingEnds, Instant lastSigned,
      long verifications, long encryptions, Instant lastVerified, boolean safeToRetire, Instant safeToDeleteFrom, boolean quiet,
      boolean safeToDelete) {
    this.kid = kid;
    this.algorithm = algorithm;
    this.signing = signing;
    this.signingEnds = signingEnds;
    this.lastSigned = lastSigned;
    this.verifications = verifications;
    this.encryptions = encryptions;
    this.lastVerified = lastVerified;
    this.safeToRetire = safeToRetire;
    this.safeToDeleteFrom = safeToDeleteFrom;
    this.quiet = quiet;
    this.safeToDelete = safeToDelete;
  }

  /** The key's id. */
  public String kid() {
    return kid;
  }

  /** The key's algorithm. */
  public Algorithm algorithm() {
    return algorithm;
  }

  /** Whether the key signs now for its algorithm (by the keyring's clock). */
  public boolean signing() {
    return signing;
  }

  /** When the key stops (or stopped) signing by its lifecycle: its retirement or expiry; empty if never. */
  public Optional<Instant> signingEnds() {
    return Optional.ofNullable(signingEnds);
  }

  /** When this node last signed with the key (to the second), since the keyring started. */
  public Optional<Instant> lastSigned() {
    return Optional.ofNullable(lastSigned);
  }

  /**
   * Tokens this node verified with the key recently, cache hits included: within the last
   * {@link KeyringBuilder#retirementTrafficWindow(java.time.Duration) traffic window}, a rolling
   * window kept in buckets of a sixtieth of it (at least one second), so the count may include up
   * to one bucket more than the window (never less).
   */
  public long verifications() {
    return verifications;
  }

  /**
   * Tokens this node encrypted with the key (an A256GCM key; 0 for others) since the key came into
   * the keyring, against the {@linkplain KeyringBuilder#encryptionBudgetPerKey(long) per-node budget}:
   * at the budget the key no longer encrypts.
   */
  public long encryptions() {
    return encryptions;
  }

  /** When this node last verified a token with the key (to the second), since the keyring started. */
  public Optional<Instant> lastVerified() {
    return Optional.ofNullable(lastVerified);
  }

  /** Whether the key may stop signing now: it does not sign, or another key of its algorithm would. */
  public boolean safeToRetire() {
    return safeToRetire;
  }

  /** From when the lifecycle says no token under the key can still be accepted; empty if never. */
  public Optional<Instant> safeToDeleteFrom() {
    return Optional.ofNullable(safeToDeleteFrom);
  }

  /** Whether this node verified no token with the key for the whole traffic window. */
  public boolean quiet() {
    return quiet;
  }

  /** Whether the lifecycle allows deleting the key now and this node's traffic confirms it. */
  public boolean safeToDelete() {
    return safeToDelete;
  }

  @Override
  public String toString() {
    return kid + "[" + algorithm.joseName() + (signing ? ", signing" : "") + ", verifications=" + verifications
        + (algorithm.isEncrypting() ? ", encryptions=" + encryptions : "")
        + (lastVerified == null ? "" : ", lastVerified=" + lastVerified)
        + (lastSigned == null ? "" : ", lastSigned=" + lastSigned)
        + ", safeToRetire=" + safeToRetire + ", safeToDelete=" + safeToDelete
        + (safeToDeleteFrom == null ? "" : ", safeToDeleteFrom=" + safeToDeleteFrom) + "]";
  }
}
