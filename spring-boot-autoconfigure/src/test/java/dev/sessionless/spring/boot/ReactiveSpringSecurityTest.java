package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.KeyFiles;
import dev.sessionless.spring.boot.it.ReactiveShopApp;
import dev.sessionless.testing.ReadmeBlocks;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * A Boot WebFlux application with Spring Security's default reactive configuration (form login,
 * HTTP Basic, CSRF, saved request, logout) and no other setting than the key file, as two
 * instances on Reactor Netty that share only that file; every request goes to the other
 * instance than the one before (round-robin, no sticky routing, no shared store).
 */
@Timeout(120)
class ReactiveSpringSecurityTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("<input[^>]*name=\"_csrf\"[^>]*>");
  private static final Pattern VALUE = Pattern.compile("value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  static Instance start(Path keys, String... more) {
    List<String> properties = new ArrayList<>(ReactiveShopApp.REACTIVE);
    properties.add("sessionless.keys.file=" + keys);
    properties.addAll(List.of(more));
    return Instance.start(ReactiveShopApp.class, properties.toArray(new String[0]));
  }

  /** The CSRF token of a page's form (Spring Security's reactive login page, say). */
  static String csrfOf(String page) {
    Matcher input = CSRF_INPUT.matcher(page);
    assertTrue(input.find(), "the page carries a CSRF token: " + page);
    Matcher value = VALUE.matcher(input.group());
    assertTrue(value.find(), input.group());
    return value.group(1);
  }

  @Test
  void readmeShowsExactlyTheWebFluxCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/spring/boot/it/ReactiveShopApp.java"), "readme-webflux-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-webflux-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-webflux-example block");
    assertEquals(tested, shown, "README.md drifted from ReactiveShopApp");
  }

  @Test
  void formLoginBasicCsrfCartSavedRequestAndLogoutWorkRoundRobinAcrossTwoReactiveInstances() throws Exception {
    Path keys = KeyFiles.a256gcm(dir.resolve("keys.jwks"));
    TokenCodec codec = KeyFiles.sessionReader(keys);
    String[] user = {"sessionless.attribute-types=" + Cart.class.getName(), "spring.security.user.name=alice",
        "spring.security.user.password=secret"};
    try (Instance a = start(keys, user); Instance b = start(keys, user)) {
      for (Instance i : List.of(a, b)) {
        String server = ((WebServerApplicationContext) i.context).getWebServer().getClass().getSimpleName();
        assertTrue(server.startsWith("Netty"), server);
        assertInstanceOf(SessionlessWebSessionManager.class, i.context.getBean("webSessionManager"));
        assertEquals(0, i.context.getBeanNamesForType(SessionlessFilter.class).length, "no servlet filter");
      }
      Browser browser = new Browser();

      HttpResponse<String> r = browser.get(a.uri("/private"), "Accept", "text/html");
      assertEquals(302, r.statusCode(), "a protected page sends an anonymous user to log in");
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login"));

      r = browser.get(b.uri("/login"));
      assertEquals(200, r.statusCode(), r.body());
      String csrf = csrfOf(r.body());
      String before = codec.decode(browser.cookie("SESSIONLESS").orElseThrow()).id();

      r = browser.postForm(a.uri("/login"), Map.of("username", "alice", "password", "secret"));
      assertEquals(403, r.statusCode(), "a login without the CSRF token is refused");
      r = browser.postForm(b.uri("/login"), Map.of("username", "alice", "password", "wrong", "_csrf", csrf));
      assertEquals(302, r.statusCode());
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?error"), "a wrong password");

      r = browser.postForm(a.uri("/login"), Map.of("username", "alice", "password", "secret", "_csrf", csrf));
      assertEquals(302, r.statusCode(), r.body());
      String saved = r.headers().firstValue("Location").orElseThrow();
      assertTrue(saved.endsWith("/private?continue"), "login returns to the saved request: " + saved);
      SessionToken loggedIn = codec.decode(browser.cookie("SESSIONLESS").orElseThrow());
      assertNotEquals(before, loggedIn.id(), "login changes the session id (session fixation protection)");
      assertEquals("alice", loggedIn.subject().orElseThrow(), "the token names the user who logged in");
      assertFalse(loggedIn.stateJson().contains("org.springframework"),
          "no Spring class travels in the token: " + loggedIn.stateJson());

      r = browser.get(b.uri("/private?continue"));
      assertEquals(200, r.statusCode());
      assertEquals("hello alice", r.body());
      assertEquals(loggedIn.id(), browser.get(a.uri("/session-id")).body(), "the other instance sees the same session");

      r = browser.postForm(b.uri("/cart"), Map.of("item", "mug"));
      assertEquals(403, r.statusCode(), "a POST without the CSRF token is refused");
      r = browser.postForm(a.uri("/cart"), Map.of("item", "mug", "_csrf", browser.get(b.uri("/csrf")).body()));
      assertEquals(200, r.statusCode(), r.body());
      r = browser.postForm(b.uri("/cart"), Map.of("item", "tea", "_csrf", browser.get(a.uri("/csrf")).body()));
      assertEquals("[mug, tea]", r.body());
      assertEquals("[mug, tea]", browser.get(a.uri("/cart")).body(), "the application's own attribute travels too");

      Browser basic = new Browser();
      r = basic.get(b.uri("/private"), "Authorization", "Basic YWxpY2U6c2VjcmV0");
      assertEquals(200, r.statusCode(), "HTTP Basic");
      assertEquals("hello alice", r.body());

      r = browser.postForm(b.uri("/logout"), Map.of("_csrf", browser.get(a.uri("/csrf")).body()));
      assertEquals(302, r.statusCode(), r.body());
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?logout"));
      assertTrue(browser.cookie("SESSIONLESS").isEmpty(), "logout ends the session and clears its cookie");
      r = browser.get(a.uri("/private"), "Accept", "text/html");
      assertEquals(302, r.statusCode(), "after logout the page is protected again, on the other instance too");
      assertEquals("[]", browser.get(b.uri("/cart"), "Authorization", "Basic YWxpY2U6c2VjcmV0").body(),
          "the ended session's cart is gone");
    }
  }
}
