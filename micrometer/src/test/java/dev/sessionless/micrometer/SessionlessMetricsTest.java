package dev.sessionless.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Micrometer binding against a real SimpleMeterRegistry, fed by a real codec and keyring. */
class SessionlessMetricsTest {
  @TempDir Path dir;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final SessionlessMetrics metrics = new SessionlessMetrics(registry);

  double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  @Test
  void decodesAreCountedByResultAlgorithmReasonAndCacheUse() {
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k1", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).listener(metrics).build();
    String token = codec.encode(Claims.builder().subject("alice").build());
    codec.decode(token);
    codec.decode(token);
    assertThrows(TokenException.class, () -> codec.decode("not.a.token"));

    assertEquals(2, count("sessionless.tokens.verified", "result", "accepted", "alg", "HS256", "reason", "none"));
    assertEquals(1, count("sessionless.tokens.verified", "result", "rejected", "alg", "unknown", "reason", "malformed"));
    assertEquals(1, count("sessionless.tokens.cache", "result", "hit"));
    assertEquals(1, count("sessionless.tokens.cache", "result", "miss"));
    assertEquals(1, count("sessionless.tokens.encoded", "alg", "HS256"));
    assertEquals(token.length(), registry.get("sessionless.tokens.size").tags("alg", "HS256").summary().max());
    assertEquals(0, count("sessionless.tokens.verified", "result", "failed", "alg", "unknown", "reason", "internal"),
        "a failure on this side is its own series, apart from rejections");
  }

  @Test
  void noUserSessionOrTokenIdentifierBecomesATag() {
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k1", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).listener(metrics).build();
    String token = codec.encode(Claims.builder().subject("alice").build());
    SessionToken s = codec.decode(token);
    for (Meter m : registry.getMeters()) {
      for (Tag t : m.getId().getTags()) {
        assertFalse(t.getValue().contains("alice"), m.getId().toString());
        assertFalse(t.getValue().equals(s.id()), m.getId().toString());
        assertFalse(token.contains(t.getValue()) && t.getValue().length() > 8, m.getId().toString());
        assertFalse(t.getKey().equals("kid") && !m.getId().getName().startsWith("sessionless.keys."),
            "kid only on the per-key meters of a watched keyring: " + m.getId());
      }
    }
  }

  @Test
  void keyringChecksChangesStalenessAndPerKeySafetyAreGauged() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    try (Keyring keys = Keyring.builder().jwksFile(file).listener(metrics).build()) {
      metrics.watch(keys);
      TokenCodec codec = TokenCodec.builder().keys(keys).issuer("i").audience("a")
          .timeToLive(Duration.ofMinutes(5)).listener(metrics).build();
      codec.decode(codec.encode(Claims.builder().build()));
      codec.decode(codec.encode(Claims.builder().build()));

      assertEquals(1, count("sessionless.keys.changes"));
      assertEquals(1, registry.get("sessionless.keys").gauge().value());
      assertEquals(1, count("sessionless.keys.source.checks", "source", keys.status().sources().get(0).description(),
          "outcome", "ok"));
      double stale = registry.get("sessionless.keys.source.staleness").timeGauge().value();
      assertTrue(stale >= 0 && stale < 60_000, "just loaded: " + stale);
      assertEquals(2, registry.get("sessionless.keys.verifications").tags("kid", "k1").functionCounter().count());
      assertEquals(0, registry.get("sessionless.keys.safe.to.retire").tags("kid", "k1").gauge().value(),
          "the only signing key");
      assertEquals(0, registry.get("sessionless.keys.safe.to.delete").tags("kid", "k1").gauge().value());
    }
  }

  @Test
  void perKeyMetersFollowTheKeysInForce() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    try (Keyring keys = Keyring.builder().jwksFile(file).listener(metrics).build()) {
      metrics.watch(keys);
      KeySet next = KeySet.of(TokenKey.generate("k2", Algorithm.HS256));
      metrics.keySetChanged(keys.current(), next); // what the keyring reports when the file changes
      assertNull(registry.find("sessionless.keys.safe.to.delete").tags("kid", "k1").gauge(), "k1 left: its meters go");
      assertTrue(registry.find("sessionless.keys.safe.to.delete").tags("kid", "k2").gauge() != null);
    }
  }

  @Test
  void filterEventsAreCounted() {
    metrics.cookieWritten(5000, 2);
    metrics.sessionRejected(TokenException.Reason.EXPIRED);
    metrics.sessionRejected(TokenException.Reason.INTERNAL);
    assertEquals(5000, registry.get("sessionless.cookies.size").summary().totalAmount());
    assertEquals(2, registry.get("sessionless.cookies.chunks").summary().max());
    assertEquals(1, count("sessionless.sessions.rejected", "result", "rejected", "reason", "expired"));
    assertEquals(1, count("sessionless.sessions.rejected", "result", "failed", "reason", "internal"));
  }

  @Test
  void sessionChangesMadeAfterTheResponseCommittedAreCountedByKind() {
    metrics.sessionChangeDropped("attribute");
    metrics.sessionChangeDropped("attribute");
    metrics.sessionChangeDropped("invalidate");
    assertEquals(2, count("sessionless.sessions.changes.dropped", "what", "attribute"));
    assertEquals(1, count("sessionless.sessions.changes.dropped", "what", "invalidate"));
  }
}
