package dev.sessionless.gateway;

import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.spring.boot.PropagationSendProperties;
import dev.sessionless.spring.boot.SessionlessPropagationProperties;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.server.session.CookieWebSessionIdResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;

/**
 * Spring Cloud Gateway (WebFlux) as the edge: in a reactive application with the gateway on the
 * class path and {@code sessionless.propagation.send.issuer} set, registers the route filter
 * {@code SessionlessInternalToken} ({@link SessionlessInternalTokenGatewayFilterFactory}).
 *
 * <p>Everything else the gateway needs comes from {@code
 * SessionlessReactivePropagationAutoConfiguration} (in {@code
 * sessionless-spring-boot-autoconfigure}), configured by the same {@code
 * sessionless.propagation.send.*} properties as on servlets: the signing keys of {@code
 * keys-file} (re-read when the file changes, so a rotation needs no restart), the {@link
 * InternalTokenMinter} (issuer, algorithm, time to live) and the JWKS endpoint at {@code
 * jwks.path}, ahead of Spring Security. This class adds the route filter, with the grants and
 * header of {@code sessionless.propagation.send.*}, an {@link EdgeSessionResolver} ({@code
 * subject-attribute}), and the cookies that stay at the gateway ({@code
 * sessionless.gateway.session-cookies}).
 *
 * <p>The token profile is the deployment's, {@code sessionless.propagation.profile}, as on every
 * other service: with {@code txn-token} the minter (made by that auto-configuration from {@code
 * send.trust-domain} and {@code send.scope}) mints Transaction Tokens and the route filter sends
 * them in {@code Txn-Token}, unless {@code send.header} names another header. A gateway with
 * {@code txn-token} and no {@code send.scope} fails its startup naming the property: it mints
 * every token at the edge, where the draft's scope is required.
 *
 * <p>Each bean backs off when the application defines its own of that type ({@link
 * EdgeSessionResolver} to take sessions from elsewhere).
 */
@AutoConfiguration(afterName = "dev.sessionless.spring.boot.SessionlessReactivePropagationAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({GatewayFilterFactory.class, InternalTokenMinter.class, SessionlessPropagationProperties.class})
@ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
@EnableConfigurationProperties({SessionlessPropagationProperties.class, SessionlessGatewayProperties.class})
public class SessionlessGatewayAutoConfiguration {
  /** WebFlux's own session cookie name, kept at the gateway when its session manager says no other. */
  static final String WEBFLUX_SESSION_COOKIE = "SESSION";

  /** Used by Spring; applications do not construct this class. */
  public SessionlessGatewayAutoConfiguration() {}

  /** Sessions from the authenticated principal and the {@code WebSession}. */
  @Bean
  @ConditionalOnMissingBean
  EdgeSessionResolver sessionlessEdgeSessionResolver(SessionlessPropagationProperties properties) {
    return EdgeSessionResolver.principalAndWebSession(properties.getSend().getSubjectAttribute());
  }

  /** The route filter {@code SessionlessInternalToken}, minting with the application's minter. */
  @Bean
  @ConditionalOnBean(InternalTokenMinter.class)
  @ConditionalOnMissingBean
  SessionlessInternalTokenGatewayFilterFactory sessionlessInternalTokenGatewayFilterFactory(
      SessionlessPropagationProperties properties, SessionlessGatewayProperties gateway, InternalTokenMinter minter,
      EdgeSessionResolver sessions, Environment environment, ObjectProvider<WebSessionManager> webSessions) {
    PropagationSendProperties p = properties.getSend();
    boolean txnFromProperties = minter.profile() == TokenProfile.TXN_TOKEN
        && TokenProfile.TXN_TOKEN.propertyValue().equals(properties.getProfile());
    if (txnFromProperties && p.getScope().isEmpty()) {
      throw new IllegalStateException("sessionless.propagation.profile=txn-token at the gateway needs"
          + " sessionless.propagation.send.scope: the scope of every Transaction Token the gateway mints for a"
          + " routed request (e.g. shop.browse)");
    }
    // Unset: the profile's header (Authorization or Txn-Token), not getHeader()'s Authorization default.
    return new SessionlessInternalTokenGatewayFilterFactory(minter, sessions,
        environment.getProperty("sessionless.propagation.send.header"), p.getGrants(),
        sessionCookies(gateway, environment, webSessions.getIfUnique()));
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
