package dev.sessionless.gateway;

import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.reactive.JwksWebHandler;
import dev.sessionless.spring.boot.InternalTokenSigningKeys;
import dev.sessionless.spring.boot.PropagationFactory;
import dev.sessionless.spring.boot.PropagationSendProperties;
import dev.sessionless.spring.boot.SessionlessPropagationProperties;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.session.CookieWebSessionIdResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;

/**
 * Spring Cloud Gateway (WebFlux) as the edge: in a reactive application with the gateway and
 * {@code sessionless-propagation} on the class path and {@code
 * sessionless.propagation.send.issuer} set, registers the route filter {@code
 * SessionlessInternalToken} ({@link SessionlessInternalTokenGatewayFilterFactory}) and the JWKS
 * endpoint the services verify from, configured from {@code sessionless.propagation.send.*} as
 * the servlet side is: the issuer, the key file (re-read when it changes, so a rotation needs no
 * restart), the algorithm, the time to live, the grants, the header and the JWKS path and
 * max-age. {@code sessionless.propagation.send.subject-attribute} names the {@code WebSession}
 * attribute holding the user id; {@code sessionless.gateway.session-cookies} the cookies that stay
 * at the gateway.
 *
 * <p>Every bean backs off when the application defines its own of that type ({@link
 * EdgeSessionResolver} to take sessions from elsewhere, {@link InternalTokenMinter}, {@link
 * InternalTokenSigningKeys}), the JWKS endpoint when {@code
 * sessionless.propagation.send.jwks.enabled=false}. Incomplete configuration fails the startup
 * with a message that names the property to set.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({GatewayFilterFactory.class, InternalTokenMinter.class, SessionlessPropagationProperties.class})
@ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
@EnableConfigurationProperties({SessionlessPropagationProperties.class, SessionlessGatewayProperties.class})
public class SessionlessGatewayAutoConfiguration {
  /** WebFlux's own session cookie name, kept at the gateway by default too when its manager is not the default. */
  static final String WEBFLUX_SESSION_COOKIE = "SESSION";

  /** The JWKS endpoint's web filter order: ahead of Spring Security's chain and everything else. */
  static final int JWKS_ORDER = Ordered.HIGHEST_PRECEDENCE + 40;

  /** Used by Spring; applications do not construct this class. */
  public SessionlessGatewayAutoConfiguration() {}

  /** The signing keys of {@code sessionless.propagation.send.keys-file}; closed with the context. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  InternalTokenSigningKeys sessionlessInternalTokenSigningKeys(SessionlessPropagationProperties properties) {
    return PropagationFactory.signingKeys(properties.getSend());
  }

  /** The minter: the gateway's issuer, keys and token lifetime. */
  @Bean
  @ConditionalOnMissingBean
  InternalTokenMinter sessionlessInternalTokenMinter(SessionlessPropagationProperties properties,
      InternalTokenSigningKeys keys) {
    return PropagationFactory.minter(properties.getSend(), keys);
  }

  /** Sessions from the authenticated principal and the {@code WebSession}. */
  @Bean
  @ConditionalOnMissingBean
  EdgeSessionResolver sessionlessEdgeSessionResolver(SessionlessPropagationProperties properties) {
    return EdgeSessionResolver.principalAndWebSession(properties.getSend().getSubjectAttribute());
  }

  /** The route filter {@code SessionlessInternalToken}. */
  @Bean
  @ConditionalOnMissingBean
  SessionlessInternalTokenGatewayFilterFactory sessionlessInternalTokenGatewayFilterFactory(
      SessionlessPropagationProperties properties, SessionlessGatewayProperties gateway, InternalTokenMinter minter,
      EdgeSessionResolver sessions, Environment environment, ObjectProvider<WebSessionManager> webSessions) {
    PropagationSendProperties p = properties.getSend();
    return new SessionlessInternalTokenGatewayFilterFactory(minter, sessions, p.getHeader(), p.getGrants(),
        sessionCookies(gateway, environment, webSessions.getIfUnique()));
  }

  /**
   * The JWKS endpoint ({@link JwksWebHandler}) at {@code sessionless.propagation.send.jwks.path},
   * ahead of every other web filter, Spring Security's chain ({@code -100}) included: the keys
   * are public, and the application's security rules stay as it wrote them.
   */
  @Bean
  @Order(JWKS_ORDER)
  @ConditionalOnMissingBean(name = "sessionlessJwksWebFilter")
  @ConditionalOnBooleanProperty(name = "sessionless.propagation.send.jwks.enabled", matchIfMissing = true)
  WebFilter sessionlessJwksWebFilter(SessionlessPropagationProperties properties, InternalTokenSigningKeys keys) {
    PropagationSendProperties.Jwks p = properties.getSend().getJwks();
    try {
      return JwksWebHandler.builder().keys(keys.keyring()).maxAge(p.getMaxAge()).build().at(p.getPath());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("sessionless.propagation.send.jwks (path, max-age): " + e.getMessage(), e);
    }
  }

  /**
   * The configured cookies, else the Sessionless cookie's name and the {@code WebSession}'s cookie
   * (the name its {@link CookieWebSessionIdResolver} uses, {@code SESSION} by default).
   */
  static List<String> sessionCookies(SessionlessGatewayProperties gateway, Environment environment,
      WebSessionManager webSessions) {
    if (!gateway.getSessionCookies().isEmpty()) {
      return gateway.getSessionCookies();
    }
    List<String> names = new ArrayList<>();
    names.add(environment.getProperty("sessionless.cookie.name", "SESSIONLESS"));
    String web = WEBFLUX_SESSION_COOKIE;
    if (webSessions instanceof DefaultWebSessionManager d && d.getSessionIdResolver() instanceof CookieWebSessionIdResolver c) {
      web = c.getCookieName();
    }
    if (!names.contains(web)) {
      names.add(web);
    }
    return names;
  }
}
