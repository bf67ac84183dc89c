package dev.sessionless.devicebinding;

import java.util.Objects;

/**
 * Every refusal of this module: a proof, key, challenge or header that does not pass, with a
 * machine-readable {@link Reason}. Unchecked, one type for the whole family, as core's {@code
 * TokenException}. The message says what was wrong and what to do; it never holds a proof, a
 * challenge or a key.
 */
public final class DeviceBindingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a proof or challenge was refused. */
  public enum Reason {
    /** Not a compact JWS, not base64url, not a JSON object, a member of the wrong type or missing. */
    MALFORMED(true),
    /** Longer than the configured limit; refused before any parsing. */
    TOO_LARGE(true),
    /** The proof's {@code typ} is not {@code dbsc+jwt}. */
    WRONG_TYPE(true),
    /** The {@code alg} is not one accepted ({@code none}, HMAC and anything but ES256/RS256 never are). */
    UNSUPPORTED_ALGORITHM(true),
    /** The JWK is unusable: private members, a curve other than P-256, a point off the curve, RSA under 2048 bits. */
    BAD_KEY(true),
    /** The key is not the session's (thumbprint mismatch), or does not fit the {@code alg}. */
    WRONG_KEY(true),
    /** The signature does not verify with the key. */
    BAD_SIGNATURE(true),
    /** The challenge is not one this application issued for this purpose (forged, altered, or for registration used on refresh). */
    WRONG_CHALLENGE(true),
    /** The challenge was issued for another session. */
    WRONG_SESSION(true),
    /** The proof's {@code aud} is not this endpoint. */
    WRONG_AUDIENCE(true),
    /** The proof's {@code authorization} claim is missing or not the one sent in the registration header. */
    WRONG_AUTHORIZATION(true),
    /** The proof's {@code iat} lies too far in the past or the future. */
    STALE(true),
    /** The challenge's window has passed. */
    EXPIRED(true),
    /** The challenge was issued before the session's last refresh: already used, or superseded. */
    REPLAYED(true),
    /** The challenge could not be checked now (the key source is unavailable): an outage, answer 503. */
    UNAVAILABLE(false),
    /** A fault of this library or its configuration: answer 500 and log it. */
    INTERNAL(false);

    private final boolean rejection;

    Reason(boolean rejection) {
      this.rejection = rejection;
    }

    /**
     * Whether this is the client's bad input (answer with a refusal, for DBSC a 403 with a new
     * challenge or a 401) rather than an outage or our own fault.
     */
    public boolean isRejection() {
      return rejection;
    }
  }

  private final Reason reason;

  /**
   * A refusal.
   *
   * @param reason the machine-readable reason
   * @param message what was wrong and what to do; never a secret, proof or challenge
   */
  public DeviceBindingException(Reason reason, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * A refusal caused by another exception.
   *
   * @param reason the machine-readable reason
   * @param message what was wrong and what to do
   * @param cause the underlying exception
   */
  public DeviceBindingException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** The machine-readable reason. */
  public Reason reason() {
    return reason;
  }

  @Override
  public String toString() {
    return "DeviceBindingException[" + reason + "]: " + getMessage();
  }
}
