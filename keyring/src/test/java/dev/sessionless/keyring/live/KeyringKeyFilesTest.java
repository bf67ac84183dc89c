package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.PemKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live keyring over the key-file formats: encrypted JWKS files (reloaded) and PEM keys. */
class KeyringKeyFilesTest {
  static final Duration POLL = Duration.ofMillis(20);
  @TempDir Path dir;

  static byte[] kek() {
    byte[] k = new byte[EncryptedJwks.KEK_BYTES];
    new SecureRandom().nextBytes(k);
    return k;
  }

  /**
   * Replaces a polled file the way deployments (and the keyring CLI) do: a temporary file moved
   * over it. A plain write truncates first, so a 20 ms poller may read a half-written file and
   * record MALFORMED before the content this test is about arrives.
   */
  static void replace(Path file, String content) throws Exception {
    Path tmp = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), content);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  static Path pem(String name) throws Exception {
    return Path.of(KeyringKeyFilesTest.class.getResource("/pem/" + name).toURI());
  }

  @Test
  void encryptedFileIsReloadedWhenItChangesAndAForeignOneKeepsTheOldKeys() throws Exception {
    byte[] kek = kek();
    Path file = dir.resolve("keys.jwe");
    Files.writeString(file, EncryptedJwks.encrypt(KeySet.of(TokenKey.generate("k1", Algorithm.HS256)), kek));
    try (Keyring keyring = Keyring.builder().encryptedJwksFile(file, kek).filePollInterval(POLL).build()) {
      assertEquals(List.of("k1"), keyring.status().keyIds());
      KeySet before = keyring.current();
      // Encrypted under another key: does not decrypt, so it never replaces the good keys.
      replace(file, EncryptedJwks.encrypt(KeySet.of(TokenKey.generate("evil", Algorithm.HS256)), kek()));
      Await.until(() -> keyring.status().sources().get(0).failures() >= 1, () -> "the foreign file refused");
      assertSame(before, keyring.current());
      assertEquals(Optional.of(KeyringException.Reason.DECRYPTION_FAILED),
          keyring.status().sources().get(0).lastFailureReason());
      replace(file, EncryptedJwks.encrypt(
          KeySet.of(TokenKey.generate("k1", Algorithm.HS256), TokenKey.generate("k2", Algorithm.HS256)), kek));
      Await.until(() -> keyring.status().keyIds().contains("k2"), () -> "the re-encrypted file reloaded");
    }
  }

  @Test
  void plainFileWhereAnEncryptedOneIsConfiguredIsRefusedSoNoOneCanSlipInKeys() throws Exception {
    byte[] kek = kek();
    Path file = dir.resolve("keys.jwe");
    Files.writeString(file, KeySet.of(TokenKey.generate("forged", Algorithm.HS256)).toJwksWithSecrets());
    KeyringException atStart = assertThrows(KeyringException.class,
        () -> Keyring.builder().encryptedJwksFile(file, kek).build());
    assertEquals(KeyringException.Reason.MALFORMED, atStart.reason());
    assertTrue(atStart.getMessage().contains("not encrypted"), atStart.getMessage());
    Files.writeString(file, EncryptedJwks.encrypt(KeySet.of(TokenKey.generate("k1", Algorithm.HS256)), kek));
    try (Keyring keyring = Keyring.builder().encryptedJwksFile(file, kek).filePollInterval(POLL).build()) {
      replace(file, KeySet.of(TokenKey.generate("forged", Algorithm.HS256)).toJwksWithSecrets());
      Await.until(() -> keyring.status().sources().get(0).failures() >= 1, () -> "the plain file refused");
      assertEquals(List.of("k1"), keyring.status().keyIds());
    }
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().encryptedJwksFile(file, new byte[16]));
  }

  @Test
  void pemKeySignsFromItsActivationAndAPublicPemOnlyVerifies() throws Exception {
    Instant activates = Instant.parse("2026-01-01T00:00:00Z");
    try (Keyring signer = Keyring.builder().pemFile("pem-es", pem("ec-p256-pkcs8.pem"), activates, null, null).build();
        Keyring verifier = Keyring.builder().pemFile("pem-es", pem("ec-p256-public.pem"), null, null, null).build()) {
      assertEquals(Map.of(Algorithm.ES256, "pem-es"), signer.status().signingKeyIds());
      assertEquals(Optional.of(activates), signer.current().key("pem-es").orElseThrow().activates());
      assertTrue(verifier.status().signingKeyIds().isEmpty(), "a public key never signs");
      assertFalse(verifier.current().key("pem-es").orElseThrow().canSign());
      TokenCodec sign = TokenCodec.builder().keys(signer).algorithm(Algorithm.ES256).issuer("i").audience("a")
          .timeToLive(Duration.ofMinutes(5)).build();
      TokenCodec verify = TokenCodec.builder().keys(verifier).algorithm(Algorithm.ES256).issuer("i").audience("a")
          .timeToLive(Duration.ofMinutes(5)).build();
      assertEquals("pem-es", verify.decode(sign.encode(Claims.builder().build())).keyId());
      assertTrue(PemKeys.read("x", pem("ec-p256-public.pem")).sameAs(
          PemKeys.read("x", pem("ec-p256-pkcs8.pem")).publicOnly()), "the fixtures are one key pair");
    }
  }

  @Test
  void unsupportedPemFailsTheBuildAsMalformed() throws Exception {
    KeyringException e = assertThrows(KeyringException.class,
        () -> Keyring.builder().pemFile("rsa", pem("rsa-pkcs8.pem"), null, null, null).build());
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
  }
}
