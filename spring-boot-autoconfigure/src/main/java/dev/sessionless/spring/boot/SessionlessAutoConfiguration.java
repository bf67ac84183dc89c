package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.StateMapper;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.servlet.SessionlessFilterBuilder;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Makes every {@code HttpSession} of a servlet application a token: a live {@link Keyring}
 * from {@code sessionless.keys.*}, a {@link SessionlessFilter} from the other {@code
 * sessionless.*} properties, and its registration ahead of Spring Security's filter chain.
 *
 * <p>Each bean backs off when the application defines its own: a {@link KeySource} (for example
 * a fixed {@code KeySet} or its own {@code Keyring}), a {@link SessionlessFilter}, or a {@code
 * FilterRegistrationBean} named {@code sessionlessFilterRegistration}. The keyring made here is
 * closed with the application context.
 *
 * <p>Session attributes are written and read with the application's own Jackson 3 {@code
 * JsonMapper} bean (Boot's, with its modules, naming strategy and date settings) when there is
 * one, else with Sessionless's default; an application that defines a {@link StateMapper} bean
 * (e.g. {@code Jackson2StateMapper.of(objectMapper)}) uses that instead.
 *
 * <p>Tokens are encrypted by default ({@code sessionless.algorithm=DIR_A256GCM}, compressed
 * with {@code zip: DEF} as the filter does unless {@code sessionless.compress} or {@code
 * sessionless.compression} says otherwise). Startup fails, with a message naming what to set or
 * remove, when no key source is configured, when the keys can only sign under that default (the
 * message names {@code sessionless.algorithm=HS256}), or when Spring Session's {@code
 * SessionRepositoryFilter} is present too (two session mechanisms cannot share the requests:
 * pick one).
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({SessionlessFilter.class, FilterRegistrationBean.class})
@ConditionalOnBooleanProperty(name = "sessionless.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SessionlessProperties.class)
@Import(SessionlessSessionBeans.class)
public class SessionlessAutoConfiguration {
  private static final Log LOG = LogFactory.getLog(SessionlessAutoConfiguration.class);
  private static final String SPRING_SESSION_FILTER = "org.springframework.session.web.http.SessionRepositoryFilter";

  /** Used by Spring; applications do not construct this class. */
  public SessionlessAutoConfiguration() {}

  /**
   * The filter, configured from {@code sessionless.*}, then {@code server.servlet.session.*}
   * where those are unset, then every {@link SessionlessFilterCustomizer}. Logs a warning naming
   * each {@code server.servlet.session.*} property set that token sessions do not honour.
   *
   * @throws SessionlessStartupException naming {@code sessionless.algorithm=HS256} when the
   *     algorithm is the default (DIR_A256GCM) but the keys hold only keys that sign
   */
  @Bean
  @ConditionalOnMissingBean(SessionlessFilter.class)
  public SessionlessFilter sessionlessFilter(SessionlessProperties properties, KeySource keys,
      StateMapper stateMapper, Environment environment,
      ObjectProvider<SessionlessFilterCustomizer> customizers) {
    ServerSessionSettings server = ServerSessionSettings.of(environment);
    for (String name : server.unmapped()) {
      LOG.warn(name + " is set but does not apply to Sessionless token sessions; see the"
          + " sessionless.* properties (the session lives in a token, not in the container)");
    }
    SessionlessFilterBuilder b = SessionlessFilter.builder();
    Algorithm algorithm = SessionOptions.apply(SessionOptions.of(b), properties, keys, stateMapper, environment,
        server, properties.getHeader() == null);
    if (properties.getHeader() != null) {
      b.header(properties.getHeader());
    }
    b.onBadAttribute(properties.getOnBadAttribute());
    customizers.orderedStream().forEach(c -> c.customize(b));
    try {
      return b.build();
    } catch (IllegalStateException e) {
      throw SessionOptions.explain(e, algorithm, keys);
    }
  }

  /**
   * Registers the filter for every dispatcher type, async-supported, at {@code
   * sessionless.filter.order} (Spring Session's order by default).
   *
   * @throws IllegalStateException if Spring Session's {@code SessionRepositoryFilter} is a bean
   */
  @Bean
  @ConditionalOnMissingBean(name = "sessionlessFilterRegistration")
  public FilterRegistrationBean<SessionlessFilter> sessionlessFilterRegistration(SessionlessFilter filter,
      SessionlessProperties properties, ListableBeanFactory beans) {
    refuseSpringSession(beans);
    FilterRegistrationBean<SessionlessFilter> reg = new FilterRegistrationBean<>(filter);
    reg.setName("sessionlessFilter");
    reg.setOrder(properties.getFilter().getOrder());
    reg.setDispatcherTypes(EnumSet.allOf(DispatcherType.class));
    reg.setAsyncSupported(true);
    reg.addUrlPatterns("/*");
    return reg;
  }

  /**
   * Gives the filter the application's {@link RevocationSource} bean, if there is one: every
   * token is checked against it, and with a store {@code invalidate()} (Spring Security's
   * logout) revokes the session, so a copy of its cookie stops working. Of several, the
   * {@code @Primary} one; several without a primary fail the startup.
   */
  @Bean
  @ConditionalOnMissingBean(name = "sessionlessRevocationCustomizer")
  public SessionlessFilterCustomizer sessionlessRevocationCustomizer(ObjectProvider<RevocationSource> revocation,
      SessionlessProperties properties) {
    return b -> {
      RevocationSource source = RevocationFactory.single(revocation);
      if (source != null) {
        b.revocation(source);
      } else {
        LOG.warn(UNBINDING_LOGOUT + " (sessionless.absolute-lifetime is " + properties.getAbsoluteLifetime() + " here)");
      }
    };
  }

  /**
   * The startup warning without revocation, word for word as the root and Boot READMEs state
   * the limitation.
   */
  static final String UNBINDING_LOGOUT = "With sessionless.revocation.type=none (the default) logout is not binding:"
      + " a copied session token stays usable after logout, renewable up to its absolute lifetime"
      + " (sessionless.absolute-lifetime). Set sessionless.revocation.type to memory (one instance), redis or"
      + " published (several instances) to make logout revoke it.";

  /**
   * With Spring MVC: a session attribute of a type {@code sessionless.attribute-types} does not
   * list is logged once per type naming that property, and answered {@code 500} without a stack
   * trace.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
  static class WebMvc {
    @Bean
    @ConditionalOnMissingBean(AttributeTypeResolver.class)
    AttributeTypeResolver sessionlessAttributeTypeResolver() {
      return new AttributeTypeResolver();
    }
  }

  static void refuseSpringSession(ListableBeanFactory beans) {
    ClassLoader loader = SessionlessAutoConfiguration.class.getClassLoader();
    if (!ClassUtils.isPresent(SPRING_SESSION_FILTER, loader)) {
      return;
    }
    Class<?> type = ClassUtils.resolveClassName(SPRING_SESSION_FILTER, loader);
    String[] names = beans.getBeanNamesForType(type, true, false);
    if (names.length > 0) {
      throw new IllegalStateException("Both Sessionless and Spring Session (bean '" + names[0]
          + "') want to own HttpSession: pick one. Remove Spring Session (spring-session-*), or set"
          + " sessionless.enabled=false");
    }
  }
}
