package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.keyring.Keyring;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filter runs an HS256 application with neither {@code sessionless-keyring} nor BouncyCastle
 * on the class path: {@link NoKeyringServer} runs in a JVM of its own, started with this JVM's
 * test class path minus those jars, and serves sessions over real HTTP from an embedded Tomcat,
 * configured both ways (init parameters with {@code keys.env}, and a {@code KeySet} in code). The
 * features that need the keyring fail at init naming the artifact to add.
 */
class WithoutKeyringTest {
  /** Class path entries that belong to the keyring or to BouncyCastle. */
  private static final Pattern KEYRING_OR_BC =
      Pattern.compile(".*([/\\\\]keyring[/\\\\]target[/\\\\]|sessionless-keyring|bouncycastle|bcprov|bcpkix|bcutil).*");

  @TempDir
  static Path dir;
  private static Process server;
  private static final Map<String, String> report = new HashMap<>();
  private static String secret;
  private static byte[] codeSecret;

  @BeforeAll
  static void startServerWithoutKeyringJars() throws Exception {
    List<String> kept = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      (KEYRING_OR_BC.matcher(entry).matches() ? removed : kept).add(entry);
    }
    assertTrue(removed.stream().anyMatch(e -> e.contains("keyring")), "the test class path has the keyring: " + removed);
    assertTrue(removed.stream().anyMatch(e -> e.contains("bcprov")), "the test class path has bcprov: " + removed);
    SecureRandom random = new SecureRandom();
    byte[] s = new byte[32];
    random.nextBytes(s);
    secret = Base64.getUrlEncoder().withoutPadding().encodeToString(s);
    codeSecret = new byte[32];
    random.nextBytes(codeSecret);

    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, kept), NoKeyringServer.class.getName(),
        Base64.getUrlEncoder().encodeToString(codeSecret));
    pb.environment().put("SESSION_SECRET", secret);
    pb.environment().put("ES256_KEYS", dev.sessionless.core.KeySet.of(
        dev.sessionless.core.TokenKey.generate("es", dev.sessionless.core.Algorithm.ES256)).toJwksWithSecrets());
    pb.redirectError(dir.resolve("stderr.txt").toFile());
    server = pb.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        report.put(line.substring(0, eq), line.substring(eq + 1));
      }
      if (line.startsWith("port=")) {
        break;
      }
    }
    assertNotNull(report.get("port"), "the server did not start: " + report + "\n"
        + Files.readString(dir.resolve("stderr.txt")));
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.getOutputStream().close();
      if (!server.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  void theServersClassPathReallyLacksKeyringAndBouncyCastle() {
    assertEquals("true", report.get("keyring-absent"));
    assertEquals("true", report.get("bouncycastle-absent"));
  }

  @Test
  void hs256SessionsWorkWithASecretFromTheEnvironmentWithoutTheKeyring() throws Exception {
    HttpClient client = client();
    URI count = URI.create("http://127.0.0.1:" + report.get("port") + "/env/count");
    assertEquals("1", get(client, count));
    assertEquals("2", get(client, count));
    assertEquals("3", get(client, count), "the session travels in the token, read back on every request");

    // The kid rule is the keyring's: the same variable read by a Keyring verifies the token.
    try (Keyring keyring = Keyring.builder().environmentReader(Map.of("SESSION_SECRET", secret)::get)
        .environment("SESSION_SECRET").build()) {
      SessionToken token = codec(keyring).decode(cookie(client, "/env"));
      assertTrue(token.keyId().startsWith("secret-"), token.keyId());
      assertTrue(token.stateJson().contains("3"), token.stateJson());
    }
  }

  @Test
  void hs256SessionsWorkWithAKeySetBuiltInCodeWithoutTheKeyring() throws Exception {
    HttpClient client = client();
    URI count = URI.create("http://127.0.0.1:" + report.get("port") + "/code/count");
    assertEquals("1", get(client, count));
    assertEquals("2", get(client, count));
    SessionToken token = codec(dev.sessionless.core.KeySet.of(
        dev.sessionless.core.TokenKey.secret("code", dev.sessionless.core.Algorithm.HS256, codeSecret)))
        .decode(cookie(client, "/code"));
    assertEquals("code", token.keyId());
  }

  @Test
  void keyFilesWithoutTheKeyringFailInitNamingTheArtifactToAdd() {
    String keysFile = report.get("keys.file");
    assertTrue(keysFile.startsWith("ServletException"), keysFile);
    assertTrue(keysFile.contains("keys.file needs sessionless-keyring (dev.sessionless:sessionless-keyring)"), keysFile);
    String encrypted = report.get("keys.password-env");
    assertTrue(encrypted.contains("keys.password-env") && encrypted.contains("dev.sessionless:sessionless-keyring"),
        encrypted);
  }

  @Test
  void publicKeyAlgorithmsWithoutBouncyCastleFailNamingTheArtifactToAdd() {
    String es256 = report.get("es256");
    assertTrue(es256.startsWith("IllegalStateException"), es256);
    assertTrue(es256.contains("ES256 keys need BouncyCastle") && es256.contains("org.bouncycastle:bcprov-jdk18on"), es256);
    assertFalse(es256.contains("NoClassDefFoundError"), es256);
    String fromWebXml = report.get("keys.env-es256");
    assertTrue(fromWebXml.startsWith("ServletException") && fromWebXml.contains("ES256 keys need BouncyCastle")
        && fromWebXml.contains("org.bouncycastle:bcprov-jdk18on"), fromWebXml);
  }

  private static TokenCodec codec(KeySource keys) {
    return TokenCodec.builder().keys(keys).issuer("https://shop.example").audience("shop")
        .timeToLive(Duration.ofMinutes(30)).build();
  }

  private static HttpClient client() {
    return HttpClient.newBuilder().cookieHandler(new LoopbackCookieJar()).build();
  }

  private static String get(HttpClient client, URI uri) throws Exception {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return r.body();
  }

  private static String cookie(HttpClient client, String path) {
    CookieManager jar = (CookieManager) client.cookieHandler().orElseThrow();
    return jar.getCookieStore().getCookies().stream()
        .filter(c -> c.getName().equals("SESSIONLESS") && path.equals(c.getPath()))
        .map(HttpCookie::getValue).findFirst().orElseThrow();
  }
}
