package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilter;
import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilterBuilder;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Device Bound Session Credentials in a WebFlux application when {@code
 * sessionless.device-binding.enabled=true} and {@code sessionless-device-binding} is on the class
 * path: a {@link DeviceBindingWebFilter} from the same {@code sessionless.device-binding.*}
 * properties as the servlet side, on the application's {@link KeySource}, beside the token {@code
 * WebSession} of {@link SessionlessWebFluxAutoConfiguration}. The filter is a {@code WebFilter}
 * bean ordered {@link DeviceBindingWebFilter#DEFAULT_ORDER} (-150), ahead of Spring Security's
 * {@code WebFilterChainProxy} (-100): as on the servlet side, the registration and refresh
 * endpoints are answered before the security chain and never reach its CSRF check (the proof
 * authenticates them) or its header writers. The application offers registration with {@link
 * DeviceBindingWebFilter#offerRegistration} after login. A setting out of range fails the startup
 * naming the property. As on the servlet side, the application's {@link RevocationStore} (if it
 * has one) records used challenges, so a replayed refresh proof is refused on every instance the
 * store reaches; its look-up is the store's in-memory copy, and the filter runs the two endpoints
 * off the event loop for the write.
 */
@AutoConfiguration(after = SessionlessWebFluxAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({DeviceBindingWebFilter.class, SessionlessWebSessionManager.class})
@ConditionalOnBooleanProperty(name = "sessionless.device-binding.enabled")
@ConditionalOnBean(SessionlessWebSessionManager.class)
@EnableConfigurationProperties(DeviceBindingProperties.class)
public class SessionlessReactiveDeviceBindingAutoConfiguration {
  /** Used by Spring; applications do not construct this class. */
  public SessionlessReactiveDeviceBindingAutoConfiguration() {}

  /**
   * The filter, from {@code sessionless.device-binding.*} and the application's revocation store
   * if it has one, then every {@link DeviceBindingWebFilterCustomizer}; issuer and algorithm
   * default to the session's.
   *
   * @throws SessionlessStartupException naming the property when a setting is refused
   */
  @Bean
  @ConditionalOnMissingBean(DeviceBindingWebFilter.class)
  public DeviceBindingWebFilter deviceBindingWebFilter(DeviceBindingProperties p, SessionlessProperties session,
      KeySource keys, Environment environment, ObjectProvider<DeviceBindingWebFilterCustomizer> customizers,
      ObjectProvider<RevocationSource> revocation) {
    DeviceBindingWebFilterBuilder b = DeviceBindingWebFilter.builder();
    return DeviceBindingSettings.build(b, p, session, keys, environment, RevocationFactory.single(revocation),
        () -> customizers.orderedStream().forEach(c -> c.customize(b)), b::build);
  }
}
