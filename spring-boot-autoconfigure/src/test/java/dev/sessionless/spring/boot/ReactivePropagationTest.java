package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.reactive.ReactiveCallContext;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Two Boot WebFlux applications on Reactor Netty (random ports, loopback) configured only by
 * {@code sessionless.propagation.*}: an edge with Spring Security's default reactive
 * configuration (HTTP Basic) that sends, and an orders service that receives, verifying the
 * edge's tokens from the edge's JWKS over real HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ReactivePropagationTest {
  static final String EDGE = "https://edge.internal";
  /** Where the edge's handler calls orders, set once orders has started. */
  static final AtomicReference<String> ORDERS_URL = new AtomicReference<>();

  private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private Path edgeKeys;
  private int edgePort;
  private int ordersPort;

  /** The edge: Spring Security's defaults, and a page that calls orders on the user's behalf. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class EdgeApp {
    @Bean
    RouterFunction<ServerResponse> checkout(OutgoingTokens outgoing) {
      WebClient orders = WebClient.builder().filter(new InternalTokenExchangeFilter(outgoing, "orders")).build();
      return RouterFunctions.route().GET("/checkout", request -> orders.get().uri(ORDERS_URL.get() + "/internal/orders")
          .retrieve().bodyToMono(String.class).flatMap(b -> ServerResponse.ok().bodyValue(b))).build();
    }
  }

  /** Orders: receives internal tokens on /internal/*; Spring Security lets the token filter decide. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class OrdersApp {
    @Bean
    SecurityWebFilterChain open(ServerHttpSecurity http) {
      return http.authorizeExchange(e -> e.anyExchange().permitAll()).csrf(ServerHttpSecurity.CsrfSpec::disable)
          .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable).build();
    }

    @Bean
    RouterFunction<ServerResponse> orders() {
      return RouterFunctions.route()
          .GET("/internal/orders", request -> ReactiveCallContext.token().flatMap(t -> ServerResponse.ok()
              .bodyValue(t.subject().orElse("-") + "|" + t.audience() + "|" + t.stateNames() + "|" + t.actors())))
          .GET("/health", request -> ServerResponse.ok().bodyValue("up"))
          .build();
    }
  }

  ConfigurableApplicationContext start(Class<?> app, String... properties) {
    SpringApplication a = new SpringApplication(app);
    a.setWebApplicationType(WebApplicationType.REACTIVE);
    List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
        "--logging.level.root=WARN", "--spring.main.banner-mode=off", "--sessionless.enabled=false"));
    for (String p : properties) {
      args.add("--" + p);
    }
    ConfigurableApplicationContext c = a.run(args.toArray(new String[0]));
    apps.add(c);
    return c;
  }

  static int port(ConfigurableApplicationContext c) {
    return Integer.parseInt(c.getEnvironment().getProperty("local.server.port"));
  }

  @BeforeAll
  void start() throws Exception {
    edgeKeys = Files.createTempFile("edge-keys", ".jwks");
    Files.writeString(edgeKeys, KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)).toJwksWithSecrets());
    edgePort = port(start(EdgeApp.class, "spring.security.user.name=alice", "spring.security.user.password=pw",
        "sessionless.propagation.send.issuer=" + EDGE, "sessionless.propagation.send.keys-file=" + edgeKeys,
        "sessionless.propagation.send.grants.orders=tenant"));
    ordersPort = port(start(OrdersApp.class, "sessionless.propagation.receive.audience=orders",
        "sessionless.propagation.receive.issuers[0].issuer=" + EDGE,
        "sessionless.propagation.receive.issuers[0].jwks-url=http://127.0.0.1:" + edgePort + "/.well-known/jwks.json",
        "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true",
        "sessionless.propagation.receive.url-patterns=/internal/*"));
    ORDERS_URL.set("http://127.0.0.1:" + ordersPort);
  }

  @AfterAll
  void stop() throws Exception {
    apps.forEach(ConfigurableApplicationContext::close);
    Files.deleteIfExists(edgeKeys);
  }

  HttpResponse<String> get(int port, String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theSignedInUsersCallReachesOrdersWithAnInternalTokenForItsAudience() throws Exception {
    String basic = "Basic " + Base64.getEncoder().encodeToString("alice:pw".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> r = get(edgePort, "/checkout", "Authorization", basic);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("alice|orders|[]|[" + EDGE + "]", r.body(), "the principal as subject, the orders audience");
    assertEquals(401, get(edgePort, "/checkout").statusCode(), "Spring Security's defaults stay in force");
  }

  @Test
  void ordersRefusesCallsWithoutATokenAsTheServletSideDoesAndLeavesOtherPathsAlone() throws Exception {
    HttpResponse<String> r = get(ordersPort, "/internal/orders");
    assertEquals(401, r.statusCode());
    assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElseThrow());
    assertEquals("an internal token for this service is required\n", r.body());
    HttpResponse<String> forged = get(ordersPort, "/internal/orders", "Authorization", "Bearer a.b.c");
    assertEquals("Bearer error=\"invalid_token\"", forged.headers().firstValue("WWW-Authenticate").orElseThrow());
    assertEquals(200, get(ordersPort, "/health").statusCode(), "outside receive.url-patterns");
  }

  @Test
  void theJwksIsPublicAheadOfSpringSecurityAndOnlyTheReactiveBeansAreMade() throws Exception {
    HttpResponse<String> r = get(edgePort, "/.well-known/jwks.json");
    assertEquals(200, r.statusCode());
    assertEquals("application/jwk-set+json", r.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(r.body().contains("\"kid\":\"edge-1\"") && !r.body().contains("\"d\""), r.body());
    ConfigurableApplicationContext orders = apps.get(1);
    assertTrue(orders.getBean("sessionlessInternalTokenWebFilter").toString().startsWith("InternalTokenWebFilter["));
    assertEquals(0, orders.getBeansOfType(FilterRegistrationBean.class).size(), "no servlet registration");
  }

  @Test
  void urlPatternsTakeServletSyntax() {
    var p = SessionlessReactivePropagationAutoConfiguration.paths(List.of("/internal/*", "*.json", "/exact"));
    assertTrue(p.test("/internal") && p.test("/internal/a/b") && p.test("/x.json") && p.test("/exact"));
    assertTrue(!p.test("/internals") && !p.test("/exact/more") && !p.test("/"));
    assertTrue(SessionlessReactivePropagationAutoConfiguration.paths(List.of("/*")).test("/anything"));
  }
}
