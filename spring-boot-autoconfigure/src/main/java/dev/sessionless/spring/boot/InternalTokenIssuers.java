package dev.sessionless.spring.boot;

import dev.sessionless.keyring.Keyring;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The issuers a receiving service accepts and one live {@link Keyring} per issuer over its JWKS
 * URL ({@code sessionless.propagation.receive.issuers}), owned by this bean and closed with the
 * application context.
 *
 * <p>The keyrings are not {@code KeySource} beans of their own on purpose: an issuer's public
 * keys must never be taken for this service's session keys by a by-type injection.
 *
 * <p>Thread-safe; its {@link #toString()} shows the issuers only, never keys or URLs.
 */
public final class InternalTokenIssuers implements AutoCloseable {
  private final Map<String, Keyring> byIssuer;

  /**
   * Takes ownership of the keyrings.
   *
   * @param byIssuer each issuer's keyring, in the order the verifier should list them
   */
  public InternalTokenIssuers(Map<String, Keyring> byIssuer) {
    this.byIssuer = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(byIssuer, "byIssuer")));
  }

  /** Each accepted issuer and its keyring, in configuration order. */
  public Map<String, Keyring> keyrings() {
    return byIssuer;
  }

  /** Closes every keyring (stops their refresh threads). */
  @Override
  public void close() {
    byIssuer.values().forEach(Keyring::close);
  }

  /** The issuers. */
  @Override
  public String toString() {
    return "InternalTokenIssuers" + byIssuer.keySet();
  }
}
