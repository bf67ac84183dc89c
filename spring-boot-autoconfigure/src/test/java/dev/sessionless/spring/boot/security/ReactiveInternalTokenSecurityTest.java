package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.HttpServer;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A Boot WebFlux service on Reactor Netty (random port, loopback) with Spring Security's default
 * reactive chain (every exchange authenticated, CSRF on) that receives internal tokens on
 * /internal/*, verified from the edge's JWKS over real HTTP: the token is the exchange's
 * authentication, and a POST carrying one needs no CSRF token.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ReactiveInternalTokenSecurityTest {
  static final String EDGE = "https://edge.internal";
  static final KeySet EDGE_KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter MINTER = InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE).build();

  private final HttpClient http = HttpClient.newHttpClient();
  private HttpServer jwks;
  private ConfigurableApplicationContext orders;
  private int port;

  /** Orders: Spring Security's defaults, and two internal endpoints that say who is calling. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class OrdersApp {
    @Bean
    RouterFunction<ServerResponse> internal() {
      return RouterFunctions.route()
          .GET("/internal/whoami", request -> whoami())
          .POST("/internal/orders", request -> whoami())
          .build();
    }

    static reactor.core.publisher.Mono<ServerResponse> whoami() {
      return ReactiveSecurityContextHolder.getContext().map(c -> c.getAuthentication())
          .flatMap(a -> ServerResponse.ok().bodyValue(a.getClass().getSimpleName() + "|" + a.getName() + "|"
              + a.getAuthorities().stream().map(GrantedAuthority::getAuthority).collect(Collectors.joining(","))));
    }
  }

  @BeforeAll
  void start() throws Exception {
    jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = EDGE_KEYS.toPublicJwks().getBytes(StandardCharsets.UTF_8);
    jwks.createContext("/jwks.json", e -> {
      e.getResponseHeaders().set("Content-Type", "application/json");
      e.sendResponseHeaders(200, body.length);
      e.getResponseBody().write(body);
      e.close();
    });
    jwks.start();
    SpringApplication app = new SpringApplication(OrdersApp.class);
    app.setWebApplicationType(WebApplicationType.REACTIVE);
    List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
        "--logging.level.root=WARN", "--spring.main.banner-mode=off", "--sessionless.enabled=false",
        "--sessionless.propagation.receive.audience=orders",
        "--sessionless.propagation.receive.issuers[0].issuer=" + EDGE,
        "--sessionless.propagation.receive.issuers[0].jwks-url=http://127.0.0.1:" + jwks.getAddress().getPort()
            + "/jwks.json",
        "--sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true",
        "--sessionless.propagation.receive.url-patterns=/internal/*"));
    orders = app.run(args.toArray(new String[0]));
    port = Integer.parseInt(orders.getEnvironment().getProperty("local.server.port"));
  }

  @AfterAll
  void stop() {
    if (orders != null) {
      orders.close();
    }
    if (jwks != null) {
      jwks.stop(0);
    }
  }

  static String token() {
    return MINTER.mint(EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(600))
        .build(), "orders", Set.of());
  }

  HttpResponse<String> send(String method, String path, String bearer) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody());
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aVerifiedInternalTokenIsTheExchangesAuthenticationOnWebFlux() throws Exception {
    HttpResponse<String> r = send("GET", "/internal/whoami", token());
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("InternalTokenAuthentication|alice|ROLE_INTERNAL", r.body());
    assertNull(r.headers().firstValue("Set-Cookie").orElse(null), "for this exchange only: no session saved");
  }

  @Test
  void aPostCarryingAVerifiedInternalTokenNeedsNoCsrfToken() throws Exception {
    HttpResponse<String> r = send("POST", "/internal/orders", token());
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("InternalTokenAuthentication|alice|ROLE_INTERNAL", r.body());
  }

  @Test
  void withoutATokenTheReceivingFilterStillAnswers401() throws Exception {
    assertEquals(401, send("GET", "/internal/whoami", null).statusCode());
  }
}
