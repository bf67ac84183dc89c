package dev.sessionless.core;

import java.util.Objects;

/**
 * The one exception family of Sessionless tokens: a token was rejected, or one could not be
 * made.
 *
 * <p>{@link #reason()} tells programs what went wrong; the message tells people what to do. A
 * message never contains the token, a secret or key material, so it is safe to log. Decoding
 * throws nothing but this exception, whatever the input: a bad token gets a reason whose {@link
 * Reason#isRejection()} is true, and a failure on this side (see {@link Reason#INTERNAL}) one whose
 * {@code isRejection()} is false, so the two are never confused.
 *
 * <p>New reasons may be added in later versions: a {@code switch} over {@link Reason} should
 * have a default branch.
 */
public final class TokenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a token was rejected or could not be made. More reasons may be added. */
  public enum Reason {
    /** The token is not a well-formed compact JWS or JWE as this library accepts it. */
    MALFORMED(true),
    /** The token, or its decompressed content, is longer than the configured limit. */
    TOO_LARGE(true),
    /** The header names no key ({@code kid}) or one the key set does not hold or no longer verifies with. */
    UNKNOWN_KEY(true),
    /** The signature does not verify under the named key. */
    BAD_SIGNATURE(true),
    /** The encrypted token does not decrypt (wrong key or altered ciphertext, IV or tag). */
    DECRYPTION_FAILED(true),
    /** The header's {@code alg} or {@code enc} is not the named key's, is {@code none}, or is not accepted. */
    ALGORITHM_MISMATCH(true),
    /**
     * The header carries a parameter this library does not accept ({@code crit}, {@code zip} on
     * a JWS unless the codec accepts compressed signed tokens, ...).
     */
    UNSUPPORTED_HEADER(true),
    /** A required claim ({@code iss}, {@code aud}, {@code iat}, {@code exp}, {@code jti}) is absent. */
    MISSING_CLAIM(true),
    /** The token's {@code exp} has passed (beyond the leeway). */
    EXPIRED(true),
    /** The token's {@code nbf} is still in the future (beyond the leeway). */
    NOT_YET_VALID(true),
    /** The token's {@code iat} is in the future (beyond the leeway). */
    ISSUED_IN_FUTURE(true),
    /** The token was issued by another issuer. */
    WRONG_ISSUER(true),
    /** The token was issued for another audience. */
    WRONG_AUDIENCE(true),
    /**
     * The token's header {@code typ} is not the codec's token type: an internal service token
     * presented as a browser session token, or the reverse (see {@link TokenCodec.Builder#tokenType}).
     */
    WRONG_TOKEN_TYPE(true),
    /**
     * A re-minted (delegated) token grants more than the token it was minted from: state values
     * its parent did not carry, or an expiry after its parent's. Checked by the propagation
     * module's verifier on the bounds the minter signs into the token.
     */
    WIDENED(true),
    /**
     * The token's session ({@code jti}, or the {@code sid} it was made for) was revoked: logged
     * out, or ended by an administrator (see {@link RevocationSource}).
     */
    SESSION_REVOKED(true),
    /**
     * The token's subject was logged out everywhere after the token was authenticated (its
     * {@code auth_time} is earlier, or absent; see {@link RevocationSource}).
     */
    SUBJECT_REVOKED(true),
    /** The key set has no key that may sign (or encrypt) with the codec's algorithm now. */
    NO_SIGNING_KEY(false),
    /** A state value could not be written as JSON or read back as the requested type. */
    STATE_MAPPING(false),
    /**
     * The revocation source cannot vouch for its copy (a published list older than its stale
     * bound, configured to fail closed): no rejection of the token, a server error until the
     * source recovers.
     */
    REVOCATION_UNAVAILABLE(false),
    /**
     * The token names a key whose source cannot vouch for it any more (an HTTP JWKS that has
     * failed for longer than its stale bound): the key is no longer trusted to verify, but the
     * token is not the client's fault either. An outage of this side, answered as one ({@code
     * 503} with {@code Retry-After}), never a silent logout; it clears when the source is read
     * again. Encoding fails with it too when the key source will not let the key encrypt any more
     * (the keyring's AES-GCM key past its per-node encryption budget, with no other key to take
     * over): an outage until a key is rotated in. Added in a later version, as the note above allows.
     */
    KEY_SOURCE_UNAVAILABLE(false),
    /**
     * Decoding failed on this side, not because of the token: a bug, a key source that threw, a
     * JCA algorithm missing from this JVM, a broken deployment. The cause is attached. Treat it
     * as a server error (log it, alert on it), never as "no session": otherwise a broken deploy
     * silently logs every user out.
     */
    INTERNAL(false);

    private final boolean rejection;

    Reason(boolean rejection) {
      this.rejection = rejection;
    }

    /**
     * Whether this reason means "the token presented is not acceptable" (treat as no session)
     * rather than a configuration or programming problem on this side ({@link #NO_SIGNING_KEY},
     * {@link #REVOCATION_UNAVAILABLE}, {@link #KEY_SOURCE_UNAVAILABLE},
     * {@link #STATE_MAPPING}, {@link #INTERNAL}).
     */
    public boolean isRejection() {
      return rejection;
    }
  }

  private final Reason reason;

  /**
   * Creates an exception with a reason and a message for people.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and what to do; must not contain secrets or the token
   */
  public TokenException(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * Creates an exception with a reason, a message and a cause kept for diagnosis.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and what to do; must not contain secrets or the token
   * @param cause the underlying failure
   */
  public TokenException(Reason reason, String message, Throwable cause) {
    super(message, cause, false, true);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** The machine-readable reason. */
  public Reason reason() {
    return reason;
  }

  @Override
  public String toString() {
    return "TokenException[" + reason + "]: " + getMessage();
  }
}
