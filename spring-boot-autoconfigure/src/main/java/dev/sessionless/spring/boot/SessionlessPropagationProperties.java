package dev.sessionless.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code sessionless.propagation.*} properties: internal tokens received from an edge
 * ({@code receive}, on when {@code sessionless.propagation.receive.audience} is set) and sent to
 * internal services ({@code send}, on when {@code sessionless.propagation.send.issuer} is set).
 * Both are independent of the session part ({@code sessionless.enabled}), so a service that only
 * receives runs with {@code sessionless.enabled=false} and no session keys.
 *
 * <p>Security: no property holds a secret; the signing keys are read from the file named by
 * {@code sessionless.propagation.send.keys-file}.
 *
 * <p>Each side is a class of its own: {@link PropagationReceiveProperties} and {@link
 * PropagationSendProperties}.
 */
@ConfigurationProperties("sessionless.propagation")
public class SessionlessPropagationProperties {
  /** The receiving side: verifying the internal tokens callers present. */
  @NestedConfigurationProperty
  private final PropagationReceiveProperties receive = new PropagationReceiveProperties();

  /** The sending side: minting internal tokens for the calls this service makes. */
  @NestedConfigurationProperty
  private final PropagationSendProperties send = new PropagationSendProperties();

  /**
   * Which tokens this service mints and accepts, the same on every service of the deployment:
   * "internal" (the project's own profile, in Authorization) or "txn-token" (OAuth Transaction
   * Tokens, in Txn-Token, with aud the trust domain: then receive.audience is the trust domain,
   * and a sender needs send.trust-domain, and at the edge send.scope).
   */
  private String profile = "internal";

  /** Used by Spring. */
  public SessionlessPropagationProperties() {}

  /** The token profile: {@code internal} or {@code txn-token}. */
  public String getProfile() {
    return profile;
  }

  /** Sets the token profile: {@code internal} or {@code txn-token}. */
  public void setProfile(String profile) {
    this.profile = profile;
  }

  /** The receiving side. */
  public PropagationReceiveProperties getReceive() {
    return receive;
  }

  /** The sending side. */
  public PropagationSendProperties getSend() {
    return send;
  }
}
