package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sessionless.keys.* into a live keyring, and the messages that say what to set. */
class KeyringFactoryTest {
  private static final KeySet KEYS = KeySet.of(TokenKey.generate("enc-1", Algorithm.HS256));

  @TempDir
  Path dir;

  @Test
  void anEncryptedFileOpensWithThePasswordFromAMountedFile() throws Exception {
    char[] password = "correct horse battery".toCharArray();
    Path file = Files.writeString(dir.resolve("keys.jwe"), EncryptedJwks.encrypt(KEYS, password,
        EncryptedJwks.MIN_WRITE_ITERATIONS));
    Path secret = Files.writeString(dir.resolve("password"), "correct horse battery\n");
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.getEncryptedFile().setPath(file);
    keys.getEncryptedFile().setPasswordFile(secret);
    try (Keyring k = KeyringFactory.build(keys, Map.<String, String>of()::get)) {
      assertEquals(List.of("enc-1"), k.status().keyIds());
    }
  }

  @Test
  void anEncryptedFileOpensWithAKeyEncryptionKeyFromTheEnvironment() throws Exception {
    byte[] kek = new byte[32];
    new SecureRandom().nextBytes(kek);
    Path file = Files.writeString(dir.resolve("keys.jwe"), EncryptedJwks.encrypt(KEYS, kek));
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.getEncryptedFile().setPath(file);
    keys.getEncryptedFile().setKekVariable("SHOP_KEK");
    String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(kek);
    try (Keyring k = KeyringFactory.build(keys, Map.of("SHOP_KEK", encoded)::get)) {
      assertEquals(List.of("enc-1"), k.status().keyIds());
    }
  }

  @Test
  void aMissingPasswordVariableIsNamed() throws Exception {
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.getEncryptedFile().setPath(dir.resolve("keys.jwe"));
    keys.getEncryptedFile().setPasswordVariable("SHOP_KEY_PASSWORD");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyringFactory.build(keys, Map.<String, String>of()::get));
    assertTrue(e.getMessage().contains("SHOP_KEY_PASSWORD"), e.getMessage());
    assertTrue(e.getMessage().contains("sessionless.keys.encrypted-file.password-variable"), e.getMessage());
  }

  @Test
  void anEncryptedFileNeedsExactlyOneSecret() {
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.getEncryptedFile().setPath(dir.resolve("keys.jwe"));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyringFactory.build(keys, Map.<String, String>of()::get));
    assertTrue(e.getMessage().contains("exactly one"), e.getMessage());
  }

  @Test
  void aRemoteJwksAloneNeverSuppliesTheSigningKey() {
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.setJwksUrl(URI.create("https://auth.example/jwks.json"));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyringFactory.build(keys, Map.<String, String>of()::get));
    assertTrue(e.getMessage().contains("never supplies this application's signing key"), e.getMessage());
  }

  @Test
  void theEphemeralKeyIsRefusedBesideARealSource() {
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.setEphemeral(true);
    keys.setFile(dir.resolve("keys.jwks"));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyringFactory.build(keys, Map.<String, String>of()::get));
    assertTrue(e.getMessage().contains("sessionless.keys.ephemeral=true"), e.getMessage());
  }

  @Test
  void aSecretInTheEnvironmentIsAKey() {
    KeysProperties keys = new SessionlessProperties().getKeys();
    keys.setEnvironment("SHOP_SECRET");
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    try (Keyring k = KeyringFactory.build(keys,
        Map.of("SHOP_SECRET", Base64.getUrlEncoder().withoutPadding().encodeToString(secret))::get)) {
      assertEquals(1, k.status().keyIds().size());
    }
  }
}
