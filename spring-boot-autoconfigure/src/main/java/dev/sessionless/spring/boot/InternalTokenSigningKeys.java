package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.keyring.Keyring;
import java.util.Objects;

/**
 * The sending side's signing keys ({@code sessionless.propagation.send.keys-file}, ES256 or
 * EdDSA) as a live {@link Keyring}, owned by this bean and closed with the application context;
 * the minter signs with them and the JWKS endpoint publishes their public parts.
 *
 * <p>Not a {@code KeySource} bean of its own on purpose: these keys must never be taken for the
 * session keys by a by-type injection.
 *
 * <p>Thread-safe; its {@link #toString()} never shows key material.
 */
public final class InternalTokenSigningKeys implements AutoCloseable {
  private final Keyring keyring;
  private final Algorithm algorithm;

  /**
   * Takes ownership of the keyring.
   *
   * @param keyring the signing keys
   * @param algorithm the algorithm tokens are signed with ({@code ES256} or {@code EdDSA})
   */
  public InternalTokenSigningKeys(Keyring keyring, Algorithm algorithm) {
    this.keyring = Objects.requireNonNull(keyring, "keyring");
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
  }

  /** The live signing keys. */
  public Keyring keyring() {
    return keyring;
  }

  /** The algorithm tokens are signed with. */
  public Algorithm algorithm() {
    return algorithm;
  }

  /** Closes the keyring (stops its refresh thread). */
  @Override
  public void close() {
    keyring.close();
  }

  /** The algorithm only. */
  @Override
  public String toString() {
    return "InternalTokenSigningKeys[" + algorithm.joseName() + "]";
  }
}
