package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.ShopApp;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Spring Security's default configuration (form login, HTTP Basic, CSRF, saved request, logout)
 * on token sessions, across two instances that share only a key file, every request going to
 * the other instance than the one before: no sticky routing, no shared store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringSecurityFormLoginTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  /** Two instances per container, shared by the tests of this class (each starts in ~1 s). */
  private final Map<String, Instance[]> running = new HashMap<>();

  private Path keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    if (!Files.exists(keys)) {
      Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    }
    return keys;
  }

  private Instance[] instances(String container) throws Exception {
    Instance[] pair = running.get(container);
    if (pair == null) {
      Path keys = keyFile();
      pair = new Instance[] {start(container, keys), start(container, keys)};
      running.put(container, pair);
    }
    return pair;
  }

  @AfterAll
  void stop() {
    running.values().forEach(pair -> Arrays.stream(pair).forEach(Instance::close));
  }

  private static Instance start(String container, Path keys) {
    Instance i = Instance.start(ShopApp.class, Containers.only(container),
        "sessionless.keys.file=" + keys, "sessionless.attribute-types=" + Cart.class.getName(),
        "spring.security.user.name=alice", "spring.security.user.password=secret");
    String server = ((WebServerApplicationContext) i.context).getWebServer().getClass().getSimpleName();
    assertTrue(server.toLowerCase().startsWith(container), server);
    return i;
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void formLoginCsrfSavedRequestAndLogoutWorkRoundRobinAcrossTwoInstances(String container) throws Exception {
    Path keys = keyFile();
    TokenCodec codec = TokenCodec.builder().keys(KeySet.fromJwks(Files.readString(keys)))
        .issuer("application").audience("application").timeToLive(Duration.ofMinutes(30))
        .algorithm(Algorithm.DIR_A256GCM).build();
    Instance a = instances(container)[0];
    Instance b = instances(container)[1];
    Browser browser = new Browser();

    HttpResponse<String> r = browser.postForm(b.uri("/login"), Map.of("username", "alice", "password", "secret"));
    assertEquals(302, r.statusCode(), "a login without the CSRF token is refused");
    assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login"));
    browser.cookies.getCookieStore().removeAll();

    r = browser.get(a.uri("/private"), "Accept", "text/html");
    assertEquals(302, r.statusCode(), "a protected page sends an anonymous user to log in");
    assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login"));

    r = browser.get(b.uri("/login"));
    assertEquals(200, r.statusCode(), r.body());
    Matcher m = CSRF_INPUT.matcher(r.body());
    assertTrue(m.find(), "the login page carries a CSRF token: " + r.body());
    String before = codec.decode(browser.cookie("SESSIONLESS").orElseThrow()).id();

    r = browser.postForm(a.uri("/login"), Map.of("username", "alice", "password", "wrong", "_csrf", m.group(1)));
    assertEquals(302, r.statusCode());
    assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?error"), "a wrong password is refused");
    String failure = codec.decode(browser.cookie("SESSIONLESS").orElseThrow()).stateJson();
    assertTrue(failure.contains("\"kind\":\"bad-credentials\""), "the failure is kept as values: " + failure);
    r = browser.get(b.uri("/login?error"));
    assertTrue(r.body().contains("Invalid credentials"), r.body());
    m = CSRF_INPUT.matcher(r.body());
    assertTrue(m.find());

    r = browser.postForm(b.uri("/login"), Map.of("username", "alice", "password", "secret", "_csrf", m.group(1)));
    assertEquals(302, r.statusCode(), r.body());
    String saved = r.headers().firstValue("Location").orElseThrow();
    assertTrue(saved.endsWith("/private?continue"), "login returns to the saved request: " + saved);

    SessionToken loggedIn = codec.decode(browser.cookie("SESSIONLESS").orElseThrow());
    assertNotEquals(before, loggedIn.id(), "login changes the session id (session fixation protection)");
    assertFalse(loggedIn.stateJson().contains("org.springframework"),
        "no Spring class travels in the token: " + loggedIn.stateJson());

    r = browser.get(a.uri("/private?continue"));
    assertEquals(200, r.statusCode());
    assertEquals("hello alice", r.body());
    assertEquals(loggedIn.id(), browser.get(b.uri("/session-id")).body(),
        "the other instance sees the same session");

    r = browser.postForm(b.uri("/cart"), Map.of("item", "mug"));
    assertEquals(403, r.statusCode(), "a POST without the CSRF token is refused");
    assertEquals("hello alice", browser.get(a.uri("/private")).body(), "and the refusal loses nothing");
    String csrf = browser.get(a.uri("/csrf")).body();
    r = browser.postForm(b.uri("/cart"), Map.of("item", "mug", "_csrf", csrf));
    assertEquals(200, r.statusCode(), r.body());
    r = browser.postForm(a.uri("/cart"), Map.of("item", "tea", "_csrf", browser.get(b.uri("/csrf")).body()));
    assertEquals("[mug, tea]", r.body());
    assertEquals("[mug, tea]", browser.get(b.uri("/cart")).body(), "the application's own attribute travels too");

    r = browser.postForm(a.uri("/logout"), Map.of("_csrf", browser.get(b.uri("/csrf")).body()));
    assertEquals(302, r.statusCode());
    assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?logout"));
    assertTrue(browser.cookie("SESSIONLESS").isEmpty(), "logout clears the session cookie");

    r = browser.get(b.uri("/private"), "Accept", "text/html");
    assertEquals(302, r.statusCode(), "after logout the page is protected again");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void httpBasicAuthenticatesEachRequestWithoutNeedingASession(String container) throws Exception {
    Instance a = instances(container)[0];
    Browser browser = new Browser();
    String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("alice:secret".getBytes());
    HttpResponse<String> r = browser.get(a.uri("/private"), "Authorization", basic);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("hello alice", r.body());
    assertTrue(browser.cookie("SESSIONLESS").isEmpty(), "HTTP Basic makes no session, as in Spring's default");
    r = browser.get(a.uri("/private"), "Authorization",
        "Basic " + java.util.Base64.getEncoder().encodeToString("alice:wrong".getBytes()));
    assertEquals(401, r.statusCode());
  }
}
