package dev.sessionless.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Init parameters: key sources from the environment, and clear errors. */
class InitParamsTest {
  private static final String SECRET = Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);

  @Test
  void environmentVariableMayHoldABase64urlSecret() {
    KeySet set = InitParams.keysFromEnv(SECRET, Algorithm.HS256, "KEYS");
    assertEquals(1, set.keys().size());
    assertEquals(Algorithm.HS256, set.keys().get(0).algorithm());
  }

  @Test
  void environmentVariableMayHoldAJwks() {
    String jwks = KeySet.of(TokenKey.generate("k9", Algorithm.HS256)).toJwksWithSecrets();
    assertEquals("k9", InitParams.keysFromEnv(jwks, Algorithm.HS256, "KEYS").keys().get(0).kid());
  }

  @Test
  void keysFromTheNamedEnvironmentVariableBuildAFilter() throws Exception {
    Map<String, String> params = Map.of("keys.env", "APP_KEYS", "issuer", "i", "audience", "a",
        "renewal-fraction", "0.3", "header", "X-S");
    SessionlessFilter.Builder b = SessionlessFilter.builder();
    InitParams.apply(params::get, Map.of("APP_KEYS", SECRET)::get, b, getClass().getClassLoader());
    b.build();
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
    KeySet first = KeySet.of(TokenKey.generate("k1", Algorithm.HS256));
    java.nio.file.Files.writeString(file, first.toJwksWithSecrets());
    Map<String, String> params = Map.of("keys.file", file.toString(), "keys.file.poll-seconds", "1",
        "issuer", "i", "audience", "a");
    SessionlessFilter.Builder b = SessionlessFilter.builder();
    try (dev.sessionless.keyring.Keyring keyring =
        InitParams.apply(params::get, Map.<String, String>of()::get, b, getClass().getClassLoader())) {
      b.build();
      assertTrue(keyring.current().key("k1").isPresent());
      java.nio.file.Files.writeString(file, first.with(TokenKey.generate("k2", Algorithm.HS256)).toJwksWithSecrets());
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
}
