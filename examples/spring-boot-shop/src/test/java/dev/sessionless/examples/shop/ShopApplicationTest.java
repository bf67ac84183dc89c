package dev.sessionless.examples.shop;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two shop instances behind a round-robin "balancer" (every request goes to the next one):
 * log in on one, fill the cart on the other, log out, all over real HTTP.
 */
class ShopApplicationTest {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder()
      .cookieHandler(new LoopbackBrowserCookies())
      .followRedirects(HttpClient.Redirect.NEVER).build();
  private final AtomicInteger next = new AtomicInteger();

  /**
   * Sends {@code Secure} cookies to http://127.0.0.1 as browsers do (they treat loopback as a
   * secure context); the JDK's jar sends them only over https, and session cookies are Secure.
   */
  private static final class LoopbackBrowserCookies extends CookieManager {
    LoopbackBrowserCookies() {
      super(null, CookiePolicy.ACCEPT_ALL);
    }

    @Override
    public java.util.Map<String, java.util.List<String>> get(URI uri,
        java.util.Map<String, java.util.List<String>> headers) throws java.io.IOException {
      try {
        return super.get(new URI("https", null, uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(), null),
            headers);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException(e);
      }
    }
  }
  private List<Integer> ports;

  private URI roundRobin(String path) {
    return URI.create("http://127.0.0.1:" + ports.get(next.getAndIncrement() % ports.size()) + path);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(HttpRequest.newBuilder(roundRobin(path)).timeout(Duration.ofSeconds(30)).header("Accept", "text/html").build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return client.send(HttpRequest.newBuilder(roundRobin(path)).timeout(Duration.ofSeconds(30)).header("Accept", "text/html")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private String csrf(String page) {
    Matcher m = CSRF.matcher(page);
    assertTrue(m.find(), page);
    return URLEncoder.encode(m.group(1), StandardCharsets.UTF_8);
  }

  private static ConfigurableApplicationContext start(Path keys) {
    // Command-line arguments, as an operator would pass them: they override application.properties.
    return new SpringApplicationBuilder(ShopApplication.class).run("--server.port=0",
        "--server.address=127.0.0.1", "--sessionless.keys.file=" + keys, "--logging.level.root=WARN",
        "--spring.main.banner-mode=off");
  }

  private static int port(ConfigurableApplicationContext c) {
    return Integer.parseInt(c.getEnvironment().getProperty("local.server.port"));
  }

  @Test
  void theShopRunsWithJackson3AloneNoJackson2Databind() {
    // The class path the login-and-cart test below runs on: Boot 4's Jackson 3 and nothing of
    // Jackson 2's databind (the POM neither declares nor excludes it; nothing pulls it in).
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName("com.fasterxml.jackson.databind.ObjectMapper"));
    assertDoesNotThrow(() -> Class.forName("tools.jackson.databind.json.JsonMapper"));
  }

  @Test
  void aCustomerLogsInOnOneInstanceAndShopsOnTheOtherWithoutStickyRouting() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("shop-1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    try (ConfigurableApplicationContext a = start(keys); ConfigurableApplicationContext b = start(keys)) {
      ports = List.of(port(a), port(b));
      assertTrue(get("/cart").headers().firstValue("Location").orElseThrow().endsWith("/login"));
      String token = csrf(get("/login").body());
      HttpResponse<String> r = post("/login", "username=alice&password=secret&_csrf=" + token);
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/cart?continue"),
          "back to the cart after login");
      assertEquals("alice: []", get("/cart?continue").body());

      // Spring Security renders no form here; the login page's token is stale after login, so
      // ask the logout confirmation page (GET /logout), which carries a fresh one.
      String fresh = csrf(get("/logout").body());
      assertEquals(403, post("/cart", "item=mug").statusCode(), "CSRF protection holds");
      assertEquals("alice: [mug]", post("/cart", "item=mug&_csrf=" + fresh).body());
      assertEquals("alice: [mug, tea]", post("/cart", "item=tea&_csrf=" + fresh).body());
      assertEquals("alice: [mug, tea]", get("/cart").body());

      r = post("/logout", "_csrf=" + fresh);
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?logout"));
      assertTrue(get("/cart").headers().firstValue("Location").orElseThrow().endsWith("/login"),
          "logged out on every instance");
    }
  }
}
