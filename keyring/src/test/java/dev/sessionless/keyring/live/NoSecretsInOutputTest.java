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
import dev.sessionless.keyring.KeyringException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the keyring through loads, failures and warnings with secrets in every source, then
 * searches everything it printed or could print — log lines, exception messages, {@code
 * toString()} and {@code status()} — for any of those secrets.
 */
class NoSecretsInOutputTest {
  @TempDir Path dir;

  static List<String> secretsOf(KeySet keys) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode k : new ObjectMapper().readTree(keys.toJwksWithSecrets()).get("keys")) {
      for (String member : List.of("k", "d")) {
        if (k.has(member)) {
          out.add(k.get(member).asString());
        }
      }
    }
    return out;
  }

  @Test
  void keyMaterialAndPasswordsNeverAppearInLogsExceptionsOrDescriptions() throws Exception {
    int mark = RecordingLoggerFinder.mark();
    List<String> printed = new ArrayList<>();
    KeySet fileKeys = KeySet.of(TokenKey.generate("hs", Algorithm.HS256), TokenKey.generate("es", Algorithm.ES256),
        TokenKey.generate("ed", Algorithm.EDDSA), TokenKey.generate("enc", Algorithm.DIR_A256GCM));
    List<String> secrets = new ArrayList<>(secretsOf(fileKeys));
    String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
        31, 32, 33});
    secrets.add(bare);
    String password = "a long password that must stay hidden";
    secrets.add(password);

    Path file = dir.resolve("keys.jwks");
    String jwks = fileKeys.toJwksWithSecrets();
    Files.writeString(file, jwks);
    Map<String, String> env = Map.of("SESSION_SECRET", bare, "SHORT", "c2hvcnQ",
        "JWKS_BROKEN", jwks.substring(0, jwks.length() - 40), "PW", password);
    try (Keyring keyring = Keyring.builder().jwksFile(file).environment("SESSION_SECRET")
        .environmentReader(env::get).filePollInterval(java.time.Duration.ofMillis(10)).build()) {
      printed.add(keyring.toString());
      printed.add(keyring.status().toString());
      printed.add(keyring.current().toString());
      keyring.current().keys().forEach(k -> printed.add(k.toString()));
      // A half-written file: the parse failure is logged and shown in status.
      Files.writeString(file, jwks.substring(0, jwks.length() / 2));
      Await.until(() -> keyring.status().sources().get(0).failures() > 0, () -> "a failure");
      printed.add(keyring.status().toString());
    }
    for (Map.Entry<String, Runnable> bad : Map.<String, Runnable>of(
        "short secret", () -> Keyring.builder().environment("SHORT").environmentReader(env::get).build(),
        "broken JWKS variable", () -> Keyring.builder().environment("JWKS_BROKEN").environmentReader(env::get).build(),
        "wrong password", () -> {
          Path enc = dir.resolve("keys.jwe");
          try {
            Files.writeString(enc, EncryptedJwks.encrypt(fileKeys, password.toCharArray(), 100_000));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          Keyring.builder().encryptedJwksFile(enc, (password + "!").toCharArray()).build();
        }).entrySet()) {
      KeyringException e = assertThrows(KeyringException.class, bad.getValue()::run, bad.getKey());
      printed.add(e.toString());
      for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
        printed.add(String.valueOf(t.getMessage()));
      }
    }
    List<RecordingLoggerFinder.Entry> log = RecordingLoggerFinder.since(mark, e -> true);
    log.forEach(e -> printed.add(e.toString()));
    assertTrue(log.stream().anyMatch(e -> e.level == System.Logger.Level.WARNING),
        "the failures were logged: " + log);
    for (String line : printed) {
      for (String secret : secrets) {
        assertFalse(line.contains(secret), "a secret leaked into: " + line);
        assertFalse(secret.length() > 24 && line.contains(secret.substring(0, 16)),
            "part of a secret leaked into: " + line);
      }
    }
  }
}
