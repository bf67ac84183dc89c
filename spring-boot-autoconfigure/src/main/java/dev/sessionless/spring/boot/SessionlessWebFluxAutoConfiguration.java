package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.StateMapper;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import dev.sessionless.webflux.SessionlessWebSessionManagerBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

/**
 * Makes every {@code WebSession} of a WebFlux application a token: the {@code webSessionManager}
 * bean (the name WebFlux looks up, and the one Boot's own WebFlux auto-configuration backs off
 * for) is a {@link SessionlessWebSessionManager} built from the same {@code sessionless.*}
 * properties as the servlet filter, with the same keyring, attribute mapper, revocation source
 * and startup warnings ({@code SessionlessSessionBeans}).
 *
 * <p>Runs only in a reactive web application; {@link SessionlessAutoConfiguration} only in a
 * servlet one. Backs off when the application defines a bean named {@code webSessionManager}. A
 * {@link SessionlessWebSessionManagerCustomizer} bean adjusts the builder last.
 *
 * <p>Not on this stack: {@code sessionless.header} (a header instead of a cookie) and {@code
 * sessionless.on-bad-attribute} (the servlet filter's answer to an unregistered attribute type;
 * here such a {@code put} throws at once); setting either fails the startup, naming it. Boot's
 * {@code server.reactive.session.*} settings are for its in-memory sessions and do not apply.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
    beforeName = "org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({SessionlessWebSessionManager.class, WebHttpHandlerBuilder.class})
@ConditionalOnBooleanProperty(name = "sessionless.enabled", matchIfMissing = true)
@Import(SessionlessSessionBeans.class)
public class SessionlessWebFluxAutoConfiguration {
  private static final Log LOG = LogFactory.getLog(SessionlessWebFluxAutoConfiguration.class);

  /** Used by Spring; applications do not construct this class. */
  public SessionlessWebFluxAutoConfiguration() {}

  /**
   * The session manager, configured from {@code sessionless.*}, given the application's {@link
   * RevocationSource} if it has one (else the servlet side's warning that logout is not
   * binding), then every {@link SessionlessWebSessionManagerCustomizer}.
   *
   * @throws SessionlessStartupException naming {@code sessionless.algorithm=HS256} when the
   *     algorithm is the default (DIR_A256GCM) but the keys hold only keys that sign
   * @throws IllegalStateException naming {@code sessionless.header} or {@code
   *     sessionless.on-bad-attribute} when set, which this stack does not support
   */
  @Bean(name = WebHttpHandlerBuilder.WEB_SESSION_MANAGER_BEAN_NAME)
  @ConditionalOnMissingBean(name = WebHttpHandlerBuilder.WEB_SESSION_MANAGER_BEAN_NAME)
  public SessionlessWebSessionManager webSessionManager(SessionlessProperties properties, KeySource keys,
      StateMapper stateMapper, Environment environment, ObjectProvider<RevocationSource> revocation,
      ObjectProvider<SessionlessWebSessionManagerCustomizer> customizers) {
    if (properties.getHeader() != null) {
      throw new IllegalStateException("sessionless.header is set, but a WebFlux application keeps its session in"
          + " a cookie only: remove sessionless.header");
    }
    if (environment.containsProperty("sessionless.on-bad-attribute")) {
      throw new IllegalStateException("sessionless.on-bad-attribute is set, but it is the servlet filter's: in a"
          + " WebFlux application a session attribute of an unregistered type fails its put at once. Remove it,"
          + " and list the type in sessionless.attribute-types");
    }
    SessionlessWebSessionManagerBuilder b = SessionlessWebSessionManager.builder();
    Algorithm algorithm = SessionOptions.apply(SessionOptions.of(b), properties, keys, stateMapper, environment,
        null, true);
    RevocationSource source = RevocationFactory.single(revocation);
    if (source != null) {
      b.revocation(source);
    } else {
      LOG.warn(SessionlessAutoConfiguration.UNBINDING_LOGOUT + " (sessionless.absolute-lifetime is "
          + properties.getAbsoluteLifetime() + " here)");
    }
    customizers.orderedStream().forEach(c -> c.customize(b));
    try {
      return b.build();
    } catch (IllegalStateException e) {
      throw SessionOptions.explain(e, algorithm, keys);
    }
  }
}
