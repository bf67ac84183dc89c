package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyStatus;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The AES-GCM per-key budget (random 96-bit IVs: NIST SP 800-38D allows 2^32 encryptions per
 * key): each A256GCM key's encryptions on this node are counted, a key past half its budget is
 * logged once, and at the budget it stops encrypting, with another active key taking over or the
 * encode failing as an outage that says to rotate. A small budget stands for 2^28.
 */
class EncryptionBudgetTest {
  static final Instant T = Instant.parse("2026-11-28T09:00:00Z");
  final FakeClock clock = new FakeClock(T);
  final TokenKey older = TokenKey.generate("gcm-older", Algorithm.DIR_A256GCM)
      .withLifecycle(T.minus(Duration.ofDays(2)), T.minus(Duration.ofDays(2)), null, null);
  final TokenKey newer = TokenKey.generate("gcm-newer", Algorithm.DIR_A256GCM)
      .withLifecycle(T.minus(Duration.ofDays(1)), T.minus(Duration.ofDays(1)), null, null);

  Keyring keyring(KeySet keys, long budget) {
    KeyringBuilder b = Keyring.builder().keys(keys).clock(clock).encryptionBudgetPerKey(budget);
    return TestHooks.scheduler(b, () -> new FakeScheduler(clock)).build();
  }

  TokenCodec codec(Keyring keys, Algorithm algorithm) {
    return TokenCodec.builder().keys(keys).algorithm(algorithm).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(30)).clock(clock).build();
  }

  static KeyStatus status(Keyring k, String kid) {
    return k.status().keys().stream().filter(s -> s.kid().equals(kid)).findFirst().orElseThrow();
  }

  static String encode(TokenCodec codec) {
    return codec.encode(Claims.builder().subject("alice").build());
  }

  @Test
  void everyEncryptionIsCountedPerKeyInItsStatus() {
    try (Keyring keys = keyring(KeySet.of(older, newer), 10)) {
      TokenCodec codec = codec(keys, Algorithm.DIR_A256GCM);
      for (int i = 0; i < 3; i++) {
        codec.decode(encode(codec));
      }
      assertEquals(3, status(keys, "gcm-newer").encryptions(), "the key signing now encrypted three");
      assertEquals(0, status(keys, "gcm-older").encryptions());
      assertTrue(status(keys, "gcm-newer").toString().contains("encryptions=3"), status(keys, "gcm-newer").toString());
    }
  }

  @Test
  void aKeyPassingHalfItsBudgetIsLoggedOnceAsAWarningThatSaysToRotate() {
    try (Keyring keys = keyring(KeySet.of(newer), 8)) {
      TokenCodec codec = codec(keys, Algorithm.DIR_A256GCM);
      int mark = RecordingLoggerFinder.mark();
      for (int i = 0; i < 4; i++) {
        encode(codec);
      }
      assertTrue(warnings(mark).isEmpty(), "four of eight is not past half: " + warnings(mark));
      encode(codec);
      encode(codec);
      encode(codec);
      List<RecordingLoggerFinder.Entry> warned = warnings(mark);
      assertEquals(1, warned.size(), "once, however many follow: " + warned);
      assertTrue(warned.get(0).text.contains("gcm-newer") && warned.get(0).text.contains("keyring rotate"),
          warned.get(0).text);
    }
  }

  @Test
  void aKeyAtItsBudgetStopsEncryptingAndAnotherActiveKeyTakesOver() {
    try (Keyring keys = keyring(KeySet.of(older, newer), 3)) {
      TokenCodec codec = codec(keys, Algorithm.DIR_A256GCM);
      for (int i = 0; i < 3; i++) {
        assertEquals("gcm-newer", codec.decode(encode(codec)).keyId());
      }
      String next = encode(codec);
      assertEquals("gcm-older", codec.decode(next).keyId(), "the other active A256GCM key encrypts in its place");
      assertEquals(3, status(keys, "gcm-newer").encryptions(), "never past the budget");
      assertEquals(1, status(keys, "gcm-older").encryptions());
    }
  }

  @Test
  void aKeyAtItsBudgetWithNoOtherKeyFailsTheEncodeAsAnOutageThatSaysToRotate() {
    try (Keyring keys = keyring(KeySet.of(newer), 2)) {
      TokenCodec codec = codec(keys, Algorithm.DIR_A256GCM);
      String token = encode(codec);
      encode(codec);
      TokenException e = assertThrows(TokenException.class, () -> encode(codec));
      assertEquals(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, e.reason());
      assertFalse(e.reason().isRejection(), "an outage of this side (503), not the client's bad token");
      assertTrue(e.getMessage().contains("keyring rotate") && e.getMessage().contains("gcm-newer"), e.getMessage());
      assertEquals("alice", codec.decode(token).subject().orElseThrow(), "tokens it made still decrypt");
      assertEquals(2, status(keys, "gcm-newer").encryptions());
    }
  }

  @Test
  void aPendingKeyDoesNotTakeOverBeforeItActivates() {
    TokenKey pending = TokenKey.generate("gcm-pending", Algorithm.DIR_A256GCM)
        .withLifecycle(T, T.plus(Duration.ofMinutes(5)), null, null);
    try (Keyring keys = keyring(KeySet.of(newer, pending), 1)) {
      TokenCodec codec = codec(keys, Algorithm.DIR_A256GCM);
      encode(codec);
      assertEquals(TokenException.Reason.KEY_SOURCE_UNAVAILABLE,
          assertThrows(TokenException.class, () -> encode(codec)).reason(),
          "other nodes may not hold a key before it activates");
      clock.set(T.plus(Duration.ofMinutes(5)));
      assertEquals("gcm-pending", codec.decode(encode(codec)).keyId());
    }
  }

  @Test
  void signingKeysHaveNoEncryptionBudget() {
    TokenKey hmac = TokenKey.generate("hs", Algorithm.HS256);
    try (Keyring keys = keyring(KeySet.of(hmac), 1)) {
      TokenCodec codec = codec(keys, Algorithm.HS256);
      for (int i = 0; i < 5; i++) {
        encode(codec);
      }
      assertEquals(0, status(keys, "hs").encryptions());
    }
  }

  @Test
  void theBudgetIsOneToTwoToThe32() {
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().encryptionBudgetPerKey(0));
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().encryptionBudgetPerKey((1L << 32) + 1));
    assertThrows(IllegalStateException.class,
        () -> Keyring.builder().encryptionBudgetPerKey(5).encryptionBudgetPerKey(6));
  }

  private static List<RecordingLoggerFinder.Entry> warnings(int mark) {
    return RecordingLoggerFinder.since(mark, e -> e.level == Level.WARNING && e.text.contains("AES-GCM"));
  }
}
