package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyStatus;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safe to retire and safe to delete, per kid: the lifecycle says when no token signed by a key can
 * still be valid, and this node's traffic must confirm it (no verification for a window).
 * Driven by a fake clock; the tokens are real, made and verified by a codec over the keyring.
 */
class KeyRetirementTest {
  static final Instant T = Instant.parse("2026-11-23T12:00:00Z");
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T.minus(Duration.ofMinutes(40)));
  final TokenKey old = TokenKey.generate("old", Algorithm.HS256)
      .withLifecycle(T.minus(Duration.ofDays(10)), T.minus(Duration.ofDays(10)), T.minus(Duration.ofMinutes(30)),
          T.plus(Duration.ofDays(30)));
  final TokenKey next = TokenKey.generate("new", Algorithm.HS256)
      .withLifecycle(T.minus(Duration.ofDays(1)), T.minus(Duration.ofMinutes(30)), null, null);

  Keyring keyring(Path file) {
    return TestHooks.scheduler(Keyring.builder().jwksFile(file).clock(clock)
        .maxTokenLifetime(Duration.ofHours(2)).retirementTrafficWindow(Duration.ofMinutes(30)),
        () -> new FakeScheduler(clock)).build();
  }

  TokenCodec codec(Keyring keys) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a").timeToLive(Duration.ofHours(2))
        .clock(clock).build();
  }

  static KeyStatus of(Keyring k, String kid) {
    return k.status().keys().stream().filter(s -> s.kid().equals(kid)).findFirst().orElseThrow();
  }

  @Test
  void aRetiredKeyIsSafeToDeleteOnlyAfterItsLastTokenCouldExpireAndTrafficStopped() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(old, next).toJwksWithSecrets());
    try (Keyring keys = keyring(file)) {
      TokenCodec codec = codec(keys);
      String underOld = codec.encode(Claims.builder().subject("alice").build()); // T-40m: old still signs
      assertEquals(Optional.of(T.minus(Duration.ofMinutes(40))), of(keys, "old").lastSigned());

      clock.set(T);
      codec.decode(underOld);
      KeyStatus s = of(keys, "old");
      assertFalse(s.signing());
      assertTrue(s.safeToRetire(), "it no longer signs");
      assertEquals(1, s.verifications());
      assertEquals(Optional.of(T), s.lastVerified());
      // retires T-30m + lifetime 2h + skew 10m
      assertEquals(Optional.of(T.plus(Duration.ofMinutes(100))), s.safeToDeleteFrom());
      assertFalse(s.safeToDelete());

      clock.set(T.plus(Duration.ofMinutes(75)));
      codec.decode(underOld); // still valid until T+80m, and still used

      assertEquals(1, of(keys, "old").verifications(), "the one at T is 75 minutes old: out of the window");

      clock.set(T.plus(Duration.ofMinutes(100)));
      s = of(keys, "old");
      assertEquals(1, s.verifications(), "the one at T+75m, 25 minutes ago");
      assertFalse(s.quiet(), "verified 25 minutes ago, inside the 30-minute window");
      assertFalse(s.safeToDelete(), "the lifecycle allows it, the traffic does not confirm it yet");

      clock.set(T.plus(Duration.ofMinutes(105)));
      s = of(keys, "old");
      assertTrue(s.quiet());
      assertTrue(s.safeToDelete());
    }
  }

  @Test
  void verificationsCountTheRollingTrafficWindowNotSinceStart() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(old, next).toJwksWithSecrets());
    clock.set(T.minus(Duration.ofMinutes(40)));
    try (Keyring keys = keyring(file)) { // window 30 minutes: buckets of 30 s
      TokenCodec codec = codec(keys);
      String token = codec.encode(Claims.builder().subject("alice").build()); // under "old"
      clock.set(T);
      for (int i = 0; i < 3; i++) {
        codec.decode(token);
      }
      clock.set(T.plus(Duration.ofMinutes(10)));
      codec.decode(token);
      clock.set(T.plus(Duration.ofMinutes(29)));
      codec.decode(token);
      assertEquals(5, of(keys, "old").verifications(), "all within the window");
      clock.set(T.plus(Duration.ofSeconds(30 * 60 + 31)));
      assertEquals(2, of(keys, "old").verifications(), "the three at T left the window");
      clock.set(T.plus(Duration.ofMinutes(45)));
      assertEquals(1, of(keys, "old").verifications());
      clock.set(T.plus(Duration.ofMinutes(60)));
      assertEquals(0, of(keys, "old").verifications(), "quiet for a whole window");
      assertEquals(Optional.of(T.plus(Duration.ofMinutes(29))), of(keys, "old").lastVerified());
      codec.decode(token); // a bucket reused after a full turn of the ring counts from zero
      assertEquals(1, of(keys, "old").verifications());
      clock.set(T.plus(Duration.ofDays(3)));
      assertEquals(0, of(keys, "old").verifications());
    }
  }

  @Test
  void theOnlySigningKeyIsNotSafeToRetireNorToDelete() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(old, next).toJwksWithSecrets());
    clock.set(T.plus(Duration.ofDays(400)));
    try (Keyring keys = keyring(file)) {
      clock.advance(Duration.ofDays(1));
      KeyStatus s = of(keys, "new");
      assertTrue(s.signing());
      assertFalse(s.safeToRetire(), "no other HS256 key would sign in its place");
      assertEquals(Optional.empty(), s.safeToDeleteFrom(), "it never stops signing");
      assertTrue(s.quiet());
      assertFalse(s.safeToDelete());
    }
  }

  @Test
  void aSigningKeyWithASuccessorIsSafeToRetire() throws IOException {
    TokenKey successor = TokenKey.generate("successor", Algorithm.HS256)
        .withLifecycle(T.minus(Duration.ofDays(1)), T.minus(Duration.ofMinutes(40)), null, null);
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(successor, next).toJwksWithSecrets());
    clock.set(T);
    try (Keyring keys = keyring(file)) {
      assertTrue(of(keys, "new").signing(), "the later activation signs");
      assertTrue(of(keys, "new").safeToRetire(), "successor would sign in its place");
    }
  }

  @Test
  void aKeyringYoungerThanTheWindowDoesNotVouchForSilence() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(old, next).toJwksWithSecrets());
    clock.set(T.plus(Duration.ofDays(2)));
    try (Keyring keys = keyring(file)) {
      clock.advance(Duration.ofMinutes(10));
      KeyStatus s = of(keys, "old");
      assertEquals(0, s.verifications());
      assertFalse(s.quiet(), "10 minutes of watching is not a 30-minute window");
      assertFalse(s.safeToDelete());
      clock.advance(Duration.ofMinutes(20));
      assertTrue(of(keys, "old").safeToDelete());
    }
  }

  @Test
  void withoutAMaximumLifetimeAKeyIsSafeToDeleteOnlyOnceExpired() throws IOException {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(old, next).toJwksWithSecrets());
    clock.set(T);
    try (Keyring keys = Keyring.builder().jwksFile(file).clock(clock).build()) {
      assertEquals(old.expires(), of(keys, "old").safeToDeleteFrom());
    }
  }

  @Test
  void retirementOptionsAreCheckedAtOnce() {
    KeyringBuilder b = Keyring.builder();
    assertThrows(IllegalArgumentException.class, () -> b.maxTokenLifetime(Duration.ofDays(401)));
    assertThrows(IllegalArgumentException.class, () -> b.maxTokenLifetime(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> b.retirementTrafficWindow(Duration.ofMillis(10)));
  }
}
