package dev.sessionless.devicebinding;

import java.util.Objects;
import java.util.Optional;

/**
 * A DBSC proof that {@link DeviceProof} has verified: the device key that signed it, the
 * challenge it answered, and the {@code authorization} it carried, if any.
 */
public final class VerifiedProof {
  private final DeviceKey key;
  private final Challenge challenge;
  private final String authorization;

  VerifiedProof(DeviceKey key, Challenge challenge, String authorization) {
    this.key = Objects.requireNonNull(key, "key");
    this.challenge = Objects.requireNonNull(challenge, "challenge");
    this.authorization = authorization;
  }

  /**
   * The device key that signed the proof: at registration, the key to bind the session to
   * (store {@link DeviceKey#thumbprint()} as {@code cnf.jkt} and {@link DeviceKey#toJwk()} in the
   * long-lived token); at refresh, the session's own key.
   */
  public DeviceKey key() {
    return key;
  }

  /**
   * The challenge the proof answered; after a refresh, its {@link Challenge#issuedAt()} is the
   * session's new last refresh time.
   */
  public Challenge challenge() {
    return challenge;
  }

  /** The proof's {@code authorization} claim, if it had one. */
  public Optional<String> authorization() {
    return Optional.ofNullable(authorization);
  }

  /** The key and challenge (public values); the authorization is left out. */
  @Override
  public String toString() {
    return "VerifiedProof[" + key + ", " + challenge + "]";
  }
}
