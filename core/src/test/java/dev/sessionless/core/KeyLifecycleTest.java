package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class KeyLifecycleTest {
  static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  static final Instant ROTATE = T0.plus(Duration.ofDays(7));

  final TokenKey old = TokenKey.generate("old", Algorithm.HS256)
      .withLifecycle(T0, T0, ROTATE, ROTATE.plus(Duration.ofHours(1)));
  final TokenKey next = TokenKey.generate("next", Algorithm.HS256)
      .withLifecycle(T0.plus(Duration.ofDays(6)), ROTATE, null, null);

  TokenCodec codec(KeySource keys, FakeClock clock) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(30)).clockSkew(Duration.ZERO).clock(clock).build();
  }

  @Test
  void signingKeyFollowsTheClockAlone() {
    KeySet set = KeySet.of(old, next);
    assertEquals("old", set.signingKey(Algorithm.HS256, ROTATE.minusSeconds(1)).orElseThrow().kid());
    assertEquals("next", set.signingKey(Algorithm.HS256, ROTATE).orElseThrow().kid());
    assertTrue(set.signingKey(Algorithm.HS512, ROTATE).isEmpty());
    assertTrue(set.signingKey(Algorithm.HS256, T0.minusSeconds(1)).isEmpty(), "nothing active yet");
  }

  @Test
  void retiredKeyStillVerifiesUntilItExpires() {
    FakeClock clock = new FakeClock(ROTATE.minusSeconds(60));
    TokenCodec codec = codec(KeySet.of(old, next), clock);
    String byOld = codec.encode(Claims.builder().build());
    assertEquals("old", codec.decode(byOld).keyId());
    clock.advance(Duration.ofMinutes(2)); // old retired, next signs
    assertEquals("next", codec.decode(codec.encode(Claims.builder().build())).keyId());
    assertEquals("old", codec.decode(byOld).keyId(), "retired but not expired: still verifies");
  }

  @Test
  void expiredKeyNoLongerVerifies() {
    FakeClock clock = new FakeClock(ROTATE.minusSeconds(60));
    TokenKey shortLived = TokenKey.generate("short", Algorithm.HS256)
        .withLifecycle(null, null, ROTATE, ROTATE.plusSeconds(60));
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(shortLived, next)).issuer("i").audience("a")
        .timeToLive(Duration.ofHours(2)).clockSkew(Duration.ZERO).clock(clock).build();
    String token = codec.encode(Claims.builder().build());
    clock.advance(Duration.ofMinutes(3));
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(TokenException.Reason.UNKNOWN_KEY, e.reason());
  }

  @Test
  void equalActivationIsBrokenByTheGreatestKidSoEveryNodeAgrees() {
    TokenKey a = TokenKey.generate("a", Algorithm.HS256).withLifecycle(null, T0, null, null);
    TokenKey b = TokenKey.generate("b", Algorithm.HS256).withLifecycle(null, T0, null, null);
    assertEquals("b", KeySet.of(a, b).signingKey(Algorithm.HS256, ROTATE).orElseThrow().kid());
    assertEquals("b", KeySet.of(b, a).signingKey(Algorithm.HS256, ROTATE).orElseThrow().kid());
  }

  @Test
  void publicOnlyKeyVerifiesButCannotSign() {
    TokenKey pair = TokenKey.generate("ed", Algorithm.EDDSA);
    FakeClock clock = new FakeClock(ROTATE);
    TokenCodec signer = TokenCodec.builder().keys(KeySet.of(pair)).algorithm(Algorithm.EDDSA)
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    TokenCodec verifier = TokenCodec.builder().keys(KeySet.of(pair.publicOnly())).algorithm(Algorithm.EDDSA)
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    assertEquals("ed", verifier.decode(signer.encode(Claims.builder().build())).keyId());
    TokenException e = assertThrows(TokenException.class, () -> verifier.encode(Claims.builder().build()));
    assertEquals(TokenException.Reason.NO_SIGNING_KEY, e.reason());
    assertFalse(pair.publicOnly().canSign());
  }

  @Test
  void keySetChangeIsPickedUpOnTheNextCall() {
    FakeClock clock = new FakeClock(ROTATE);
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(next));
    TokenCodec codec = codec(live::get, clock);
    String token = codec.encode(Claims.builder().build());
    live.set(KeySet.of(TokenKey.generate("other", Algorithm.HS256)));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void lifecycleOutOfOrderIsRefused() {
    TokenKey k = TokenKey.generate("k", Algorithm.HS256);
    assertThrows(IllegalArgumentException.class, () -> k.withLifecycle(null, ROTATE, T0, null));
    assertThrows(IllegalArgumentException.class, () -> k.withLifecycle(null, null, ROTATE, T0));
    assertThrows(IllegalArgumentException.class, () -> k.withLifecycle(ROTATE, T0, null, null));
  }

  @Test
  void duplicateKidsAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> KeySet.of(TokenKey.generate("k", Algorithm.HS256), TokenKey.generate("k", Algorithm.HS512)));
  }

  @Test
  void unknownKidIsReportedToTheSourceAndStillRejected() {
    FakeClock clock = new FakeClock(ROTATE.minusSeconds(60));
    String byNext = codec(KeySet.of(next.withLifecycle(T0, T0, null, null)), clock)
        .encode(Claims.builder().build());
    java.util.List<String> told = new java.util.ArrayList<>();
    KeySet only = KeySet.of(old);
    KeySource source = new KeySource() {
      @Override public KeySet current() { return only; }
      @Override public void unknownKeyId(String kid) { told.add(kid); }
    };
    TokenCodec codec = codec(source, clock);
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(byNext));
    assertEquals(TokenException.Reason.UNKNOWN_KEY, e.reason());
    assertEquals(java.util.List.of("next"), told);
    codec.decode(codec.encode(Claims.builder().build()));
    assertEquals(1, told.size(), "a known kid is not reported");
  }
}
