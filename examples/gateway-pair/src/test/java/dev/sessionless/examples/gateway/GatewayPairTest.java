package dev.sessionless.examples.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.examples.gateway.edge.GatewayApplication;
import dev.sessionless.examples.gateway.service.ServiceApplication;
import dev.sessionless.keyring.internal.cli.KeyringCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.HttpCookie;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway and its two services, each a Boot WebFlux application on its own Reactor Netty
 * server on loopback, configured only by {@code application.yml}, {@code service.yml} and two key
 * files made by {@code keyring init}: log in at the gateway, call each service through it, and
 * see what each verified.
 */
@Timeout(120)
class GatewayPairTest {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(10)).build();
  /** The browser's cookies for 127.0.0.1 (the gateway's session cookie), sent back as a browser would. */
  private final Map<String, String> jar = new HashMap<>();

  private Path keyring(String... init) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = KeyringCli.run(init, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err), Map.of(),
        Clock.systemUTC());
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    return Path.of(init[init.length - 1]);
  }

  private HttpResponse<String> call(URI uri, String form) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).header("Accept", "text/html, application/json;q=0.9");
    if (!jar.isEmpty()) {
      r.header("Cookie", jar.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue()).collect(Collectors.joining("; ")));
    }
    if (form != null) {
      r.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
    }
    HttpResponse<String> response = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    response.headers().allValues("Set-Cookie").stream().map(h -> HttpCookie.parse(h).get(0))
        .forEach(c -> jar.put(c.getName(), c.getValue()));
    return response;
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static URI root(ConfigurableApplicationContext c) {
    return URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) c).getWebServer().getPort());
  }

  @Test
  void aUserLoggedInAtTheGatewayReachesEachServiceWithATokenForItsAudienceAndNoCookie() throws Exception {
    Path sessionKeys = keyring("init", "--out", dir.resolve("session-keys.jwks").toString());
    Path signingKeys = keyring("init", "--alg", "ES256", "--out", dir.resolve("signing-keys.jwks").toString());
    // The gateway first: each service fetches the gateway's public keys when it starts. The
    // gateway's routes name the services' ports, so these are picked (free) before it starts.
    int ordersPort = freePort();
    int billingPort = freePort();
    String[] common = {"--server.address=127.0.0.1", "--logging.level.root=WARN", "--spring.main.banner-mode=off"};
    try (ConfigurableApplicationContext edge = new SpringApplicationBuilder(GatewayApplication.class).run(with(common,
            "--server.port=0", "--SESSION_KEYS=" + sessionKeys, "--SIGNING_KEYS=" + signingKeys,
            "--ORDERS_URI=http://127.0.0.1:" + ordersPort, "--BILLING_URI=http://127.0.0.1:" + billingPort));
         ConfigurableApplicationContext orders = ServiceApplication.start(with(common, "--server.port=" + ordersPort,
             "--spring.application.name=orders", "--GATEWAY_JWKS=" + root(edge).resolve("/.well-known/jwks.json")));
         ConfigurableApplicationContext billing = ServiceApplication.start(with(common, "--server.port=" + billingPort,
             "--spring.application.name=billing", "--GATEWAY_JWKS=" + root(edge).resolve("/.well-known/jwks.json")))) {
      URI gateway = root(edge);
      assertTrue(call(gateway.resolve("/orders/api/whoami"), null).headers().firstValue("Location").orElseThrow()
          .endsWith("/login"), "the gateway sends a visitor to log in first");
      Matcher csrf = CSRF.matcher(call(gateway.resolve("/login"), null).body());
      assertTrue(csrf.find());
      HttpResponse<String> login = call(gateway.resolve("/login"),
          "username=alice&password=secret&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8));
      assertEquals(302, login.statusCode(), login.body());
      assertTrue(jar.containsKey("SESSIONLESS"), "the login session is a Sessionless cookie: " + jar.keySet());

      JsonMapper json = JsonMapper.builder().build();
      for (String service : new String[] {"orders", "billing"}) {
        HttpResponse<String> r = call(gateway.resolve("/" + service + "/api/whoami"), null);
        assertEquals(200, r.statusCode(), r.body() + r.headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(Map.of("subject", "alice", "audience", service, "cookie", "none"), json.readValue(r.body(), Map.class),
            "the service verified a token for its own audience; the browser's cookie stayed at the gateway");
      }

      // The browser's cookie sent straight to a service is no credential there.
      HttpResponse<String> direct = call(root(orders).resolve("/api/whoami"), null);
      assertEquals(401, direct.statusCode(), direct.body());
      assertTrue(direct.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), "asks for a token");
    }
  }

  private static String[] with(String[] common, String... more) {
    String[] all = java.util.Arrays.copyOf(common, common.length + more.length);
    System.arraycopy(more, 0, all, common.length, more.length);
    return all;
  }
}
