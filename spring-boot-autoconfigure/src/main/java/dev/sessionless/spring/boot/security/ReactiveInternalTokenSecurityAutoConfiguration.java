package dev.sessionless.spring.boot.security;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import dev.sessionless.spring.boot.SessionlessPropagationProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.csrf.CsrfWebFilter;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Spring Security for internal tokens on WebFlux, the twin of {@link
 * InternalTokenSecurityAutoConfiguration}: a {@code Customizer<ServerHttpSecurity>} bean, which
 * Spring Security applies to every {@code ServerHttpSecurity} (Boot's default chain and the
 * application's), so that an exchange that {@code InternalTokenWebFilter} let through
 *
 * <ul>
 *   <li>is authenticated as an {@link InternalTokenAuthentication} for that exchange only (in
 *       Reactor's {@code Context} before the anonymous filter, never saved in a {@code
 *       WebSession}): {@code hasRole("INTERNAL")}, {@code exchange.getPrincipal()} and {@code
 *       ReactiveSecurityContextHolder} see it;
 *   <li>needs no CSRF token (a bearer token is not sent by browsers on their own): the CSRF
 *       filter's default rule, except for these exchanges. An application that sets its own
 *       {@code csrf().requireCsrfProtectionMatcher(...)} replaces this exemption.
 * </ul>
 *
 * <p>Exchanges without a token on the covered paths never reach Spring Security: the filter
 * answers them {@code 401}. The receiving filter must run before Spring Security's chain (-100):
 * a later {@code sessionless.propagation.receive.filter-order} fails the startup. To do otherwise,
 * define a bean named {@code sessionlessInternalTokenServerHttpSecurityCustomizer}. REACTIVE
 * applications only.
 */
@AutoConfiguration(afterName = "dev.sessionless.spring.boot.SessionlessReactivePropagationAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ServerHttpSecurity.class, SecurityWebFilterChain.class, InternalTokenWebFilter.class})
public class ReactiveInternalTokenSecurityAutoConfiguration {
  /** Spring Security's WebFlux chain order ({@code WebFilterChainProxy} in Boot). */
  static final int SECURITY_ORDER = -100;

  /** Used by Spring; applications do not construct this class. */
  public ReactiveInternalTokenSecurityAutoConfiguration() {}

  /** The receiving side: wherever the propagation auto-configuration made a verifier. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(InternalTokenVerifier.class)
  static class Receive {
    /** Authenticates exchanges carrying a verified internal token; exempts them from CSRF. */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessInternalTokenServerHttpSecurityCustomizer")
    Customizer<ServerHttpSecurity> sessionlessInternalTokenServerHttpSecurityCustomizer(
        SessionlessPropagationProperties properties) {
      int ours = properties.getReceive().getFilterOrder();
      if (ours >= SECURITY_ORDER) {
        throw new IllegalStateException("sessionless.propagation.receive.filter-order is " + ours + ", not before"
            + " Spring Security's WebFlux chain (" + SECURITY_ORDER + "): set it lower, e.g. leave it unset");
      }
      ServerWebExchangeMatcher csrf = exchange -> token(exchange) != null
          ? ServerWebExchangeMatcher.MatchResult.notMatch() : CsrfWebFilter.DEFAULT_CSRF_MATCHER.matches(exchange);
      return http -> http.addFilterBefore(new Authenticate(), SecurityWebFiltersOrder.ANONYMOUS_AUTHENTICATION)
          .csrf(c -> c.requireCsrfProtectionMatcher(csrf));
    }
  }

  private static InternalToken token(ServerWebExchange exchange) {
    Object t = exchange.getAttributes().get(InternalTokenWebFilter.ATTRIBUTE);
    return t instanceof InternalToken ? (InternalToken) t : null;
  }

  /** Puts the exchange's verified internal token into the security context, for this exchange. */
  static final class Authenticate implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
      InternalToken token = token(exchange);
      if (token == null) {
        return chain.filter(exchange);
      }
      return chain.filter(exchange)
          .contextWrite(ReactiveSecurityContextHolder.withAuthentication(new InternalTokenAuthentication(token)));
    }

    /** No state. */
    @Override
    public String toString() {
      return "InternalTokenAuthenticationWebFilter";
    }
  }
}
