package dev.sessionless.spring.boot.it;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenFilter;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An internal "orders" service that uses no Spring Security class, for a run where Spring
 * Security is not on the class path: the application reads the verified token itself.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(PlainOrdersApp.Orders.class)
public class PlainOrdersApp {
  /** Says who the token is for, from the token. */
  @RestController
  public static class Orders {
    @GetMapping("/internal/whoami")
    public String whoami(HttpServletRequest request) {
      InternalToken token = InternalTokenFilter.token(request).orElseThrow();
      return token.subject().orElse("-") + " iss=" + token.issuer() + " cart=" + token.get("cart", String.class).orElse("-");
    }

    @GetMapping("/public/hello")
    public String hello() {
      return "hello";
    }
  }
}
