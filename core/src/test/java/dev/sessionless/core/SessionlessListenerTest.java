package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.internal.KeyUsageHook;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The listener SPI as the codec drives it: what it is told, and that it can never break a request. */
class SessionlessListenerTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final TokenKey key = TokenKey.generate("k1", Algorithm.HS256);

  /** Records every event as one line. */
  static final class RecordingListener implements SessionlessListener {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
      events.add("verified " + kid + " " + algorithm + (cacheHit ? " hit" : " miss"));
    }

    @Override
    public void tokenRejected(TokenException.Reason reason) {
      events.add("rejected " + reason);
    }

    @Override
    public void tokenEncoded(String kid, Algorithm algorithm, int length) {
      events.add("encoded " + kid + " " + algorithm + " " + length);
    }
  }

  TokenCodec.Builder builder(KeySource keys) {
    return TokenCodec.builder().keys(keys).issuer("i").audience("a").timeToLive(Duration.ofMinutes(10))
        .clock(clock);
  }

  @Test
  void verificationsAreReportedWithKidAlgorithmAndWhetherTheCacheServedThem() {
    RecordingListener l = new RecordingListener();
    TokenCodec codec = builder(KeySet.of(key)).listener(l).build();
    String token = codec.encode(Claims.builder().subject("alice").build());
    codec.decode(token);
    codec.decode(new String(token.toCharArray()));
    assertEquals(List.of("encoded k1 HS256 " + token.length(), "verified k1 HS256 miss", "verified k1 HS256 hit"),
        l.events);
  }

  @Test
  void everyRejectionIsReportedWithItsReasonAndNoVerification() {
    RecordingListener l = new RecordingListener();
    TokenCodec codec = builder(KeySet.of(key)).listener(l).maxTokenLength(256).build();
    String token = codec.encode(Claims.builder().build());
    l.events.clear();
    String forged = token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BA" : "AA");
    assertThrows(TokenException.class, () -> codec.decode(forged));
    assertThrows(TokenException.class, () -> codec.decode("x".repeat(300)));
    assertThrows(TokenException.class, () -> codec.decode(null));
    clock.advance(Duration.ofMinutes(11));
    assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(List.of("rejected BAD_SIGNATURE", "rejected TOO_LARGE", "rejected MALFORMED", "rejected EXPIRED"),
        l.events);
  }

  @Test
  void aFailureOnThisSideIsReportedAsInternalNotAsARejection() {
    RecordingListener l = new RecordingListener();
    KeySource broken = () -> {
      throw new IllegalStateException("broken deployment");
    };
    TokenCodec codec = builder(broken).listener(l).build();
    TokenException e = assertThrows(TokenException.class, () -> codec.decode("a.b.c"));
    assertEquals(TokenException.Reason.INTERNAL, e.reason());
    assertEquals(List.of("rejected INTERNAL"), l.events);
  }

  @Test
  void aListenerThatThrowsNeverBreaksEncodeOrDecode() {
    SessionlessListener hostile = new SessionlessListener() {
      @Override
      public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
        throw new IllegalStateException("metrics back end down");
      }

      @Override
      public void tokenRejected(TokenException.Reason reason) {
        throw new NoClassDefFoundError("io/micrometer/core/instrument/Counter");
      }

      @Override
      public void tokenEncoded(String kid, Algorithm algorithm, int length) {
        throw new UnsupportedOperationException("this listener fails on every call, on purpose");
      }
    };
    TokenCodec codec = builder(KeySet.of(key)).listener(hostile).build();
    String token = codec.encode(Claims.builder().subject("alice").build());
    assertEquals("alice", codec.decode(token).subject().orElseThrow());
    assertEquals("alice", codec.decode(token).subject().orElseThrow());
    assertEquals(TokenException.Reason.MALFORMED,
        assertThrows(TokenException.class, () -> codec.decode("not a token")).reason(),
        "the rejection keeps its own reason even when the listener fails");
  }

  @Test
  void theKeySourcesUsageHookLearnsWhichKeySignedAndWhichVerified() {
    List<String> used = Collections.synchronizedList(new ArrayList<>());
    KeySet set = KeySet.of(key);
    KeySource counting = () -> set;
    KeyUsageHook hook = new KeyUsageHook() {
      @Override
      public TokenKey signing(KeySet s, TokenKey chosen, long nowSeconds) {
        used.add("signed " + chosen.kid());
        return chosen;
      }

      @Override
      public void verified(TokenKey k) {
        used.add("verified " + k.kid());
      }
    };
    KeyUsageHook.register(s -> s == counting ? hook : null);
    TokenCodec codec = builder(counting).build();
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    codec.decode(token);
    assertThrows(TokenException.class, () -> codec.decode(token + "x"));
    assertEquals(List.of("signed k1", "verified k1", "verified k1"), used,
        "cache hits count as verifications; rejected tokens do not");
  }

  @Test
  void aKeySourceWithoutAHookIsToldNothingAndCostsNothing() {
    assertEquals(KeyUsageHook.NONE, KeyUsageHook.of(KeySet.of(key)));
  }

  @Test
  void listenerMayBeSetOnlyOnce() {
    TokenCodec.Builder b = builder(KeySet.of(key)).listener(SessionlessListener.NONE);
    assertThrows(IllegalStateException.class, () -> b.listener(new RecordingListener()));
    assertNotNull(b.build());
  }

  @Test
  void coreRunsWithoutMicrometerOnTheClassPath() {
    // core's tests see no metrics library: the SPI and its default need none.
    assertThrows(ClassNotFoundException.class, () -> Class.forName("io.micrometer.core.instrument.MeterRegistry"));
    TokenCodec codec = builder(KeySet.of(key)).build();
    assertTrue(codec.decode(codec.encode(Claims.builder().build())).id().length() > 0);
  }
}
