package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.KeyringException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the keyring through start, reloads, conflicts, broken files, failing and hostile HTTP
 * responses, wrong passwords and the development key, capturing everything it logs (at every
 * level, through {@link RecordingLoggerFinder}), every exception and every {@code toString()} and
 * status view, then looks for every secret involved in all of it.
 */
class NoSecretsPrintedTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  final List<String> secrets = new ArrayList<>();
  final List<String> printed = new ArrayList<>();

  static String randomSecret(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** Remembers the secret and private members of every key in the set. */
  KeySet secretsOf(KeySet keys) throws Exception {
    for (JsonNode k : JSON.readTree(keys.toJwksWithSecrets()).get("keys")) {
      for (String member : List.of("k", "d")) {
        if (k.has(member)) {
          secrets.add(k.get(member).asString());
        }
      }
    }
    return keys;
  }

  void print(Object o) {
    printed.add(String.valueOf(o));
  }

  void print(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      printed.add(c.toString());
      for (StackTraceElement e : c.getStackTrace()) {
        printed.add(e.toString());
      }
    }
  }

  void printState(Keyring k) {
    print(k);
    print(k.status());
    print(k.current());
  }

  KeyringException failsToBuild(KeyringBuilder b) {
    KeyringException e = assertThrows(KeyringException.class, b::build);
    print(e);
    return e;
  }

  @Test
  void noKeyMaterialPasswordOrUrlCredentialReachesLogsExceptionsOrDiagnostics() throws Exception {
    assertTrue(RecordingLoggerFinder.installed(), "the recording logger finder must be in force");
    int mark = RecordingLoggerFinder.mark();

    String bareSecret = randomSecret(32);
    secrets.add(bareSecret);
    KeySet fileKeys = secretsOf(KeySet.of(TokenKey.generate("hs", Algorithm.HS256),
        TokenKey.generate("es", Algorithm.ES256), TokenKey.generate("ed", Algorithm.EDDSA),
        TokenKey.generate("aes", Algorithm.DIR_A256GCM), TokenKey.generate("shared", Algorithm.HS256)));
    KeySet envKeys = secretsOf(KeySet.of(TokenKey.generate("shared", Algorithm.HS256)));
    KeySet remoteKeys = secretsOf(KeySet.of(TokenKey.generate("remote-es", Algorithm.ES256),
        TokenKey.generate("remote-hs", Algorithm.HS384)));
    String urlCredential = "tok-" + randomSecret(24);
    secrets.add(urlCredential);
    String password = "pw-" + randomSecret(18);
    secrets.add(password);

    Path file = dir.resolve("keys.jwks");
    String fileJwks = fileKeys.toJwksWithSecrets();
    Files.writeString(file, fileJwks);
    Map<String, String> env = new HashMap<>();
    env.put("SESSION_SECRET", bareSecret);
    env.put("KEYS", envKeys.toJwksWithSecrets());

    try (JwksEndpoint remote = new JwksEndpoint(remoteKeys)) {
      remote.body = remoteKeys.toJwksWithSecrets(); // an HTTP source may hold symmetric keys too
      remote.cacheControl = "no-cache";
      java.net.URI url = java.net.URI.create(remote.uri() + "?access_token=" + urlCredential);
      try (Keyring keyring = Keyring.builder()
          .jwksFile(file).environment("SESSION_SECRET").environment("KEYS").environmentReader(env::get)
          .jwksUrl(url).httpAllowInsecurePlainHttp(true).filePollInterval(Duration.ofMillis(10))
          .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50)).httpBackoff(Duration.ofMillis(10))
          .unknownKeyRefreshInterval(Duration.ofMillis(1)).build()) {
        printState(keyring);
        SourceStatus fileStatus = keyring.status().sources().get(0);

        // A half-written file: its first half holds secrets.
        Files.writeString(file, fileJwks.substring(0, fileJwks.length() / 2));
        Await.until(() -> keyring.status().sources().get(0).failures() >= 1, () -> "the truncated file noticed");
        printState(keyring);
        // A file whose key is too short, and one whose EC private key does not fit its public key.
        String shortSecret = randomSecret(16);
        secrets.add(shortSecret);
        Files.writeString(file, "{\"keys\":[{\"kty\":\"oct\",\"kid\":\"short\",\"alg\":\"HS256\",\"k\":\"" + shortSecret + "\"}]}");
        Await.until(() -> keyring.status().sources().get(0).failures() >= 2, () -> "the short key refused");
        JsonNode es = JSON.readTree(KeySet.of(TokenKey.generate("mismatch", Algorithm.ES256)).toJwksWithSecrets());
        String foreignD = JSON.readTree(KeySet.of(TokenKey.generate("x", Algorithm.ES256)).toJwksWithSecrets())
            .get("keys").get(0).get("d").asString();
        secrets.add(foreignD);
        ((tools.jackson.databind.node.ObjectNode) es.get("keys").get(0)).put("d", foreignD);
        Files.writeString(file, es.toString());
        Await.until(() -> keyring.status().sources().get(0).failures() >= 3, () -> "the mismatched key refused");
        printState(keyring);
        Files.writeString(file, fileJwks);
        Await.until(() -> keyring.status().sources().get(0).consecutiveFailures() == 0, () -> "recovered");

        // The HTTP source: an error status, a dropped connection, a body that is JSON with a secret but no JWKS.
        remote.status = 500;
        Await.until(() -> keyring.status().sources().get(3).failures() >= 1, () -> "HTTP 500");
        remote.status = 200;
        remote.dropConnection = true;
        Await.until(() -> keyring.status().sources().get(3).failures() >= 2, () -> "dropped");
        remote.dropConnection = false;
        String leaked = randomSecret(32);
        secrets.add(leaked);
        remote.body = "{\"keys\":[{\"kty\":\"oct\",\"kid\":\"bad\",\"alg\":\"HS256\",\"k\":\"" + leaked + "\"";
        Await.until(() -> keyring.status().sources().get(3).failures() >= 3, () -> "broken JSON");
        keyring.unknownKeyId("kid-from-a-forged-token");
        printState(keyring);
        print(fileStatus);
      }
      // Plain http refused: the message names the URL without its credential.
      failsToBuild(Keyring.builder().jwksUrl(url));
      // The remote secrets accepted (verify-only), and a file of a peer's keys marked verify-only.
      remote.body = remoteKeys.toJwksWithSecrets();
      try (Keyring trusting = Keyring.builder().jwksUrl(url).acceptSecretKeys().httpAllowInsecurePlainHttp(true)
          .jwksFile(file).verifyOnly().build()) {
        printState(trusting);
        for (TokenKey k : trusting.current().keys()) {
          print(k);
        }
      }
    }

    // Start-up failures: a variable of broken JSON quoting a secret, a wrong password, a short bare secret.
    String inBrokenJson = randomSecret(32);
    secrets.add(inBrokenJson);
    failsToBuild(Keyring.builder().environment("X").environmentReader(
        Map.of("X", "{\"keys\":[{\"kty\":\"oct\",\"k\":\"" + inBrokenJson + "\"")::get));
    String shortBare = randomSecret(20);
    secrets.add(shortBare);
    failsToBuild(Keyring.builder().environment("X").environmentReader(Map.of("X", shortBare)::get));
    Path sealed = dir.resolve("keys.jwe");
    Files.writeString(sealed, EncryptedJwks.encrypt(fileKeys, password.toCharArray(), 100_000));
    String wrongPassword = "wrong-" + randomSecret(18);
    secrets.add(wrongPassword);
    failsToBuild(Keyring.builder().encryptedJwksFile(sealed, wrongPassword.toCharArray()));
    failsToBuild(Keyring.builder().jwksFile(sealed));
    try (Keyring opened = Keyring.builder().encryptedJwksFile(sealed, password.toCharArray()).build()) {
      printState(opened);
    }

    // An unexpected failure whose message quotes a secret: INTERNAL, naming the type only.
    String inBug = randomSecret(32);
    secrets.add(inBug);
    failsToBuild(Keyring.builder().environment("X").environmentReader(name -> {
      throw new IllegalStateException("bug quoting " + inBug);
    }));

    // The development key.
    try (Keyring dev = Keyring.builder().ephemeralDevelopmentKey().build()) {
      secretsOf(dev.current());
      printState(dev);
    }

    List<RecordingLoggerFinder.Entry> log = RecordingLoggerFinder.since(mark, e -> true);
    // Not vacuous: the scenario did produce the messages it was meant to.
    assertSeen(log, e -> e.level == Level.ERROR && e.text.contains("kid shared"), "the conflict error");
    assertSeen(log, e -> e.level == Level.WARNING && e.text.contains("MALFORMED"), "a malformed file warning");
    assertSeen(log, e -> e.text.contains("HTTP 500"), "the HTTP 500 failure");
    assertSeen(log, e -> e.level == Level.WARNING && e.text.contains("EPHEMERAL"), "the development key warning");
    assertSeen(log, e -> e.text.contains("recovered"), "a recovery");
    assertSeen(log, e -> e.level == Level.WARNING && e.text.contains("remote-hs") && e.text.contains("verify-only"),
        "the remote secret key dropped");
    assertSeen(log, e -> e.level == Level.WARNING && e.text.contains("private part"), "a private part dropped");
    assertTrue(secrets.size() >= 15, "secrets collected: " + secrets.size());

    for (String secret : secrets) {
      String head = secret.substring(0, 12);
      for (RecordingLoggerFinder.Entry e : log) {
        assertFalse(e.text.contains(head), "a log message holds secret material: " + e.level + " " + e.logger);
      }
      for (String p : printed) {
        assertFalse(p.contains(head), "an exception, toString() or status holds secret material");
      }
    }
  }

  static void assertSeen(List<RecordingLoggerFinder.Entry> log, Predicate<RecordingLoggerFinder.Entry> what, String name) {
    assertTrue(log.stream().anyMatch(what), name + " was not logged; the log: " + log);
  }
}
