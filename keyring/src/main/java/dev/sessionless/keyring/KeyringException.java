package dev.sessionless.keyring;

import java.util.Objects;

/**
 * The one exception family of the keyring: keys could not be loaded, decrypted, parsed or
 * written.
 *
 * <p>{@link #reason()} tells programs what went wrong; the message tells people what to do. A
 * message never contains key material, a password or a secret-bearing file's content, so it is
 * safe to log.
 *
 * <p>New reasons may be added in later versions: a {@code switch} over {@link Reason} should
 * have a default branch.
 */
public final class KeyringException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why keys could not be loaded, decrypted, parsed or written. More reasons may be added. */
  public enum Reason {
    /** The source could not be read: missing file, unset variable, network error, timeout, HTTP error status. */
    UNAVAILABLE,
    /** The content is not a key set this library accepts (bad JSON, bad JWK, bad PEM, empty). */
    MALFORMED,
    /** An encrypted key file does not decrypt: wrong password or key-encryption key, or altered content. */
    DECRYPTION_FAILED,
    /** Parameters outside the safe bounds: a PBES2 iteration count over the cap, a short password, ... */
    UNSAFE_PARAMETERS,
    /** A file holding secrets is readable by others, or could not be created owner-only. */
    INSECURE_FILE,
    /** The configuration is inconsistent (no source, contradictory options, a plain-http JWKS URL). */
    CONFIGURATION,
    /**
     * Not the input's fault: an unexpected failure inside the keyring or a library it uses (a bug,
     * or a broken deployment such as a missing JCA algorithm). Never a rejection of the content.
     */
    INTERNAL
  }

  private final Reason reason;

  /**
   * Creates an exception with a reason and a message for people.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and what to do; must not contain key material
   */
  public KeyringException(Reason reason, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * Creates an exception with a reason, a message for people and the underlying cause.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and what to do; must not contain key material
   * @param cause the underlying failure; must not carry key material in its message
   */
  public KeyringException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** The machine-readable reason. */
  public Reason reason() {
    return reason;
  }

  @Override
  public String toString() {
    return "KeyringException[" + reason + "]: " + getMessage();
  }
}
