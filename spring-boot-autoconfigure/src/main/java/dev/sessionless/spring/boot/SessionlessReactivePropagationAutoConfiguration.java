package dev.sessionless.spring.boot;

import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.reactive.EdgeContextWebFilter;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import dev.sessionless.propagation.reactive.JwksWebHandler;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Internal tokens in a reactive (WebFlux) application, the twin of {@link
 * SessionlessPropagationAutoConfiguration} with the same {@code sessionless.propagation.*}
 * properties: the receiving side when {@code sessionless.propagation.receive.audience} is set,
 * the sending side when {@code sessionless.propagation.send.issuer} is set.
 *
 * <p><b>Receiving</b>: the {@link InternalTokenIssuers}, the {@link InternalTokenVerifier} (with
 * the application's {@link dev.sessionless.core.RevocationSource} bean, or the one {@code
 * sessionless.revocation.*} describes) and an {@link InternalTokenWebFilter}, as the {@code WebFilter} bean {@code
 * sessionlessInternalTokenWebFilter} for {@code receive.url-patterns} (servlet syntax:
 * {@code /*}, {@code /internal/*}, {@code *.json}, exact paths) at {@code receive.filter-order},
 * ahead of Spring Security's chain (-100).
 *
 * <p><b>Sending</b>: the signing keys, {@link InternalTokenMinter}, {@link OutgoingTokens} when
 * {@code send.grants} names a callee (a gateway whose routes name their audiences needs none);
 * the JWKS at {@code send.jwks.path} ({@link JwksWebHandler}) as the {@code WebFilter} bean
 * {@code sessionlessJwksWebFilter}, ahead of every other filter; and an {@link
 * EdgeContextWebFilter} ({@code sessionlessEdgeContextWebFilter}) at {@code
 * send.edge-filter.order}, or 0 when not set: after Spring Security's chain, whose principal is
 * the subject unless {@code send.subject-attribute} names a session attribute. Outgoing
 * WebClients are not wrapped automatically: add {@code new InternalTokenExchangeFilter(outgoing,
 * "orders")}; it takes the exchange's context from Reactor's {@code Context}.
 *
 * <p>Every bean backs off when the application defines its own (of that type, or for the
 * filters, of that name). Incomplete configuration fails the startup with a message that names
 * the property to set.
 */
@AutoConfiguration(afterName = "dev.sessionless.spring.boot.SessionlessAutoConfiguration") // by name: that class needs the Servlet API
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({InternalTokenVerifier.class, InternalTokenWebFilter.class, WebFilter.class})
@EnableConfigurationProperties({SessionlessPropagationProperties.class, SessionlessProperties.class})
@Import({PropagationTokenBeans.Receive.class, PropagationTokenBeans.Send.class})
public class SessionlessReactivePropagationAutoConfiguration {
  /** The edge filter's order when {@code send.edge-filter.order} is not set: after Spring Security (-100). */
  static final int EDGE_ORDER = 0;

  /** Used by Spring; applications do not construct this class. */
  public SessionlessReactivePropagationAutoConfiguration() {}

  /** The receiving side. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.receive", name = "audience")
  static class Receive {
    /**
     * The filter ({@code 401} without a valid token, {@code 503} on failures on this side) for the
     * configured URL patterns, before Spring Security. Not a bean of its own: WebFlux applies
     * every {@code WebFilter} bean to every path.
     */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessInternalTokenWebFilter")
    WebFilter sessionlessInternalTokenWebFilter(InternalTokenVerifier verifier,
        SessionlessPropagationProperties properties) {
      PropagationReceiveProperties p = properties.getReceive();
      InternalTokenWebFilter.Builder b = InternalTokenWebFilter.builder().verifier(verifier);
      if (p.configuredHeader() != null) {
        b.header(p.configuredHeader());
      }
      InternalTokenWebFilter filter = b.build();
      if (p.getUrlPatterns().isEmpty() || p.getUrlPatterns().stream().anyMatch(s -> s == null || s.isBlank())) {
        throw new IllegalStateException("sessionless.propagation.receive.url-patterns is empty: list the paths"
            + " that require an internal token (e.g. /internal/*), or leave it unset for every request (/*)");
      }
      return new Placed(filter, p.getFilterOrder(), paths(p.getUrlPatterns()));
    }
  }

  /**
   * {@link OutgoingTokens} for {@code WebClient} calls, only when {@code send.grants} names a
   * callee: without one an application that calls no service by name (a gateway whose routes name
   * their audiences) still starts; one that injects {@code OutgoingTokens} gets no bean instead.
   */
  @Configuration(proxyBeanMethods = false)
  @Conditional(PropagationTokenBeans.GrantsConfigured.class)
  @Import(PropagationTokenBeans.Outgoing.class)
  static class OutgoingWhenGranted {}

  /** The sending side. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
  static class Send {
    /**
     * Publishes the signing keys' public parts at {@code sessionless.propagation.send.jwks.path},
     * ahead of every other filter (Spring Security's included): the keys are public.
     */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessJwksWebFilter")
    @ConditionalOnBooleanProperty(name = "sessionless.propagation.send.jwks.enabled", matchIfMissing = true)
    WebFilter sessionlessJwksWebFilter(SessionlessPropagationProperties properties, InternalTokenSigningKeys keys) {
      PropagationSendProperties.Jwks p = properties.getSend().getJwks();
      if (p.getPath() == null || !p.getPath().startsWith("/") || p.getPath().contains("*")) {
        throw new IllegalStateException("sessionless.propagation.send.jwks.path must be a path starting with /"
            + " (no wildcard), e.g. /.well-known/jwks.json");
      }
      JwksWebHandler handler;
      try {
        handler = JwksWebHandler.builder().keys(keys.keyring()).maxAge(p.getMaxAge()).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("sessionless.propagation.send.jwks.max-age: " + e.getMessage(), e);
      }
      return new Placed(handler.at(p.getPath()), SessionlessPropagationAutoConfiguration.JWKS_ORDER, path -> true);
    }

    /**
     * Gives each exchange the session and trace for outgoing calls; after Spring Security's
     * chain unless {@code send.edge-filter.order} says otherwise, so that its principal is known.
     */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessEdgeContextWebFilter")
    @ConditionalOnBooleanProperty(name = "sessionless.propagation.send.edge-filter.enabled", matchIfMissing = true)
    WebFilter sessionlessEdgeContextWebFilter(SessionlessPropagationProperties properties) {
      PropagationSendProperties p = properties.getSend();
      EdgeContextWebFilter.Builder b = EdgeContextWebFilter.builder();
      if (p.getSubjectAttribute() != null) {
        b.subjectAttribute(p.getSubjectAttribute());
      }
      Integer order = p.getEdgeFilter().getOrder();
      return new Placed(b.build(), order != null ? order : EDGE_ORDER, path -> true);
    }
  }

  /**
   * Which request paths servlet-style URL patterns take: {@code /*} every path, {@code /a/*}
   * {@code /a} and below, {@code *.ext} paths ending in {@code .ext}, anything else exactly.
   */
  static Predicate<String> paths(List<String> patterns) {
    Predicate<String> any = path -> false;
    for (String pattern : patterns) {
      Predicate<String> one;
      if (pattern.equals("/*") || pattern.equals("/")) {
        one = path -> true;
      } else if (pattern.endsWith("/*")) {
        String base = pattern.substring(0, pattern.length() - 2);
        one = path -> path.equals(base) || path.startsWith(base + "/");
      } else if (pattern.startsWith("*.")) {
        String suffix = pattern.substring(1);
        one = path -> path.endsWith(suffix);
      } else {
        one = pattern::equals;
      }
      any = any.or(one);
    }
    return any;
  }

  /** A filter at an order, for the request paths that {@code paths} takes; others pass on untouched. */
  static final class Placed implements WebFilter, Ordered {
    private final WebFilter filter;
    private final int order;
    private final Predicate<String> paths;

    Placed(WebFilter filter, int order, Predicate<String> paths) {
      this.filter = Objects.requireNonNull(filter, "filter");
      this.order = order;
      this.paths = paths;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
      return paths.test(exchange.getRequest().getPath().pathWithinApplication().value())
          ? filter.filter(exchange, chain) : chain.filter(exchange);
    }

    @Override
    public int getOrder() {
      return order;
    }

    @Override
    public String toString() {
      return filter + "@" + order;
    }
  }
}
