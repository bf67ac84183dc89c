package dev.sessionless.spring.boot.it;

import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A Boot application with Spring Security's default configuration and a cart in HttpSession. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(ShopApp.Shop.class)
public class ShopApp {
  /** The shop's pages; every one needs a login (Boot's default security). */
  @RestController
  public static class Shop {
    @GetMapping("/private")
    public String hello(Principal user) {
      return "hello " + user.getName();
    }

    @GetMapping("/csrf")
    public String csrf(CsrfToken token) {
      return token.getToken();
    }

    @GetMapping("/session-id")
    public String sessionId(HttpSession session) {
      return session.getId();
    }

    @GetMapping("/cart")
    public String cart(HttpSession session) {
      Cart cart = (Cart) session.getAttribute("cart");
      return cart == null ? "[]" : cart.getItems().toString();
    }

    @PostMapping("/cart")
    public String add(@RequestParam("item") String item, HttpSession session) {
      Cart cart = (Cart) session.getAttribute("cart");
      if (cart == null) {
        cart = new Cart();
      }
      cart.getItems().add(item);
      session.setAttribute("cart", cart);
      return cart.getItems().toString();
    }
  }
}
