package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilterBuilder;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
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
    DeviceBindingFilterBuilder b = DeviceBindingFilter.builder();
    return DeviceBindingSettings.build(b, p, session, keys, environment, RevocationFactory.single(revocation),
        () -> customizers.orderedStream().forEach(c -> c.customize(b)), b::build);
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
