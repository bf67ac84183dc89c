package dev.sessionless.spring.boot.it;

import java.security.Principal;
import java.util.List;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * A Boot WebFlux application with Spring Security's default reactive configuration and a cart in
 * the {@code WebSession}, on Reactor Netty.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(ReactiveShopApp.Shop.class)
public class ReactiveShopApp {
  /**
   * Makes an application reactive on Reactor Netty: the test class path also has Spring MVC,
   * Tomcat and Jetty, whose reactive servers Boot would otherwise prefer.
   */
  public static final List<String> REACTIVE = List.of("spring.main.web-application-type=reactive",
      "spring.autoconfigure.exclude="
          + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
          + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");

  /** The shop's pages; every one needs a login (Spring Security's default). */
  @RestController
  public static class Shop {
    @GetMapping("/private")
    public String hello(Principal user) {
      return "hello " + user.getName();
    }

    @GetMapping("/csrf")
    public Mono<String> csrf(ServerWebExchange exchange) {
      Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
      return token.map(CsrfToken::getToken);
    }

    @GetMapping("/session-id")
    public String sessionId(WebSession session) {
      return session.getId();
    }

    @GetMapping("/cart")
    public String cart(WebSession session) {
      Cart cart = session.getAttribute("cart");
      return cart == null ? "[]" : cart.getItems().toString();
    }

    // readme-webflux-example:start
    @PostMapping("/cart")
    public Mono<String> add(ServerWebExchange exchange, WebSession session) {
      return exchange.getFormData().map(form -> {
        Cart cart = session.getAttributeOrDefault("cart", new Cart());  // a new one on the first visit
        cart.getItems().add(form.getFirst("item"));
        session.getAttributes().put("cart", cart);                       // travels in the token
        return cart.getItems().toString();
      });
    }
    // readme-webflux-example:end
  }
}
