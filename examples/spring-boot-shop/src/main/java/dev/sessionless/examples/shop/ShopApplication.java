package dev.sessionless.examples.shop;

import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A shop on Spring Boot 4 with Spring Security's default configuration (form login, CSRF) and a
 * cart in {@code HttpSession}; the Sessionless starter makes the session a token, so any
 * instance serves any request. Run two with the same key file and alternate between them:
 *
 * <pre>
 * java -jar ... --server.port=8081 --sessionless.keys.file=keys.jwks
 * java -jar ... --server.port=8082 --sessionless.keys.file=keys.jwks
 * </pre>
 */
@SpringBootApplication
@RestController
public class ShopApplication {
  /** Starts the shop. */
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }

  /** The cart page (after login). */
  @GetMapping("/cart")
  public String cart(Principal user, HttpSession session) {
    Cart cart = (Cart) session.getAttribute("cart");
    return user.getName() + ": " + (cart == null ? "[]" : cart.getItems());
  }

  /** Adds an item (a CSRF-protected POST). */
  @PostMapping("/cart")
  public String add(@RequestParam("item") String item, Principal user, HttpSession session) {
    Cart cart = (Cart) session.getAttribute("cart");
    cart = cart == null ? new Cart() : cart;
    cart.getItems().add(item);
    session.setAttribute("cart", cart);
    return user.getName() + ": " + cart.getItems();
  }
}
