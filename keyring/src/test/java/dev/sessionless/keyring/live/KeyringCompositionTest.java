package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several sources in one keyring: the union, and what happens when two disagree about a kid. */
class KeyringCompositionTest {
  @TempDir Path dir;

  static TokenCodec codec(KeySource keys, Algorithm algorithm) {
    return TokenCodec.builder().keys(keys).algorithm(algorithm).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  @Test
  void localSigningKeysAndRemoteVerificationKeysFormOneSnapshot() throws IOException {
    KeySet local = KeySet.of(TokenKey.generate("local-hs", Algorithm.HS256));
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, local.toJwksWithSecrets());
    KeySet otherService = KeySet.of(TokenKey.generate("auth-es", Algorithm.ES256));
    try (JwksEndpoint remote = new JwksEndpoint(otherService);
        Keyring keyring = Keyring.builder().jwksFile(file).jwksUrl(remote.uri()).httpAllowInsecurePlainHttp(true).build()) {
      assertEquals(List.of("local-hs", "auth-es"), keyring.status().keyIds());
      assertEquals(Map.of(Algorithm.HS256, "local-hs"), keyring.status().signingKeyIds(),
          "the remote public key verifies but never signs");
      // Our own sessions, signed and verified locally ...
      TokenCodec sessions = codec(keyring, Algorithm.HS256);
      assertEquals("local-hs", sessions.decode(sessions.encode(Claims.builder().build())).keyId());
      // ... and the other service's tokens, verified with its published key.
      String theirs = codec(otherService, Algorithm.ES256).encode(Claims.builder().subject("svc").build());
      assertEquals("auth-es", codec(keyring, Algorithm.ES256).decode(theirs).keyId());
      assertEquals(2, keyring.status().sources().size());
      assertEquals(List.of("auth-es"), keyring.status().sources().get(1).keyIds());
    }
  }

  @Test
  void kidConflictIsLoggedOnceAndTheSourceConfiguredFirstWins() throws IOException {
    TokenKey inFile = TokenKey.generate("shared", Algorithm.HS256);
    TokenKey inEnv = TokenKey.generate("shared", Algorithm.HS256);
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(inFile).toJwksWithSecrets());
    Map<String, String> env = Map.of("KEYS", KeySet.of(inEnv).toJwksWithSecrets());
    int mark = RecordingLoggerFinder.mark();
    try (Keyring fileFirst = Keyring.builder().jwksFile(file).environment("KEYS").environmentReader(env::get)
        .filePollInterval(Duration.ofMillis(10)).build()) {
      assertTrue(fileFirst.current().key("shared").orElseThrow().sameAs(inFile));
      assertEquals(Set.of("shared"), fileFirst.status().conflictingKeyIds());
      long checks = fileFirst.status().sources().get(0).checks();
      Await.until(() -> fileFirst.status().sources().get(0).checks() >= checks + 5, () -> "five more polls");
      assertTrue(RecordingLoggerFinder.installed(), "the test logger finder records the keyring's log");
      assertEquals(1, RecordingLoggerFinder.since(mark, e -> e.level == System.Logger.Level.ERROR
          && e.text.contains("kid shared")).size(), "one error for one conflict, however many polls");
      // Fixing the file ends the conflict.
      Files.writeString(file, KeySet.of(TokenKey.generate("own", Algorithm.HS256)).toJwksWithSecrets());
      Await.until(() -> fileFirst.status().conflictingKeyIds().isEmpty(), () -> "conflict resolved");
      assertTrue(fileFirst.current().key("shared").orElseThrow().sameAs(inEnv), "now only the variable holds it");
    }
    Files.writeString(file, KeySet.of(inFile).toJwksWithSecrets());
    try (Keyring envFirst = Keyring.builder().environment("KEYS").environmentReader(env::get).jwksFile(file).build()) {
      assertTrue(envFirst.current().key("shared").orElseThrow().sameAs(inEnv), "order decides, on every node alike");
    }
  }

  @Test
  void theSameKeyInTwoSourcesIsNoConflict() throws IOException {
    KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, keys.toJwksWithSecrets());
    try (Keyring keyring = Keyring.builder().jwksFile(file).keys(keys).build()) {
      assertEquals(List.of("k"), keyring.status().keyIds());
      assertFalse(keyring.status().conflictingKeyIds().contains("k"));
    }
  }
}
