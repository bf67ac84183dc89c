package dev.sessionless.spring.boot.it;

import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenInterceptor;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * A service in the middle (orders → billing): receives internal tokens and, while serving one,
 * calls billing, which gets a re-minted token. Spring Security's default configuration.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(MiddleApp.Checkout.class)
public class MiddleApp {
  /** Calls billing's whoami with the incoming token re-minted. */
  @RestController
  public static class Checkout {
    private final OutgoingTokens outgoing;

    public Checkout(OutgoingTokens outgoing) {
      this.outgoing = outgoing;
    }

    @GetMapping("/internal/checkout")
    public String checkout(@RequestParam("billing") String billing) {
      return RestClient.builder().baseUrl(billing).requestInterceptor(new InternalTokenInterceptor(outgoing, "billing"))
          .build().get().uri("/internal/whoami").retrieve().body(String.class);
    }
  }
}
