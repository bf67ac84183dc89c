package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sessionless.core.KeySet;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rotation trap: nodes that read ES256 or EdDSA public keys over HTTP hold the old JWKS for up
 * to its {@code max-age}, so for published keys that, not the file poll, bounds the safe lead.
 * {@code keyring rotate} reads the max-age from the live endpoint ({@code --jwks-url}, a real HTTP
 * server on loopback here), takes it as given ({@code --jwks-max-age}) or assumes the project's
 * default (5 minutes) and says so.
 */
class RotateJwksLeadTest {
  static final Instant T0 = Instant.parse("2026-11-28T09:00:00Z");
  final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  final AtomicInteger requests = new AtomicInteger();
  @TempDir Path dir;
  HttpServer server;

  record Result(int code, String out, String err) {}

  Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), clock);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Path init(String alg) {
    Path file = dir.resolve("keys.json");
    Result r = run("init", "--out", file.toString(), "--alg", alg, "--kid", "first");
    assertEquals(0, r.code, r.err);
    return file;
  }

  /** Serves the public JWKS of {@code file} at /jwks with {@code cacheControl}, as JwksServlet does. */
  String serve(Path file, String cacheControl) throws IOException {
    String jwks = KeySet.fromJwks(Files.readString(file)).toPublicJwks();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/jwks", ex -> {
      requests.incrementAndGet();
      byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
      ex.getResponseHeaders().set("Cache-Control", cacheControl);
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks";
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void aLeadShorterThanTheLiveJwksMaxAgeIsRefusedSayingWhatIsSafe() throws IOException {
    Path file = init("ES256");
    String url = serve(file, "public, max-age=300");
    String before = Files.readString(file);
    Result r = run("rotate", "--in", file.toString(), "--activate-in", "15s", "--jwks-url", url);
    assertEquals(KeyringCli.USAGE, r.code, r.out);
    assertEquals(1, requests.get(), "one real GET of the endpoint");
    assertTrue(r.err.contains("max-age") && r.err.contains("5m") && r.err.contains("5m15s"),
        "says why and what lead is safe: " + r.err);
    assertEquals(before, Files.readString(file), "nothing written");
  }

  @Test
  void aLeadLongerThanTheLiveJwksMaxAgeIsAccepted() throws IOException {
    Path file = init("ES256");
    String url = serve(file, "public, max-age=300");
    Result r = run("rotate", "--in", file.toString(), "--kid", "second", "--activate-in", "6m", "--jwks-url", url);
    assertEquals(0, r.code, r.err);
    assertFalse(r.err.contains("warning"), r.err);
    assertEquals(T0.plusSeconds(360),
        KeySet.fromJwks(Files.readString(file)).key("second").orElseThrow().activates().orElseThrow());
  }

  @Test
  void publishedKeysWithoutAJwksOptionAssumeTheDefaultMaxAgeAndSaySo() throws IOException {
    Path file = init("EdDSA");
    Result refused = run("rotate", "--in", file.toString(), "--activate-in", "1m");
    assertEquals(KeyringCli.USAGE, refused.code, refused.out);
    assertTrue(refused.err.contains("assuming") && refused.err.contains("--jwks-url"), refused.err);
    Result given = run("rotate", "--in", file.toString(), "--kid", "second", "--activate-in", "1m",
        "--jwks-max-age", "30s");
    assertEquals(0, given.code, "30s + 2 x 5s + 5s = 45s is enough: " + given.err);
  }

  @Test
  void aForcedShortLeadForPublishedKeysIsWrittenWithAWarning() throws IOException {
    Path file = init("ES256");
    String url = serve(file, "max-age=300");
    Result r = run("rotate", "--in", file.toString(), "--kid", "second", "--activate-in", "15s", "--jwks-url", url,
        "--force");
    assertEquals(0, r.code, r.err);
    assertTrue(r.err.contains("warning") && r.err.contains("5m15s"), r.err);
  }

  @Test
  void secretKeysAreNeverPublishedSoTheJwksMaxAgeDoesNotApply() {
    Path file = init("dir");
    Result r = run("rotate", "--in", file.toString(), "--kid", "second", "--activate-in", "15s",
        "--jwks-max-age", "10m");
    assertEquals(0, r.code, r.err);
    assertTrue(r.err.contains("do not apply"), r.err);
  }

  @Test
  void anUnreachableJwksUrlFailsAndOffersTheMaxAgeOption() throws IOException {
    Path file = init("ES256");
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    Result r = run("rotate", "--in", file.toString(), "--activate-in", "6m", "--jwks-url",
        "http://127.0.0.1:" + closed + "/jwks");
    assertEquals(KeyringCli.FAILED, r.code, r.out);
    assertTrue(r.err.contains("--jwks-max-age"), r.err);
    assertEquals(1, r.err.lines().count(), "one line: " + r.err);
  }
}
