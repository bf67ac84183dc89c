package dev.sessionless.spring.boot.it;

import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenInterceptor;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * An edge behind Spring Security's default configuration (form login, one user): its internal
 * tokens name the logged-in user without any session attribute of the application's.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(SecureEdgeApp.Checkout.class)
public class SecureEdgeApp {
  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(User.withUsername("alice").password("{noop}secret").roles("USER").build());
  }

  /** Calls orders' whoami for the logged-in user. */
  @RestController
  public static class Checkout {
    private final OutgoingTokens outgoing;

    public Checkout(OutgoingTokens outgoing) {
      this.outgoing = outgoing;
    }

    @GetMapping("/checkout")
    public String checkout(@RequestParam("orders") String orders) {
      return RestClient.builder().baseUrl(orders).requestInterceptor(new InternalTokenInterceptor(outgoing, "orders"))
          .build().get().uri("/internal/whoami").retrieve().body(String.class);
    }
  }
}
