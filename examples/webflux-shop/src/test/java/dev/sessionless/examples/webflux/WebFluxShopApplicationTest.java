package dev.sessionless.examples.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.keyring.internal.cli.KeyringCli;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two WebFlux shop instances on Reactor Netty that share only a key file, behind a round-robin
 * "balancer" (every request goes to the next one): log in on one, fill the cart on the other
 * with the CSRF token, see it on both, log out; all over real HTTP.
 */
@Timeout(120)
class WebFluxShopApplicationTest {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(10)).build();
  /** The browser's cookies for 127.0.0.1: one jar for both instances, as a browser has per host. */
  private final Map<String, String> cookies = new TreeMap<>();
  private List<Integer> ports;
  private int next;

  private HttpResponse<String> send(String path, HttpRequest.Builder request) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + ports.get(next++ % ports.size()) + path);
    request.uri(uri).timeout(Duration.ofSeconds(30)).header("Accept", "text/html");
    if (!cookies.isEmpty()) {
      request.header("Cookie", cookies.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue())
          .collect(Collectors.joining("; ")));
    }
    HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    for (String set : response.headers().allValues("Set-Cookie")) {
      HttpCookie cookie = HttpCookie.parse(set).get(0);
      if (cookie.getMaxAge() == 0) {
        cookies.remove(cookie.getName());
      } else {
        cookies.put(cookie.getName(), cookie.getValue());
      }
    }
    return response;
  }

  private HttpResponse<String> get(String path) throws Exception {
    return send(path, HttpRequest.newBuilder().GET());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return send(path, HttpRequest.newBuilder().header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  private static String csrf(HttpResponse<String> page) {
    Matcher m = CSRF.matcher(page.body());
    assertTrue(m.find(), "the page carries a CSRF token: " + page.body());
    return URLEncoder.encode(m.group(1), StandardCharsets.UTF_8);
  }

  private static String location(HttpResponse<String> r) {
    assertEquals(302, r.statusCode(), r.body());
    return r.headers().firstValue("Location").orElseThrow();
  }

  /** The key file, made by the keyring tool's {@code init} as the README says, run in-process. */
  private Path keyFile() {
    Path keys = dir.resolve("keys.jwks");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = KeyringCli.run(new String[] {"init", "--out", keys.toString()}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err), Map.of(), Clock.systemUTC());
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    return keys;
  }

  private static ConfigurableApplicationContext start(Path keys) {
    // Command-line arguments, as an operator would pass them: they override application.properties.
    return new SpringApplicationBuilder(WebFluxShopApplication.class).run("--server.port=0",
        "--server.address=127.0.0.1", "--sessionless.keys.file=" + keys, "--logging.level.root=WARN",
        "--spring.main.banner-mode=off");
  }

  private static int port(ConfigurableApplicationContext c) {
    return ((WebServerApplicationContext) c).getWebServer().getPort();
  }

  @Test
  void aCustomerLogsInOnOneInstanceAndShopsOnTheOtherWithCsrfAndNoStickyRouting() throws Exception {
    Path keys = keyFile();
    try (ConfigurableApplicationContext a = start(keys); ConfigurableApplicationContext b = start(keys)) {
      for (ConfigurableApplicationContext c : List.of(a, b)) {
        String server = ((WebServerApplicationContext) c).getWebServer().getClass().getSimpleName();
        assertTrue(server.startsWith("Netty"), "Boot's default WebFlux server, Reactor Netty: " + server);
        assertInstanceOf(SessionlessWebSessionManager.class, c.getBean("webSessionManager"));
      }
      ports = List.of(port(a), port(b));

      assertTrue(location(get("/cart")).endsWith("/login"), "Spring Security sends a visitor to log in");
      String token = csrf(get("/login"));
      assertTrue(location(post("/login", "username=alice&password=secret&_csrf=" + token)).endsWith("/cart?continue"),
          "the other instance logs the customer in and returns to the saved request");

      HttpResponse<String> page = get("/cart?continue");
      assertTrue(page.body().startsWith("<p>alice: []</p>"), page.body());
      String fresh = csrf(page);
      assertEquals(403, post("/cart", "item=mug").statusCode(), "CSRF protection holds");
      assertEquals("<p>alice: [mug]</p>", post("/cart", "item=mug&_csrf=" + fresh).body());
      assertEquals("<p>alice: [mug, tea]</p>", post("/cart", "item=tea&_csrf=" + fresh).body());
      assertTrue(get("/cart").body().startsWith("<p>alice: [mug, tea]</p>"), "the cart, seen on one instance");
      assertTrue(get("/cart").body().startsWith("<p>alice: [mug, tea]</p>"), "and on the other");

      assertTrue(location(post("/logout", "_csrf=" + fresh)).endsWith("/login?logout"));
      assertTrue(cookies.isEmpty(), "logout clears the session cookie: " + cookies.keySet());
      assertTrue(location(get("/cart")).endsWith("/login"), "logged out on one instance");
      assertTrue(location(get("/cart")).endsWith("/login"), "and on the other");
    }
  }
}
