package dev.sessionless.examples.gateway.service;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * A service behind the gateway (WebFlux, Reactor Netty), run once as {@code orders} and once as
 * {@code billing}: {@code spring.application.name} is its audience. {@code service.yml} turns on
 * the receiving side: every {@code /api/*} request needs an internal token for this audience,
 * signed by the gateway, whose keys come from the gateway's JWKS; anything else is a {@code 401}
 * before this code runs.
 *
 * <pre>
 * java -cp ... dev.sessionless.examples.gateway.service.ServiceApplication --spring.application.name=orders --server.port=8081
 * </pre>
 */
@SpringBootApplication
@RestController
public class ServiceApplication {
  /** Starts one service; its configuration is {@code service.yml}. */
  public static void main(String[] args) {
    start(args);
  }

  /**
   * Starts one service with {@code service.yml} as its configuration.
   *
   * @param args command-line arguments, {@code --spring.application.name=orders} at least
   * @return the running service
   */
  public static ConfigurableApplicationContext start(String... args) {
    return new SpringApplicationBuilder(ServiceApplication.class).properties("spring.config.name=service").run(args);
  }

  /** Who called: the subject and audience of the internal token the filter verified, and whether a cookie came. */
  @GetMapping("/api/whoami")
  public Map<String, String> whoami(ServerWebExchange exchange,
      @RequestHeader(name = "Cookie", required = false) String cookie) {
    InternalToken token = InternalTokenWebFilter.token(exchange).orElseThrow();
    return Map.of("subject", token.subject().orElse("-"), "audience", token.audience(),
        "cookie", cookie == null ? "none" : cookie);
  }
}
