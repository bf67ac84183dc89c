package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.devicebinding.DeviceBindingBuilder;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.core.env.Environment;

/**
 * {@code sessionless.device-binding.*} onto either adapter's builder (the servlet filter's and the
 * WebFlux filter's share {@link DeviceBindingBuilder}): one mapping, one set of startup errors
 * naming the property. No servlet or WebFlux type here, so either auto-configuration can load it
 * without the other stack on the class path.
 */
final class DeviceBindingSettings {
  private static final String PREFIX = "sessionless.device-binding.";

  private DeviceBindingSettings() {}

  /**
   * Applies the properties to {@code b}, and the application's revocation store (if it has one:
   * a published list cannot be written, so it is not used) as the used-challenge store, then
   * {@code customize} (the customizer beans), then builds; issuer and algorithm default to the
   * session's.
   *
   * @throws SessionlessStartupException naming the property when a setting is refused
   */
  static <B extends DeviceBindingBuilder<B>, T> T build(B b, DeviceBindingProperties p, SessionlessProperties session,
      KeySource keys, Environment environment, RevocationSource revocation, Runnable customize, Supplier<T> build) {
    b.keys(keys);
    try {
      b.issuer(p.getIssuer() != null ? p.getIssuer() : SessionOptions.issuerOf(session, environment));
      b.algorithm(p.getAlgorithm() != null ? SessionOptions.algorithm(p.getAlgorithm(), PREFIX + "algorithm")
          : SessionOptions.algorithm(session.getAlgorithm(), "sessionless.algorithm"));
      set(() -> b.registrationPath(p.getRegistrationPath()), "registration-path");
      set(() -> b.refreshPath(p.getRefreshPath()), "refresh-path");
      set(() -> b.boundLifetime(p.getBoundLifetime()), "bound-lifetime");
      set(() -> b.sessionLifetime(p.getSessionLifetime()), "session-lifetime");
      set(() -> b.challengeWindow(p.getChallengeWindow()), "challenge-window");
      set(() -> b.unboundPolicy(p.getUnboundPolicy()), "unbound-policy");
      set(() -> b.unboundLifetime(p.getUnboundLifetime()), "unbound-lifetime");
      set(() -> b.requireBound(p.getRequireBound().toArray(new String[0])), "require-bound");
      set(() -> b.boundCookieName(p.getBoundCookieName()), "bound-cookie-name");
      set(() -> b.longLivedCookieName(p.getLongLivedCookieName()), "long-lived-cookie-name");
      List<String> algs = p.getProofAlgorithms();
      if (algs.isEmpty()) {
        throw new IllegalArgumentException(PREFIX + "proof-algorithms is empty: name ES256 and/or RS256");
      }
      set(() -> b.proofAlgorithms(algs.get(0), algs.subList(1, algs.size()).toArray(new String[0])),
          "proof-algorithms");
      if (revocation instanceof RevocationStore store) {
        b.usedChallenges(store);
      }
      customize.run();
      return build.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      if (e instanceof SessionlessStartupException s) {
        throw s;
      }
      throw new SessionlessStartupException("sessionless.device-binding is misconfigured: " + e.getMessage(),
          "Correct the sessionless.device-binding.* property named above (see the device-binding README)", e);
    }
  }

  private static void set(Runnable setter, String property) {
    try {
      setter.run();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new SessionlessStartupException(PREFIX + property + " is refused: " + e.getMessage(),
          "Set " + PREFIX + property + " within the range the device-binding README gives", e);
    }
  }
}
