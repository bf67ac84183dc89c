package dev.sessionless.spring.boot.security;

import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.spring.boot.SessionlessAutoConfiguration;
import dev.sessionless.spring.boot.SessionlessProperties;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import jakarta.servlet.Filter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.web.AuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.DelegatingSecurityContextRepository;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.savedrequest.RequestCache;
import org.springframework.security.web.session.ConcurrentSessionFilter;

/**
 * Makes Spring Security keep its state in the token session as plain values: the security
 * context ({@link SessionlessSecurityContextRepository}), the CSRF token ({@link
 * SessionlessCsrfTokenRepository}) and the saved request ({@link SessionlessRequestCache}); and,
 * through a small filter right after the Sessionless one, the last login failure the login page
 * shows (as its kind and message).
 *
 * <p>They reach every filter chain built from Spring's {@code HttpSecurity} — Boot's default
 * chain and the application's own {@code SecurityFilterChain} beans — through a {@code
 * Customizer<HttpSecurity>} bean, which Spring Security applies to every {@code HttpSecurity}
 * before the application configures it; so an application that sets its own repository in its
 * chain still wins. Each repository bean backs off when the application defines a bean of its
 * Spring Security type ({@code SecurityContextRepository}, {@code CsrfTokenRepository}, {@code
 * RequestCache}), and then the application's bean is the one applied.
 *
 * <p>With Spring Security's OAuth2 client on the class path, OAuth2/OIDC login keeps its
 * authorization request in the token session ({@link SessionlessAuthorizationRequestRepository})
 * and the logged-in user as values (the registration id and the ID token's claims).
 *
 * <p>Only in a servlet web application; {@link SessionlessReactiveSecurityAutoConfiguration} is
 * the reactive one.
 *
 * <p>A chain whose session state cannot be represented as values fails the startup, naming the
 * filter: SAML login (it keeps its authentication request in the session) and concurrent-session
 * control (it needs a server-side session registry).
 */
@AutoConfiguration(after = SessionlessAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({HttpSecurity.class, SecurityFilterChain.class})
@ConditionalOnBean(SessionlessFilter.class)
@ConditionalOnBooleanProperty(name = "sessionless.security.enabled", matchIfMissing = true)
public class SessionlessSecurityAutoConfiguration {
  /** Filters whose state lives in the session as objects no token can hold, by class name. */
  private static final Map<String, String> UNREPRESENTABLE = Map.of(
      "org.springframework.security.saml2.provider.service.web.Saml2WebSsoAuthenticationRequestFilter",
      "SAML login (saml2Login()) keeps its authentication request in the session",
      ConcurrentSessionFilter.class.getName(),
      "concurrent-session control (sessionManagement().maximumSessions()) needs a server-side"
          + " session registry");

  /** Used by Spring; applications do not construct this class. */
  public SessionlessSecurityAutoConfiguration() {}

  /** The security context as values in the token session. */
  @Bean
  @ConditionalOnMissingBean(SecurityContextRepository.class)
  public SessionlessSecurityContextRepository sessionlessSecurityContextRepository() {
    return new SessionlessSecurityContextRepository();
  }

  /** The CSRF token as a string in the token session. */
  @Bean
  @ConditionalOnMissingBean(CsrfTokenRepository.class)
  public SessionlessCsrfTokenRepository sessionlessCsrfTokenRepository() {
    return new SessionlessCsrfTokenRepository();
  }

  /** The saved request as its URL in the token session. */
  @Bean
  @ConditionalOnMissingBean(RequestCache.class)
  public SessionlessRequestCache sessionlessRequestCache() {
    return new SessionlessRequestCache();
  }

  /**
   * Applies the three to every {@code HttpSecurity}; request-attribute storage stays in front
   * of the session, as in Spring Security's default.
   */
  @Bean
  public Customizer<HttpSecurity> sessionlessHttpSecurityCustomizer(
      SecurityContextRepository contexts, CsrfTokenRepository csrf, RequestCache cache) {
    return http -> {
      try {
        http.securityContext(c -> c.securityContextRepository(
                new DelegatingSecurityContextRepository(new RequestAttributeSecurityContextRepository(), contexts)))
            .csrf(c -> c.csrfTokenRepository(csrf))
            .requestCache(c -> c.requestCache(cache));
      } catch (Exception e) {
        throw new IllegalStateException("cannot apply Sessionless to HttpSecurity", e);
      }
    };
  }

  /**
   * Keeps the last login failure (which Spring Security stores in the session as an exception,
   * for the login page) as its kind and message; registered right after the Sessionless filter.
   */
  @Bean
  @ConditionalOnMissingBean(name = "sessionlessAuthenticationFailureRegistration")
  public FilterRegistrationBean<?> sessionlessAuthenticationFailureRegistration(SessionlessProperties properties) {
    FilterRegistrationBean<AuthenticationFailureValues> reg = new FilterRegistrationBean<>(new AuthenticationFailureValues());
    reg.setName("sessionlessAuthenticationFailureFilter");
    reg.setOrder(properties.getFilter().getOrder() + 1);
    reg.setDispatcherTypes(EnumSet.allOf(DispatcherType.class));
    reg.setAsyncSupported(true);
    reg.addUrlPatterns("/*");
    return reg;
  }

  /** Fails the startup when a chain keeps state that cannot be represented as values. */
  @Bean
  public static SmartInitializingSingleton sessionlessSecurityChainCheck(ListableBeanFactory beans) {
    return () -> {
      List<String> problems = new ArrayList<>();
      beans.getBeansOfType(SecurityFilterChain.class).forEach((name, chain) -> {
        for (Filter f : chain.getFilters()) {
          String why = UNREPRESENTABLE.get(f.getClass().getName());
          if (why != null) {
            problems.add("security filter chain '" + name + "': " + why);
          }
        }
      });
      if (!problems.isEmpty()) {
        throw new IllegalStateException("Sessionless cannot keep this Spring Security state in a token session: "
            + String.join("; ", problems) + ". Remove that feature from the chain, or set"
            + " sessionless.enabled=false to use container sessions");
      }
    };
  }

  /** OAuth2/OIDC login, when Spring Security's OAuth2 client is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.security.oauth2.client.web.AuthorizationRequestRepository")
  static class OAuth2Login {
    /** The authorization request (state, nonce, PKCE verifier) as values in the token session. */
    @Bean
    @ConditionalOnMissingBean(AuthorizationRequestRepository.class)
    SessionlessAuthorizationRequestRepository sessionlessAuthorizationRequestRepository() {
      return new SessionlessAuthorizationRequestRepository();
    }

    /** Puts that repository into every chain's {@code oauth2Login()} filters. */
    @Bean
    static BeanPostProcessor sessionlessOAuth2LoginRequests(
        ObjectProvider<AuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository) {
      return new OAuth2LoginRequests(repository);
    }
  }
}
