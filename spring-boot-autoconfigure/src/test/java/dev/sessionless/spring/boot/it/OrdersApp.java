package dev.sessionless.spring.boot.it;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenFilter;
import dev.sessionless.spring.boot.security.InternalTokenAuthentication;
import jakarta.servlet.http.HttpServletRequest;
import java.util.stream.Collectors;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An internal "orders" service with Spring Security's default configuration, receiving internal
 * tokens (configured by the test's {@code sessionless.propagation.receive.*} properties).
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(OrdersApp.Orders.class)
public class OrdersApp {
  /** What the service answers, telling the test how the request was authenticated. */
  @RestController
  public static class Orders {
    @GetMapping("/internal/whoami")
    public String whoami(Authentication user, HttpServletRequest request) {
      InternalToken token = InternalTokenFilter.token(request).orElseThrow();
      return user.getName() + " " + user.getClass().getSimpleName() + " "
          + user.getAuthorities().stream().map(GrantedAuthority::getAuthority).collect(Collectors.joining(","))
          + " iss=" + token.issuer() + " cart=" + token.get("cart", String.class).orElse("-")
          + " same=" + (((InternalTokenAuthentication) user).getToken() == token);
    }

    /** For a token without a subject (an anonymous session at the edge): no Principal to inject. */
    @GetMapping("/internal/anonymous")
    public String anonymous() {
      Authentication user = SecurityContextHolder.getContext().getAuthentication();
      return user.getClass().getSimpleName() + " authenticated=" + user.isAuthenticated() + " name=[" + user.getName()
          + "] principal=" + user.getPrincipal();
    }

    @PostMapping("/internal/orders")
    public String place(Authentication user, HttpServletRequest request) {
      return "placed for " + user.getName() + ", session " + (request.getSession(false) == null ? "none" : "created");
    }

    @GetMapping("/public/hello")
    public String hello() {
      return "hello";
    }
  }
}
