package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.Claims;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

/** Init parameters: key sources from the environment, and clear errors. */
class InitParamsTest {
  private static final String SECRET = Base64.getUrlEncoder().withoutPadding().encodeToString(new SecureRandom().generateSeed(32));

  /** What init made of the parameters: the keys it gave the builder, and the keyring it started, if any. */
  private record Applied(AutoCloseable started, KeySource keys) implements AutoCloseable {
    KeySet current() {
      return keys.current();
    }

    @Override
    public void close() throws Exception {
      if (started != null) {
        started.close();
      }
    }
  }

  private static Applied applied(Map<String, String> params, Map<String, String> env) throws Exception {
    Map<String, String> all = new HashMap<>(Map.of("issuer", "i", "audience", "a"));
    all.putAll(params);
    SessionlessFilterBuilder b = SessionlessFilter.builder();
    AutoCloseable k = InitParams.apply(all::get, env::get, b, InitParamsTest.class.getClassLoader());
    try {
      b.build();
    } catch (RuntimeException e) {
      if (k != null) {
        k.close();
      }
      throw e;
    }
    return new Applied(k, b.keys);
  }

  @Test
  void keysEnvAndKeyringEnvironmentGiveOneSecretTheSameKidSoNodesAcceptEachOthersTokens() throws Exception {
    Map<String, String> env = Map.of("APP_KEYS", SECRET);
    try (Applied fromWebXml = applied(Map.of("keys.env", "APP_KEYS", "algorithm", "HS256"), env);
        Keyring fromCode = Keyring.builder().environmentReader(env::get).environment("APP_KEYS").build()) {
      assertEquals(fromCode.current().keys().get(0).kid(), fromWebXml.current().keys().get(0).kid());
      TokenCodec a = TokenCodec.builder().keys(fromWebXml.keys()).algorithm(Algorithm.HS256).issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).build();
      TokenCodec b = TokenCodec.builder().keys(fromCode).issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).build();
      assertEquals("v", b.decode(a.encode(Claims.builder().put("x", "v").build())).get("x", String.class).orElseThrow());
      assertEquals("v", a.decode(b.encode(Claims.builder().put("x", "v").build())).get("x", String.class).orElseThrow());
    }
  }

  @Test
  void bareSecretInKeysEnvBecomesAnA256gcmKeyByDefaultWithTheKeyringsKid() throws Exception {
    Map<String, String> env = Map.of("APP_KEYS", SECRET);
    try (Applied filter = applied(Map.of("keys.env", "APP_KEYS"), env);
        Keyring keyring = Keyring.builder().environmentReader(env::get).environment("APP_KEYS").build()) {
      TokenKey key = filter.current().keys().get(0);
      assertEquals(Algorithm.DIR_A256GCM, key.algorithm());
      assertEquals(keyring.current().keys().get(0).kid(), key.kid());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> applied(Map.of("keys.env", "K"),
        Map.of("K", Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[48]))));
    assertTrue(e.getMessage().contains("exactly 32"), e.getMessage());
  }

  @Test
  void environmentVariableMayHoldAJwks() throws Exception {
    String jwks = KeySet.of(TokenKey.generate("k9", Algorithm.DIR_A256GCM)).toJwksWithSecrets();
    try (Applied k = applied(Map.of("keys.env", "KEYS"), Map.of("KEYS", jwks))) {
      assertEquals("k9", k.current().keys().get(0).kid());
    }
  }

  @Test
  void keysThatCannotSignTheConfiguredAlgorithmAreRefusedAtInit() {
    String jwks = KeySet.of(TokenKey.generate("h", Algorithm.HS256)).toJwksWithSecrets();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> applied(Map.of("keys.env", "KEYS", "algorithm", "HS512"), Map.of("KEYS", jwks)));
    assertTrue(e.getMessage().contains("HS512"), e.getMessage());
    // A bare secret becomes a key for the configured algorithm: one too short for it says so.
    IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "KEYS", "algorithm", "HS512"), Map.of("KEYS", SECRET)));
    assertTrue(tooShort.getMessage().contains("HS512 needs at least 64"), tooShort.getMessage());
  }

  @Test
  void encryptedKeyFileOpensWithAPasswordFromAFileOrTheEnvironment(@TempDir Path dir) throws Exception {
    KeySet keys = KeySet.of(TokenKey.generate("enc", Algorithm.DIR_A256GCM));
    char[] password = "correct horse battery".toCharArray();
    Path file = dir.resolve("keys.jwe");
    Files.writeString(file, EncryptedJwks.encrypt(keys, password, EncryptedJwks.MIN_WRITE_ITERATIONS));
    Path passwordFile = dir.resolve("password");
    Files.writeString(passwordFile, "correct horse battery\n");
    try (Applied k = applied(Map.of("keys.file", file.toString(), "keys.password-file", passwordFile.toString()),
        Map.of())) {
      assertEquals("enc", k.current().keys().get(0).kid());
    }
    try (Applied k = applied(Map.of("keys.file", file.toString(), "keys.password-env", "KEYS_PASSWORD"),
        Map.of("KEYS_PASSWORD", "correct horse battery"))) {
      assertEquals("enc", k.current().keys().get(0).kid());
    }
    assertThrows(RuntimeException.class, () -> applied(Map.of("keys.file", file.toString(),
        "keys.password-env", "KEYS_PASSWORD"), Map.of("KEYS_PASSWORD", "wrong horse battery")));
  }

  @Test
  void encryptedKeyFileOpensWithAKeyEncryptionKeyFromTheEnvironmentOrAFile(@TempDir Path dir) throws Exception {
    KeySet keys = KeySet.of(TokenKey.generate("kek", Algorithm.DIR_A256GCM));
    byte[] kek = new byte[EncryptedJwks.KEK_BYTES];
    new SecureRandom().nextBytes(kek);
    String kekText = Base64.getUrlEncoder().withoutPadding().encodeToString(kek);
    Path file = dir.resolve("keys.jwe");
    Files.writeString(file, EncryptedJwks.encrypt(keys, kek));
    try (Applied k = applied(Map.of("keys.file", file.toString(), "keys.kek-env", "KEYS_KEK"),
        Map.of("KEYS_KEK", kekText))) {
      assertEquals("kek", k.current().keys().get(0).kid());
    }
    Path kekFile = dir.resolve("kek");
    Files.writeString(kekFile, kekText + "\n");
    try (Applied k = applied(Map.of("keys.file", file.toString(), "keys.kek-file", kekFile.toString()), Map.of())) {
      assertEquals("kek", k.current().keys().get(0).kid());
    }
  }

  @Test
  void keyEncryptionKeyMustBeCanonicalBase64urlPaddedOrNot(@TempDir Path dir) throws Exception {
    byte[] kek = new byte[EncryptedJwks.KEK_BYTES];
    new SecureRandom().nextBytes(kek);
    Path file = dir.resolve("keys.jwe");
    Files.writeString(file, EncryptedJwks.encrypt(KeySet.of(TokenKey.generate("kek", Algorithm.DIR_A256GCM)), kek));
    String padded = Base64.getUrlEncoder().encodeToString(kek);
    try (Applied k = applied(Map.of("keys.file", file.toString(), "keys.kek-env", "K"), Map.of("K", padded))) {
      assertEquals("kek", k.current().keys().get(0).kid(), "the padding tools add is accepted");
    }
    // Standard base64 ('+', '/') and text with stray bits are other spellings: refused, not guessed at.
    String standard = Base64.getEncoder().withoutPadding().encodeToString(kek);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(kek);
    char last = bare.charAt(bare.length() - 1);
    String strayBits = bare.substring(0, bare.length() - 1) + alphabet.charAt(alphabet.indexOf(last) | 1);
    for (String bad : new String[] {standard.equals(bare) ? bare + "+" : standard, strayBits}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> applied(Map.of("keys.file", file.toString(), "keys.kek-env", "K"), Map.of("K", bad)));
      assertTrue(e.getMessage().contains("keys.kek-env"), e.getMessage());
    }
  }

  @Test
  void plainKeyFileIsRefusedWhenASecretIsConfiguredForIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("p", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    assertThrows(RuntimeException.class, () -> applied(Map.of("keys.file", file.toString(),
        "keys.password-env", "P"), Map.of("P", "correct horse battery")));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> applied(Map.of("keys.file",
        file.toString(), "keys.password-env", "P", "keys.kek-env", "K"), Map.of()));
    assertTrue(e.getMessage().contains("at most one"), e.getMessage());
  }

  @Test
  void keysFromTheNamedEnvironmentVariableBuildAFilter() throws Exception {
    Map<String, String> params = Map.of("keys.env", "APP_KEYS", "issuer", "i", "audience", "a",
        "renewal-fraction", "0.3", "header", "X-S");
    SessionlessFilterBuilder b = SessionlessFilter.builder();
    try (Keyring k = (Keyring) InitParams.apply(params::get, Map.of("APP_KEYS", SECRET)::get, b, getClass().getClassLoader())) {
      b.build();
    }
  }

  @Test
  void missingOrDoubleKeySourceIsRefused() {
    assertThrows(IllegalStateException.class, () -> InitParams.apply(Map.<String, String>of()::get,
        Map.<String, String>of()::get, SessionlessFilter.builder(), null));
    assertThrows(IllegalStateException.class, () -> InitParams.apply(
        Map.of("keys.env", "A", "keys.file", "/x")::get, Map.<String, String>of()::get,
        SessionlessFilter.builder(), null));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> InitParams.apply(
        Map.of("keys.env", "UNSET_VAR")::get, Map.<String, String>of()::get, SessionlessFilter.builder(), null));
    assertTrue(e.getMessage().contains("UNSET_VAR"));
  }

  @Test
  void nonNumericLifetimeIsRefusedNamingTheParameter() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitParams.apply(
        Map.of("keys.env", "K", "max-inactive-interval", "30m")::get, Map.of("K", SECRET)::get,
        SessionlessFilter.builder(), null));
    assertTrue(e.getMessage().contains("max-inactive-interval"), e.getMessage());
  }

  @Test
  void keysFileIsALiveKeyringThatPicksUpARotatedFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path file = dir.resolve("keys.jwks");
    KeySet first = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
    java.nio.file.Files.writeString(file, first.toJwksWithSecrets());
    Map<String, String> params = Map.of("keys.file", file.toString(), "keys.file.poll-seconds", "1",
        "issuer", "i", "audience", "a");
    SessionlessFilterBuilder b = SessionlessFilter.builder();
    try (dev.sessionless.keyring.Keyring keyring =
        (dev.sessionless.keyring.Keyring) InitParams.apply(params::get, Map.<String, String>of()::get, b, getClass().getClassLoader())) {
      b.build();
      assertTrue(keyring.current().key("k1").isPresent());
      java.nio.file.Files.writeString(file, first.with(TokenKey.generate("k2", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (keyring.current().key("k2").isEmpty()) {
        assertTrue(System.nanoTime() < deadline, "the rotated file was not picked up");
        Thread.sleep(20);
      }
    }
  }

  @Test
  void keysFilePollBelowOneSecondIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitParams.apply(
        Map.of("keys.file", dir.resolve("k.jwks").toString(), "keys.file.poll-seconds", "0")::get,
        Map.<String, String>of()::get, SessionlessFilter.builder(), null));
    assertTrue(e.getMessage().contains("keys.file.poll-seconds"), e.getMessage());
  }

  @Test
  void badAttributePolicyAndCookieSecureAreReadAndCheckedAsInitParameters() throws Exception {
    Map<String, String> env = Map.of("K", SECRET);
    try (Applied k = applied(Map.of("keys.env", "K", "bad-attribute", "new-session", "cookie.secure", "true"), env)) {
      assertTrue(k.current().keys().size() == 1);
    }
    try (Applied k = applied(Map.of("keys.env", "K", "bad-attribute", "drop", "cookie.secure", "false"), env)) {
      assertTrue(k.current().keys().size() == 1);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "K", "bad-attribute", "ignore"), env));
    assertTrue(e.getMessage().contains("bad-attribute"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> applied(Map.of("keys.env", "K", "cookie.secure", "auto"), env));
    assertTrue(e.getMessage().contains("cookie.secure"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> applied(Map.of("keys.env", "K", "cookie.name", "__Host-S",
        "cookie.domain", "shop.example"), env));
    assertTrue(e.getMessage().contains("__Host-"), e.getMessage());
  }

  @Test
  void compressionIsAnInitParameterAndASigningFilterThatCompressesMustAcceptIt() throws Exception {
    Map<String, String> env = Map.of("K", SECRET,
        "D", KeySet.of(TokenKey.generate("d1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    // Each parameter and value, and the compression the builder is given.
    Map<List<String>, dev.sessionless.core.Compression> given = Map.of(
        List.of("compress", "true"), dev.sessionless.core.Compression.DEFLATE,
        List.of("compression", "deflate-with-dictionary"), dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY);
    for (Map.Entry<List<String>, dev.sessionless.core.Compression> g : given.entrySet()) {
      SessionlessFilterBuilder b = SessionlessFilter.builder();
      Map<String, String> params = Map.of("issuer", "i", "audience", "a", "keys.env", "D",
          "algorithm", "dir", g.getKey().get(0), g.getKey().get(1));
      try (AutoCloseable k = InitParams.apply(params::get, env::get, b, getClass().getClassLoader())) {
        assertEquals(g.getValue(), b.compress, g.getKey().toString());
        b.build();
      }
    }
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "D", "algorithm", "dir", "compression", "zstd"), env));
    assertTrue(bad.getMessage().contains("compression must be none, deflate or deflate-with-dictionary"), bad.getMessage());
    IllegalStateException twice = assertThrows(IllegalStateException.class,
        () -> applied(Map.of("keys.env", "D", "algorithm", "dir", "compress", "true", "compression", "deflate"), env));
    assertTrue(twice.getMessage().contains("already set"), twice.getMessage());
    SessionlessFilterBuilder signed = SessionlessFilter.builder();
    Map<String, String> params = Map.of("issuer", "i", "audience", "a", "keys.env", "K", "algorithm", "HS256",
        "compression", "deflate-with-dictionary", "accept-compressed-signed-tokens", "true");
    try (AutoCloseable k = InitParams.apply(params::get, env::get, signed, getClass().getClassLoader())) {
      assertEquals(Boolean.TRUE, signed.acceptCompressedSigned);
      signed.build();
    }
    RuntimeException e = assertThrows(RuntimeException.class, () -> applied(Map.of("keys.env", "K",
        "algorithm", "HS256", "compress", "true", "accept-compressed-signed-tokens", "false"), env));
    assertTrue(e.getMessage().contains("acceptCompressedSignedTokens(false)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "K", "accept-compressed-signed-tokens", "sometimes"), env));
    assertTrue(e.getMessage().contains("accept-compressed-signed-tokens"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "D", "algorithm", "dir", "compress", "yes please"), env));
    assertTrue(e.getMessage().contains("compress"), e.getMessage());
  }

  @Test
  void revocationMemoryWiresAnInMemoryStoreAndOtherValuesAreRefused() throws Exception {
    Map<String, String> env = Map.of("APP_KEYS", SECRET);
    SessionlessFilterBuilder b = SessionlessFilter.builder();
    Map<String, String> params = Map.of("issuer", "i", "audience", "a", "keys.env", "APP_KEYS", "revocation", "memory");
    try (AutoCloseable k = InitParams.apply(params::get, env::get, b, getClass().getClassLoader())) {
      assertTrue(b.revocation instanceof dev.sessionless.core.RevocationStore);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> applied(Map.of("keys.env", "APP_KEYS", "revocation", "redis"), env));
    assertTrue(e.getMessage().contains("revocation.context-attribute"), e.getMessage());
  }
}
