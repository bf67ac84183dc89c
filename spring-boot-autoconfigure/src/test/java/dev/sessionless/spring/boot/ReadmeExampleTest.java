package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.PlainApp;
import dev.sessionless.testing.ReadmeBlocks;
import jakarta.servlet.http.HttpSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Keeps the README's properties and controller compiling and true, in two instances. */
class ReadmeExampleTest {
  @TempDir
  Path dir;

  // readme-example:start
  @RestController
  static class CartController {
    @PostMapping("/cart")
    String add(@RequestParam("item") String item, HttpSession session) {
      Cart cart = (Cart) session.getAttribute("cart");     // null on the first visit
      cart = cart == null ? new Cart() : cart;
      cart.getItems().add(item);
      session.setAttribute("cart", cart);                   // travels in the token
      return cart.getItems().toString();
    }
  }
  // readme-example:end

  /** The README's controller in an application without Spring Security. */
  @Configuration(proxyBeanMethods = false)
  @Import({PlainApp.class, CartController.class})
  static class App {}

  @Test
  void readmePropertiesAndControllerKeepACartAcrossTwoInstances() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    List<String> properties = new ArrayList<>(ReadmeBlocks.markdown(Path.of("README.md"), "readme-properties"));
    assertFalse(properties.isEmpty());
    properties.replaceAll(p -> p.replace("com.example.shop.Cart", Cart.class.getName())
        .replace("/run/secrets/session-keys.jwks", keys.toString()));
    String[] props = properties.toArray(new String[0]);
    try (Instance a = Instance.start(App.class, props); Instance b = Instance.start(App.class, props)) {
      Browser browser = new Browser();
      assertEquals("[mug]", browser.postForm(a.uri("/cart"), Map.of("item", "mug")).body());
      assertEquals("[mug, tea]", browser.postForm(b.uri("/cart"), Map.of("item", "tea")).body());
      assertEquals("[mug, tea, jam]", browser.postForm(a.uri("/cart"), Map.of("item", "jam")).body());
    }
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/spring/boot/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertTrue(!shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
