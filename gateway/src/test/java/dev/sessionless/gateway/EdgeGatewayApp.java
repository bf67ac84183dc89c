package dev.sessionless.gateway;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.ConfigurableApplicationContext;
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

  /**
   * Starts this gateway on a free loopback port with {@code edge-gateway.yml}, signing with the
   * keys of {@code keysFile}, its routes to {@code orders} and {@code billing}, and {@code more}
   * properties.
   */
  static ConfigurableApplicationContext start(Path keysFile, URI orders, URI billing, String... more) {
    List<String> properties = new ArrayList<>(List.of("spring.config.name=edge-gateway", "server.port=0",
        "server.address=127.0.0.1", "edge.keys-file=" + keysFile, "edge.orders-uri=" + orders,
        "edge.billing-uri=" + billing));
    properties.addAll(List.of(more));
    return new SpringApplicationBuilder(EdgeGatewayApp.class).web(WebApplicationType.REACTIVE)
        .properties(properties.toArray(String[]::new)).run();
  }

  /** The root URI of a gateway {@link #start} started. */
  static URI root(ConfigurableApplicationContext gateway) {
    return URI.create("http://127.0.0.1:" + gateway.getEnvironment().getRequiredProperty("local.server.port"));
  }

  /** Closes each of {@code resources} that is not null, in order (what a test's start made). */
  static void closeAll(AutoCloseable... resources) throws Exception {
    for (AutoCloseable r : resources) {
      if (r != null) {
        r.close();
      }
    }
  }

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
