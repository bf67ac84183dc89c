package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyringFileTest {
  static final Duration POLL = Duration.ofMillis(20);
  @TempDir Path dir;

  static KeySet keys(String... kids) {
    KeySet set = KeySet.empty();
    for (String kid : kids) {
      set = set.with(TokenKey.generate(kid, Algorithm.HS256));
    }
    return set;
  }

  static List<String> kids(Keyring k) {
    return k.current().keys().stream().map(TokenKey::kid).toList();
  }

  Keyring fileKeyring(Path file) {
    return Keyring.builder().jwksFile(file).filePollInterval(POLL).build();
  }

  @Test
  void fileIsLoadedAtStartAndReloadedWhenItChanges() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, keys("k1").toJwksWithSecrets());
    try (Keyring keyring = fileKeyring(file)) {
      assertEquals(List.of("k1"), kids(keyring));
      Files.writeString(file, keys("k1", "k2").toJwksWithSecrets());
      Await.until(() -> kids(keyring).contains("k2"), () -> "k2 loaded: " + keyring.status());
    }
  }

  @Test
  void rewritingTheSameContentKeepsTheSameSnapshotObject() throws IOException {
    Path file = dir.resolve("keys.jwks");
    String jwks = keys("k1").toJwksWithSecrets();
    Files.writeString(file, jwks);
    try (Keyring keyring = fileKeyring(file)) {
      KeySet first = keyring.current();
      Files.writeString(file, jwks);
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
      long checks = keyring.status().sources().get(0).checks();
      Await.until(() -> keyring.status().sources().get(0).checks() >= checks + 3, () -> "three more checks");
      assertSame(first, keyring.current(), "same keys, same snapshot: the codec keeps its cache");
    }
  }

  @Test
  void kubernetesStyleAtomicSymlinkSwapIsSeen() throws IOException {
    // The layout kubelet writes: keys.jwks -> ..data/keys.jwks, ..data -> ..<timestamp>/
    Path v1 = Files.createDirectory(dir.resolve("..2026_11_23_10_00_00.1"));
    Files.writeString(v1.resolve("keys.jwks"), keys("k1").toJwksWithSecrets());
    Files.createSymbolicLink(dir.resolve("..data"), v1.getFileName());
    Files.createSymbolicLink(dir.resolve("keys.jwks"), Path.of("..data/keys.jwks"));
    try (Keyring keyring = fileKeyring(dir.resolve("keys.jwks"))) {
      assertEquals(List.of("k1"), kids(keyring));
      Path v2 = Files.createDirectory(dir.resolve("..2026_11_23_11_00_00.2"));
      Files.writeString(v2.resolve("keys.jwks"), keys("k1", "k2").toJwksWithSecrets());
      // Same modification time on purpose: only the real path tells the change apart.
      Files.setLastModifiedTime(v2.resolve("keys.jwks"), Files.getLastModifiedTime(v1.resolve("keys.jwks")));
      Path tmp = Files.createSymbolicLink(dir.resolve("..data_tmp"), v2.getFileName());
      Files.move(tmp, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Await.until(() -> kids(keyring).contains("k2"), () -> "k2 after the swap: " + keyring.status());
    }
  }

  @Test
  void truncatedFileKeepsTheLastGoodKeySetAndCountsAFailure() throws IOException {
    Path file = dir.resolve("keys.jwks");
    String jwks = keys("k1").toJwksWithSecrets();
    Files.writeString(file, jwks);
    try (Keyring keyring = fileKeyring(file)) {
      KeySet good = keyring.current();
      Files.writeString(file, jwks.substring(0, jwks.length() / 2)); // a half-written file
      Await.until(() -> keyring.status().sources().get(0).failures() >= 1, () -> "a failure counted");
      assertSame(good, keyring.current());
      assertEquals(Optional.of(KeyringException.Reason.MALFORMED), keyring.status().sources().get(0).lastFailureReason());
      Files.writeString(file, keys("k1", "k3").toJwksWithSecrets()); // the write completes
      Await.until(() -> kids(keyring).contains("k3"), () -> "recovered");
    }
  }

  @Test
  void deletedFileKeepsTheLastGoodKeySet() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, keys("k1").toJwksWithSecrets());
    try (Keyring keyring = fileKeyring(file)) {
      KeySet good = keyring.current();
      Files.delete(file);
      Await.until(() -> keyring.status().sources().get(0).failures() >= 2, () -> "failures counted");
      assertSame(good, keyring.current());
      assertEquals(Optional.of(KeyringException.Reason.UNAVAILABLE), keyring.status().sources().get(0).lastFailureReason());
    }
  }

  @Test
  void encryptedFileLoadsWithItsPasswordAndFailsFastWithTheWrongOne() throws IOException {
    Path file = dir.resolve("keys.jwe");
    char[] password = "correct horse battery staple".toCharArray();
    Files.writeString(file, EncryptedJwks.encrypt(keys("k1"), password, 100_000));
    try (Keyring keyring = Keyring.builder().encryptedJwksFile(file, password).build()) {
      assertEquals(List.of("k1"), kids(keyring));
    }
    KeyringException wrong = assertThrows(KeyringException.class,
        () -> Keyring.builder().encryptedJwksFile(file, "not the password at all".toCharArray()).build());
    assertEquals(KeyringException.Reason.DECRYPTION_FAILED, wrong.reason());
    KeyringException none = assertThrows(KeyringException.class, () -> Keyring.builder().jwksFile(file).build());
    assertEquals(KeyringException.Reason.CONFIGURATION, none.reason());
  }

  @Test
  void missingFileAtStartFailsFastAsUnavailable() {
    KeyringException e = assertThrows(KeyringException.class, () -> fileKeyring(dir.resolve("absent.jwks")));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
  }

  @Test
  void closeStopsTheRefreshThreadAndKeepsTheLastKeys() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, keys("k1").toJwksWithSecrets());
    Keyring[] keyring = new Keyring[1];
    Thread refresh = RefreshThreads.startedBy(() -> fileKeyring(file), keyring);
    assertTrue(refresh.isDaemon(), "the refresh thread never keeps the JVM alive");
    keyring[0].close();
    keyring[0].close(); // idempotent
    refresh.join(10_000);
    assertFalse(refresh.isAlive(), "the refresh thread ended");
    assertTrue(keyring[0].status().closed());
    assertEquals(List.of("k1"), kids(keyring[0]), "current() still answers the last snapshot");
  }

  @Test
  void sameSizeRewriteWithAnUnchangedModificationTimeIsStillSeen() throws IOException {
    // Two writes within one file-system timestamp tick look alike by size and time; a file whose
    // time is not safely in the past is re-read (and hashed) on every poll until it is.
    Path file = dir.resolve("keys.jwks");
    FileTime stamp = FileTime.from(Instant.now().plusSeconds(3600));
    String v1 = keys("k1").toJwksWithSecrets();
    Files.writeString(file, v1);
    Files.setLastModifiedTime(file, stamp);
    try (Keyring keyring = fileKeyring(file)) {
      TokenKey before = keyring.current().key("k1").orElseThrow();
      String v2 = keys("k1").toJwksWithSecrets(); // the same kid, a new secret: the same length
      assertEquals(v1.length(), v2.length());
      Files.writeString(file, v2);
      Files.setLastModifiedTime(file, stamp);
      Await.until(() -> !keyring.current().key("k1").orElseThrow().sameAs(before), () -> "the new secret");
    }
  }

  @Test
  void noSourceIsAConfigurationErrorThatNamesTheDevelopmentOption() {
    KeyringException e = assertThrows(KeyringException.class, () -> Keyring.builder().build());
    assertEquals(KeyringException.Reason.CONFIGURATION, e.reason());
    assertTrue(e.getMessage().contains("ephemeralDevelopmentKey"), e.getMessage());
  }

  @Test
  void ephemeralDevelopmentKeySignsOnItsOwn() {
    try (Keyring keyring = Keyring.builder().ephemeralDevelopmentKey().build()) {
      assertTrue(keyring.status().signingKeyIds().get(Algorithm.HS256).startsWith("ephemeral-"));
    }
  }
}
