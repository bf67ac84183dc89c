package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.KeyringException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Keys from environment variables (read through an injected reader) and from code. */
class KeyringEnvironmentTest {
  static String randomSecret(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  static Keyring fromEnv(Map<String, String> env, String variable) {
    return Keyring.builder().environment(variable).environmentReader(env::get).build();
  }

  static TokenCodec codec(KeySource keys) {
    return TokenCodec.builder().keys(keys).issuer("https://shop.example").audience("shop")
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  @Test
  void variableHoldingAJwksIsLoaded() {
    KeySet keys = KeySet.of(TokenKey.generate("env-1", Algorithm.HS256), TokenKey.generate("env-2", Algorithm.ES256));
    try (Keyring keyring = fromEnv(Map.of("SESSION_KEYS", keys.toJwksWithSecrets()), "SESSION_KEYS")) {
      assertEquals(List.of("env-1", "env-2"), keyring.status().keyIds());
      assertTrue(keyring.current().key("env-2").orElseThrow().canSign());
    }
  }

  @Test
  void bareSecretBecomesOneHs256KeyWhoseKidIsAHashPrefixSoEveryNodeAgrees() throws Exception {
    String secret = randomSecret(32);
    Map<String, String> env = Map.of("SESSION_SECRET", secret);
    try (Keyring nodeA = fromEnv(env, "SESSION_SECRET"); Keyring nodeB = fromEnv(env, "SESSION_SECRET")) {
      TokenKey key = nodeA.current().keys().get(0);
      assertEquals(Algorithm.HS256, key.algorithm());
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(Base64.getUrlDecoder().decode(secret));
      assertEquals("secret-" + HexFormat.of().formatHex(digest, 0, 4), key.kid());
      assertFalse(key.kid().contains(secret.substring(0, 8)), "the kid never quotes the secret");
      String token = codec(nodeA).encode(Claims.builder().subject("alice").build());
      assertEquals("alice", codec(nodeB).decode(token).subject().orElseThrow(), "node B verifies node A's token");
    }
  }

  @Test
  void paddedBase64urlSecretIsAcceptedToo() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    String padded = Base64.getUrlEncoder().encodeToString(secret);
    assertTrue(padded.endsWith("="));
    try (Keyring keyring = fromEnv(Map.of("S", padded), "S")) {
      assertEquals(1, keyring.current().keys().size());
    }
  }

  @Test
  void nonCanonicalSecretIsRefusedSoOneKeyHasOneSpellingAndOneKid() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    String canonical = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    // 32 bytes take 43 characters whose last two bits must be zero; the JDK's decoder ignores them,
    // so a second spelling of the same secret would otherwise be accepted too.
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = canonical.charAt(canonical.length() - 1);
    String strayBits = canonical.substring(0, canonical.length() - 1) + alphabet.charAt(alphabet.indexOf(last) | 1);
    for (String bad : new String[] {strayBits, canonical + "==", canonical.substring(0, 20) + " " + canonical.substring(20)}) {
      KeyringException e = assertThrows(KeyringException.class, () -> fromEnv(Map.of("S", bad), "S"), bad);
      assertEquals(KeyringException.Reason.MALFORMED, e.reason());
      assertFalse(e.getMessage().contains(canonical.substring(0, 8)), "the message never quotes the secret");
    }
  }

  @Test
  void secretShorterThan32BytesIsRefusedAsUnsafe() {
    KeyringException e = assertThrows(KeyringException.class,
        () -> fromEnv(Map.of("S", randomSecret(16)), "S"));
    assertEquals(KeyringException.Reason.UNSAFE_PARAMETERS, e.reason());
  }

  @Test
  void unsetVariableFailsFastAsUnavailableNamingTheVariable() {
    KeyringException e = assertThrows(KeyringException.class, () -> fromEnv(Map.of(), "SESSION_KEYS"));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
    assertTrue(e.getMessage().contains("SESSION_KEYS"), e.getMessage());
  }

