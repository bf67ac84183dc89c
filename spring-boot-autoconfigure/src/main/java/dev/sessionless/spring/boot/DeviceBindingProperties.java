package dev.sessionless.spring.boot;

import dev.sessionless.devicebinding.UnboundPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code sessionless.device-binding.*}: Device Bound Session Credentials (DBSC) on the servlet
 * filter or, in a WebFlux application, the WebFlux filter (the same keys for both); off unless
 * {@code enabled} is true. See the device-binding module's README.
 */
@ConfigurationProperties("sessionless.device-binding")
public class DeviceBindingProperties {
  /**
   * Whether to serve DBSC (device-bound sessions): the registration and refresh endpoints and the
   * bound-cookie check. Off by default until a real browser has been tested against it.
   */
  private boolean enabled;

  /** The registration endpoint, within the context path. */
  private String registrationPath = "/.well-known/dbsc/register";

  /** The refresh endpoint, within the context path. */
  private String refreshPath = "/.well-known/dbsc/refresh";

  /** How long a bound cookie works (1 minute to 1 hour): a copied one works that long at most. */
  private Duration boundLifetime = Duration.ofMinutes(10);

  /** How long the long-lived (refresh) cookie lives, 1 hour to 400 days. */
  private Duration sessionLifetime = Duration.ofDays(14);

  /** How long a challenge is accepted, 10 seconds to 10 minutes. */
  private Duration challengeWindow = Duration.ofMinutes(2);

  /** What happens to logged-in sessions not bound to a device (browsers without DBSC). */
  private UnboundPolicy unboundPolicy = UnboundPolicy.ALLOW;

  /** How long after login an unbound session works under the SHORTER_LIFETIME policy. */
  private Duration unboundLifetime = Duration.ofMinutes(15);

  /** Paths that need a bound session whatever the policy: exact, or ending in /** for everything under it. */
  private List<String> requireBound = new ArrayList<>();

  /** The bound cookie's name. */
  private String boundCookieName = "sl_bound";

  /** The long-lived cookie's name (sent to the refresh endpoint only). */
  private String longLivedCookieName = "sl_dbsc";

  /** The device-key algorithms offered, in order of preference: ES256 and/or RS256. */
  private List<String> proofAlgorithms = new ArrayList<>(List.of("ES256", "RS256"));

  /** The algorithm of the challenges and the two cookies; sessionless.algorithm when unset. */
  private String algorithm;

  /** The issuer of the challenges and the two cookies; sessionless.issuer (or the application name) when unset. */
  private String issuer;

  /** Whether DBSC is on. */
  public boolean isEnabled() {
    return enabled;
  }

  /** Turns DBSC on or off. */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The registration endpoint. */
  public String getRegistrationPath() {
    return registrationPath;
  }

  /** Sets the registration endpoint. */
  public void setRegistrationPath(String registrationPath) {
    this.registrationPath = registrationPath;
  }

  /** The refresh endpoint. */
  public String getRefreshPath() {
    return refreshPath;
  }

  /** Sets the refresh endpoint. */
  public void setRefreshPath(String refreshPath) {
    this.refreshPath = refreshPath;
  }

  /** The bound cookie's lifetime. */
  public Duration getBoundLifetime() {
    return boundLifetime;
  }

  /** Sets the bound cookie's lifetime. */
  public void setBoundLifetime(Duration boundLifetime) {
    this.boundLifetime = boundLifetime;
  }

  /** The long-lived cookie's lifetime. */
  public Duration getSessionLifetime() {
    return sessionLifetime;
  }

  /** Sets the long-lived cookie's lifetime. */
  public void setSessionLifetime(Duration sessionLifetime) {
    this.sessionLifetime = sessionLifetime;
  }

  /** The challenge window. */
  public Duration getChallengeWindow() {
    return challengeWindow;
  }

  /** Sets the challenge window. */
  public void setChallengeWindow(Duration challengeWindow) {
    this.challengeWindow = challengeWindow;
  }

  /** The policy for unbound sessions. */
  public UnboundPolicy getUnboundPolicy() {
    return unboundPolicy;
  }

  /** Sets the policy for unbound sessions. */
  public void setUnboundPolicy(UnboundPolicy unboundPolicy) {
    this.unboundPolicy = unboundPolicy;
  }

  /** The unbound lifetime under SHORTER_LIFETIME. */
  public Duration getUnboundLifetime() {
    return unboundLifetime;
  }

  /** Sets the unbound lifetime under SHORTER_LIFETIME. */
  public void setUnboundLifetime(Duration unboundLifetime) {
    this.unboundLifetime = unboundLifetime;
  }

  /** The paths that need a bound session. */
  public List<String> getRequireBound() {
    return requireBound;
  }

  /** Sets the paths that need a bound session. */
  public void setRequireBound(List<String> requireBound) {
    this.requireBound = requireBound;
  }

  /** The bound cookie's name. */
  public String getBoundCookieName() {
    return boundCookieName;
  }

  /** Sets the bound cookie's name. */
  public void setBoundCookieName(String boundCookieName) {
    this.boundCookieName = boundCookieName;
  }

  /** The long-lived cookie's name. */
  public String getLongLivedCookieName() {
    return longLivedCookieName;
  }

  /** Sets the long-lived cookie's name. */
  public void setLongLivedCookieName(String longLivedCookieName) {
    this.longLivedCookieName = longLivedCookieName;
  }

  /** The device-key algorithms offered. */
  public List<String> getProofAlgorithms() {
    return proofAlgorithms;
  }

  /** Sets the device-key algorithms offered. */
  public void setProofAlgorithms(List<String> proofAlgorithms) {
    this.proofAlgorithms = proofAlgorithms;
  }

  /** The tokens' algorithm, or null for sessionless.algorithm. */
  public String getAlgorithm() {
    return algorithm;
  }

  /** Sets the tokens' algorithm. */
  public void setAlgorithm(String algorithm) {
    this.algorithm = algorithm;
  }

  /** The tokens' issuer, or null for sessionless.issuer. */
  public String getIssuer() {
    return issuer;
  }

  /** Sets the tokens' issuer. */
  public void setIssuer(String issuer) {
    this.issuer = issuer;
  }
}
