package dev.sessionless.examples.webflux;

import java.security.Principal;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import org.springframework.web.util.HtmlUtils;
import reactor.core.publisher.Mono;

/**
 * A shop on Spring Boot 4 WebFlux (Reactor Netty) with Spring Security's default reactive
 * configuration (form login, HTTP Basic, CSRF, logout) and a cart in the {@code WebSession}. The
 * Sessionless starter with {@code sessionless-webflux} makes the session a token, Spring
 * Security's login and CSRF token included, so any instance serves any request. Run two with the
 * same key file and alternate between them:
 *
 * <pre>
 * java -jar keyring/target/keyring.jar init --out keys.jwks
 * java -jar ... --server.port=8081 --sessionless.keys.file=keys.jwks
 * java -jar ... --server.port=8082 --sessionless.keys.file=keys.jwks
 * </pre>
 */
@SpringBootApplication
@RestController
public class WebFluxShopApplication {
  /** Starts the shop. */
  public static void main(String[] args) {
    SpringApplication.run(WebFluxShopApplication.class, args);
  }

  /** The cart page (after login): the items, and a form to add one that carries the CSRF token. */
  @GetMapping(value = "/cart", produces = MediaType.TEXT_HTML_VALUE)
  public Mono<String> cart(Principal user, WebSession session, ServerWebExchange exchange) {
    Mono<CsrfToken> csrf = exchange.getAttribute(CsrfToken.class.getName());
    Cart cart = session.getAttributeOrDefault("cart", new Cart());
    return csrf.map(token -> items(user, cart)
        + "<form method=\"post\" action=\"/cart\"><input name=\"item\">"
        + "<input type=\"hidden\" name=\"" + token.getParameterName() + "\" value=\""
        + HtmlUtils.htmlEscape(token.getToken()) + "\"><button>Add</button></form>");
  }

  /** Adds an item (a CSRF-protected POST); the changed cart travels back in the session token. */
  @PostMapping(value = "/cart", produces = MediaType.TEXT_HTML_VALUE)
  public Mono<String> add(Principal user, WebSession session, ServerWebExchange exchange) {
    return exchange.getFormData().map(form -> {
      Cart cart = session.getAttributeOrDefault("cart", new Cart());
      cart.getItems().add(form.getFirst("item"));
      session.getAttributes().put("cart", cart);
      return items(user, cart);
    });
  }

  /** The user's cart as an HTML paragraph, escaped: the items are what customers typed. */
  private static String items(Principal user, Cart cart) {
    return "<p>" + HtmlUtils.htmlEscape(user.getName() + ": " + cart.getItems()) + "</p>";
  }
}
