package dev.sessionless.spring.boot.it;

import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenInterceptor;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * An edge: browser sessions in tokens (the session part), and calls to the orders service with
 * internal tokens (the sending side), through a {@code RestClient} with the README's one line.
 * Without Spring Security (excluded), so the test logs in with one request.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
@Import(EdgeApp.Pages.class)
public class EdgeApp {
  /** Login (names the user, puts a cart in the session) and a checkout that calls orders. */
  @RestController
  public static class Pages {
    private final OutgoingTokens outgoing;

    public Pages(OutgoingTokens outgoing) {
      this.outgoing = outgoing;
    }

    @PostMapping("/login")
    public String login(@RequestParam("user") String user, HttpServletRequest request, HttpSession session) {
      SessionlessFilter.loggedIn(request, user);
      session.setAttribute("user", user);
      session.setAttribute("cart", "book");
      session.setAttribute("card", "4111");
      return "ok";
    }

    /** Calls {@code orders}/internal/whoami with this request's session, as an internal token. */
    @GetMapping("/checkout")
    public String checkout(@RequestParam("orders") String orders) {
      RestClient client = RestClient.builder().baseUrl(orders)
          .requestInterceptor(new InternalTokenInterceptor(outgoing, "orders")).build();
      return client.get().uri("/internal/whoami").retrieve().body(String.class);
    }
  }
}
