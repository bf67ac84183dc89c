package dev.sessionless.gateway;

import java.net.URI;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The gateway of the end-to-end tests: a Boot WebFlux application with Spring Security's reactive
 * form login (one in-memory user), the routes of {@code edge-gateway.yml} (orders, catalog), the
 * billing route in the Java DSL, an unguarded route that keeps the default policy, and {@code
 * /me/state}, which puts the query's values into the user's {@code WebSession}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class EdgeGatewayApp {
  static final String USER = "alice";
  static final String PASSWORD = "wonderland";

  @Bean
  SecurityWebFilterChain security(ServerHttpSecurity http) {
    return http.authorizeExchange(a -> a.pathMatchers("/catalog/**", "/unguarded/**").permitAll()
            .anyExchange().authenticated())
        .formLogin(Customizer.withDefaults())
        .build();
  }

  @Bean
  MapReactiveUserDetailsService users() {
    return new MapReactiveUserDetailsService(User.withUsername(USER).password("{noop}" + PASSWORD).roles("USER").build());
  }

  @Bean
  RouteLocator billingRoute(RouteLocatorBuilder routes, SessionlessInternalTokenGatewayFilterFactory internalToken,
      Environment environment) {
    URI billingUri = URI.create(environment.getRequiredProperty("edge.billing-uri"));
    // readme-java:start
    return routes.routes()
        .route("billing", r -> r.path("/billing/**")
            .filters(f -> f.stripPrefix(1)
                .filter(internalToken.apply(c -> c.setAudience("billing").setState(List.of("plan")))))
            .uri(billingUri))
        .build();
    // readme-java:end
  }

  /** Open to anyone in Spring Security, so that the filter's default policy is what answers. */
  @Bean
  RouteLocator unguardedRoute(RouteLocatorBuilder routes, SessionlessInternalTokenGatewayFilterFactory internalToken,
      Environment environment) {
    return routes.routes()
        .route("unguarded", r -> r.path("/unguarded/**")
            .filters(f -> f.stripPrefix(1).filter(internalToken.apply(c -> c.setAudience("orders"))))
            .uri(environment.getRequiredProperty("edge.orders-uri")))
        .build();
  }

  @Bean
  RouterFunction<ServerResponse> me() {
    return RouterFunctions.route().GET("/me/state", request -> request.session().flatMap(session -> {
      request.queryParams().toSingleValueMap().forEach(session.getAttributes()::put);
      return ServerResponse.noContent().build();
    })).build();
  }
}
