package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilterBuilder;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Device Bound Session Credentials on the servlet filter when {@code
 * sessionless.device-binding.enabled=true} and {@code sessionless-device-binding} is on the class
 * path: a {@link DeviceBindingFilter} from {@code sessionless.device-binding.*} on the
 * application's {@link KeySource}, registered right after {@code SessionlessFilter} and so ahead
 * of Spring Security's filter chain. The registration and refresh endpoints are answered there
 * and never reach Spring Security: no CSRF token is asked of the browser's DBSC requests (the
 * proof authenticates them), and no other filter of the chain adds headers to them. The
 * application offers registration with {@link DeviceBindingFilter#offerRegistration} on a
 * response after login. A setting out of range fails the startup naming the property. When the
 * application has a {@link RevocationStore} ({@code sessionless.revocation.type=memory} or {@code
 * redis}, or its own bean), used challenges are recorded in it, so a replayed proof is refused on
 * every instance the store reaches (the device-binding README's "Single use with the revocation
 * store"); a published revocation list cannot be written, so it is not used for that.
 */
@AutoConfiguration(after = SessionlessAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({DeviceBindingFilter.class, SessionlessFilter.class, FilterRegistrationBean.class})
@ConditionalOnBooleanProperty(name = "sessionless.device-binding.enabled")
@ConditionalOnBean(SessionlessFilter.class)
@EnableConfigurationProperties(DeviceBindingProperties.class)
public class SessionlessDeviceBindingAutoConfiguration {
  private static final String PREFIX = "sessionless.device-binding.";

  /** Used by Spring; applications do not construct this class. */
  public SessionlessDeviceBindingAutoConfiguration() {}

  /**
   * The filter, from {@code sessionless.device-binding.*} and the application's revocation store
   * if it has one, then every {@link DeviceBindingFilterCustomizer}; issuer and algorithm default
   * to the session filter's.
   *
   * @throws SessionlessStartupException naming the property when a setting is refused
   */
  @Bean
  @ConditionalOnMissingBean(DeviceBindingFilter.class)
  public DeviceBindingFilter deviceBindingFilter(DeviceBindingProperties p, SessionlessProperties session,
      KeySource keys, Environment environment, ObjectProvider<DeviceBindingFilterCustomizer> customizers,
      ObjectProvider<RevocationSource> revocation) {
    DeviceBindingFilterBuilder b = DeviceBindingFilter.builder().keys(keys);
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
      if (RevocationFactory.single(revocation) instanceof RevocationStore store) {
        b.usedChallenges(store);
      }
      customizers.orderedStream().forEach(c -> c.customize(b));
      return b.build();
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

  /**
   * Registers the filter for {@code REQUEST} dispatches right after {@code SessionlessFilter}
   * ({@code sessionless.filter.order} + 1): inside its session, ahead of Spring Security.
   */
  @Bean
  @ConditionalOnMissingBean(name = "deviceBindingFilterRegistration")
  public FilterRegistrationBean<DeviceBindingFilter> deviceBindingFilterRegistration(DeviceBindingFilter filter,
      SessionlessProperties session) {
    FilterRegistrationBean<DeviceBindingFilter> reg = new FilterRegistrationBean<>(filter);
    reg.setName("deviceBindingFilter");
    reg.setOrder(session.getFilter().getOrder() + 1);
    reg.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
    reg.addUrlPatterns("/*");
    return reg;
  }
}