  @Test
  void valueThatIsNeitherJwksNorBase64urlIsMalformed() {
    KeyringException e = assertThrows(KeyringException.class, () -> fromEnv(Map.of("S", "not a key!"), "S"));
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
    KeyringException empty = assertThrows(KeyringException.class,
        () -> fromEnv(Map.of("S", "{\"keys\":[]}"), "S"));
    assertEquals(KeyringException.Reason.MALFORMED, empty.reason(), "an empty JWKS is no key set");
  }

  @Test
  void encryptedJwksInAVariableOpensWithThePasswordFromAnother() {
    KeySet keys = KeySet.of(TokenKey.generate("sealed", Algorithm.HS256));
    char[] password = "correct horse battery staple".toCharArray();
    Map<String, String> env = Map.of("KEYS", EncryptedJwks.encrypt(keys, password, 100_000),
        "KEYS_PASSWORD", new String(password));
    try (Keyring keyring = Keyring.builder().environment("KEYS", "KEYS_PASSWORD").environmentReader(env::get).build()) {
      assertTrue(keyring.current().key("sealed").orElseThrow().sameAs(keys.keys().get(0)));
    }
    KeyringException noPassword = assertThrows(KeyringException.class, () -> fromEnv(env, "KEYS"));
    assertEquals(KeyringException.Reason.CONFIGURATION, noPassword.reason());
    Map<String, String> plain = Map.of("KEYS", keys.toJwksWithSecrets(), "KEYS_PASSWORD", new String(password));
    KeyringException notSealed = assertThrows(KeyringException.class, () -> Keyring.builder()
        .environment("KEYS", "KEYS_PASSWORD").environmentReader(plain::get).build());
    assertEquals(KeyringException.Reason.MALFORMED, notSealed.reason(), "a password configured means sealed keys only");
  }

  @Test
  void keySetGivenInCodeIsServedAsIs() {
    KeySet keys = KeySet.of(TokenKey.generate("code", Algorithm.HS256));
    try (Keyring keyring = Keyring.builder().keys(keys).build()) {
      assertTrue(keyring.current().key("code").orElseThrow().sameAs(keys.keys().get(0)));
      assertSame(keyring.current(), keyring.current(), "one snapshot while nothing changes");
      assertEquals("code", keyring.status().signingKeyIds().get(Algorithm.HS256));
    }
  }

  @Test
  void oneBuilderBuildsKeyringsThatShareNothing() {
    Map<String, String> env = Map.of("S", randomSecret(32));
    KeyringBuilder builder = Keyring.builder().keys(KeySet.of(TokenKey.generate("code", Algorithm.HS256)))
        .environment("S").environmentReader(env::get);
    try (Keyring first = builder.build(); Keyring second = builder.build()) {
      first.close();
      assertFalse(second.status().closed());
      for (SourceStatus s : second.status().sources()) {
        assertEquals(1, s.checks(), "each keyring checked its own sources once: " + s);
      }
      assertEquals(first.status().keyIds(), second.status().keyIds());
    }
  }

  @Test
  void optionsAreCheckedAtBuild() {
    assertThrows(IllegalStateException.class,
        () -> Keyring.builder().filePollInterval(Duration.ofSeconds(1)).filePollInterval(Duration.ofSeconds(2)));
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().filePollInterval(Duration.ZERO));
    KeyringException httpWithoutUrl = assertThrows(KeyringException.class, () -> Keyring.builder()
        .keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256))).httpMaxStale(Duration.ofHours(1)).build());
    assertEquals(KeyringException.Reason.CONFIGURATION, httpWithoutUrl.reason());
    KeyringException devPlusReal = assertThrows(KeyringException.class, () -> Keyring.builder()
        .keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256))).ephemeralDevelopmentKey().build());
    assertEquals(KeyringException.Reason.CONFIGURATION, devPlusReal.reason());
  }
}
