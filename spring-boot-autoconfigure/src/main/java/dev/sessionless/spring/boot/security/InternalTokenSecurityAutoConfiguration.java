package dev.sessionless.spring.boot.security;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenFilter;
import dev.sessionless.spring.boot.SessionlessPropagationAutoConfiguration;
import dev.sessionless.spring.boot.SessionlessPropagationProperties;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

/**
 * Spring Security for internal tokens, through {@code Customizer<HttpSecurity>} beans applied
 * to every chain built from {@code HttpSecurity} (Boot's default chain and the application's):
 *
 * <ul>
 *   <li>receiving: a request that {@code InternalTokenFilter} let through is authenticated as an
 *       {@link InternalTokenAuthentication} for that request only (set in the security context
 *       before the anonymous filter, never saved to a session), and needs no CSRF token (a
 *       bearer token is not sent by browsers on their own). Requests without a token on the
 *       covered paths never reach Spring Security: the filter answers them {@code 401}.
 * </ul>
 *
 * <p>The sending side needs nothing here: its JWKS endpoint is served by a filter ahead of
 * Spring Security's chain, so no rule is added to the application's chains.
 *
 * <p>The receiving filter must run before Spring Security's ({@code spring.security.filter.order},
 * -100): a later {@code sessionless.propagation.receive.filter-order} fails the startup. To do
 * otherwise, define a bean named {@code sessionlessInternalTokenHttpSecurityCustomizer} that does
 * what you want instead.
 */
@AutoConfiguration(after = SessionlessPropagationAutoConfiguration.class)
@ConditionalOnClass({HttpSecurity.class, SecurityFilterChain.class, InternalTokenFilter.class})
public class InternalTokenSecurityAutoConfiguration {
  /** Used by Spring; applications do not construct this class. */
  public InternalTokenSecurityAutoConfiguration() {}

  /** The receiving side. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(InternalTokenFilter.class)
  static class Receive {
    /** Authenticates requests carrying a verified internal token; exempts them from CSRF. */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessInternalTokenHttpSecurityCustomizer")
    Customizer<HttpSecurity> sessionlessInternalTokenHttpSecurityCustomizer(
        SessionlessPropagationProperties properties, Environment environment) {
      int security = environment.getProperty("spring.security.filter.order", Integer.class, -100);
      int ours = properties.getReceive().getFilterOrder();
      if (ours >= security) {
        throw new IllegalStateException("sessionless.propagation.receive.filter-order is " + ours + ", not before"
            + " Spring Security's filter chain (spring.security.filter.order, " + security + "): set it lower, e.g."
            + " leave it unset (Integer.MIN_VALUE + 60)");
      }
      return http -> {
        try {
          http.addFilterBefore(new Authenticate(SecurityContextHolder.getContextHolderStrategy()),
              AnonymousAuthenticationFilter.class);
          http.csrf(c -> c.ignoringRequestMatchers(Receive::carriesInternalToken));
        } catch (Exception e) {
          throw new IllegalStateException("cannot apply internal tokens to HttpSecurity", e);
        }
      };
    }

    private static boolean carriesInternalToken(HttpServletRequest request) {
      return request.getAttribute(InternalTokenFilter.ATTRIBUTE) instanceof InternalToken;
    }
  }

  /** Puts the request's verified internal token into the security context, for this request. */
  static final class Authenticate implements Filter {
    private final SecurityContextHolderStrategy contexts;

    Authenticate(SecurityContextHolderStrategy contexts) {
      this.contexts = contexts;
    }

    @Override
    public void doFilter(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response,
        jakarta.servlet.FilterChain chain) throws java.io.IOException, jakarta.servlet.ServletException {
      Object token = request.getAttribute(InternalTokenFilter.ATTRIBUTE);
      if (token instanceof InternalToken) {
        SecurityContext context = contexts.createEmptyContext();
        context.setAuthentication(new InternalTokenAuthentication((InternalToken) token));
        contexts.setContext(context);
      }
      chain.doFilter(request, response);
    }
  }
}
