package dev.sessionless.spring.boot.security;

import dev.sessionless.spring.boot.SessionlessWebFluxAutoConfiguration;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.oauth2.client.registration.ReactiveClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.server.ServerAuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.ServerSecurityContextRepository;
import org.springframework.security.web.server.csrf.ServerCsrfTokenRepository;
import org.springframework.security.web.server.savedrequest.ServerRequestCache;
import reactor.core.publisher.Mono;

/**
 * Makes Spring Security's reactive stack keep its state in the token {@code WebSession} as the
 * same plain values as the servlet side: the security context ({@link
 * SessionlessServerSecurityContextRepository}), the CSRF token ({@link
 * SessionlessServerCsrfTokenRepository}), the saved request ({@link
 * SessionlessServerRequestCache}) and, with the OAuth2 client, the authorization request ({@link
 * SessionlessServerAuthorizationRequestRepository}).
 *
 * <p>They reach every chain built from Spring Security's {@code ServerHttpSecurity} — Boot's
 * default chain and the application's own {@code SecurityWebFilterChain} beans — through a
 * {@code Customizer<ServerHttpSecurity>} bean, which Spring Security applies to every {@code
 * ServerHttpSecurity} before the application configures it (the reactive twin of what {@link
 * SessionlessSecurityAutoConfiguration} does with {@code HttpSecurity}); so an application that
 * sets its own repository in its chain still wins, and each repository bean backs off when the
 * application defines a bean of its Spring Security type. A login is recorded on the token (its
 * subject and {@code auth_time}, and a new session id) through {@link
 * SessionlessWebSessionManager#loggedIn}.
 *
 * <p>Only in a reactive web application whose session manager is Sessionless's; the servlet
 * security auto-configuration stays servlet-only.
 */
@AutoConfiguration(after = SessionlessWebFluxAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ServerHttpSecurity.class, SecurityWebFilterChain.class, SessionlessWebSessionManager.class})
@ConditionalOnBean(SessionlessWebSessionManager.class)
@ConditionalOnBooleanProperty(name = "sessionless.security.enabled", matchIfMissing = true)
public class SessionlessReactiveSecurityAutoConfiguration {
  /** Used by Spring; applications do not construct this class. */
  public SessionlessReactiveSecurityAutoConfiguration() {}

  /** The security context as values in the token session; a login marks the token. */
  @Bean
  @ConditionalOnMissingBean(ServerSecurityContextRepository.class)
  public SessionlessServerSecurityContextRepository sessionlessServerSecurityContextRepository() {
    return new SessionlessServerSecurityContextRepository((session, name) -> Mono.defer(() -> {
      try {
        SessionlessWebSessionManager.loggedIn(session, name);
        return Mono.<Void>empty();
      } catch (IllegalArgumentException notOurs) {
        // A WebSession of another manager: fixation still needs a new id, which is all that
        // session can record.
        return session.changeSessionId();
      }
    }));
  }

  /** The CSRF token as a string in the token session. */
  @Bean
  @ConditionalOnMissingBean(ServerCsrfTokenRepository.class)
  public SessionlessServerCsrfTokenRepository sessionlessServerCsrfTokenRepository() {
    return new SessionlessServerCsrfTokenRepository();
  }

  /** The saved request as its URL in the token session. */
  @Bean
  @ConditionalOnMissingBean(ServerRequestCache.class)
  public SessionlessServerRequestCache sessionlessServerRequestCache() {
    return new SessionlessServerRequestCache();
  }

  /** Applies the three to every {@code ServerHttpSecurity}, before the application's own settings. */
  @Bean
  public Customizer<ServerHttpSecurity> sessionlessServerHttpSecurityCustomizer(
      ServerSecurityContextRepository contexts, ServerCsrfTokenRepository csrf, ServerRequestCache cache) {
    return http -> http.securityContextRepository(contexts)
        .csrf(c -> c.csrfTokenRepository(csrf))
        .requestCache(c -> c.requestCache(cache));
  }

  /** OAuth2/OIDC login, when Spring Security's OAuth2 client is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.security.oauth2.client.web.server.ServerAuthorizationRequestRepository")
  static class OAuth2Login {
    /** The authorization request (state, nonce, PKCE verifier) as values in the token session. */
    @Bean
    @ConditionalOnMissingBean(ServerAuthorizationRequestRepository.class)
    SessionlessServerAuthorizationRequestRepository sessionlessServerAuthorizationRequestRepository() {
      return new SessionlessServerAuthorizationRequestRepository();
    }

    /** Puts that repository into every chain's {@code oauth2Login()} filters. */
    @Bean
    static BeanPostProcessor sessionlessServerOAuth2LoginRequests(
        ObjectProvider<ServerAuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository,
        ObjectProvider<ReactiveClientRegistrationRepository> registrations) {
      return new ServerOAuth2LoginRequests(repository, registrations);
    }
  }
}
