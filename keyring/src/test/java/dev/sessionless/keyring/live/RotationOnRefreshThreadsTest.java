package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rotation again, on the keyrings' real refresh threads rather than {@link
 * RotationSimulationTest}'s fake scheduler. Four nodes, each a keyring polling one JWKS file at
 * its own pace, share a clock that runs while the file's keys rotate a dozen times, and encode and decode a continuous stream of tokens
 * across each other. The rotation follows the rule in {@link Keyring}'s documentation: a key is
 * published an hour before it activates (longer than the slowest node takes to see the file:
 * the test waits for that before letting the clock reach the activation), and a retired key stays
 * verifiable for the token lifetime plus a minute. No valid token may be rejected anywhere; a
 * token signed by a key that has since expired must be rejected as {@code UNKNOWN_KEY}.
 */
class RotationOnRefreshThreadsTest {
  static final Duration TTL = Duration.ofMinutes(10);
  static final Duration LEAD = Duration.ofHours(1);
  static final Duration STEP = Duration.ofMinutes(5);
  static final int ROTATIONS = 12;
  static final int PAIRS_PER_STEP = 20;

  @TempDir Path dir;

  static void write(Path file, KeySet keys) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, keys.toJwksWithSecrets());
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Publishes a new key that activates after LEAD, retires the signing key then, drops long-dead keys. */
  static KeySet rotate(KeySet keys, Instant now, int n) {
    TokenKey signing = keys.signingKey(Algorithm.HS256, now).orElseThrow();
    Instant switchAt = now.plus(LEAD);
    KeySet next = keys.without(signing.kid())
        .with(signing.withLifecycle(signing.published().orElse(null), signing.activates().orElse(null),
            switchAt, switchAt.plus(TTL).plus(Duration.ofMinutes(1))))
        .with(TokenKey.generate("k" + n, Algorithm.HS256).withLifecycle(now, switchAt, null, null));
    for (TokenKey k : next.keys()) {
      if (k.expires().isPresent() && k.expires().get().isBefore(now.minus(Duration.ofHours(1)))) {
        next = next.without(k.kid());
      }
    }
    return next;
  }

  record Issued(String token, Instant expires, String node) {}

  @Test
  void noValidTokenIsRejectedWhileKeysRotateAndNodesRefreshAtDifferentMoments() throws IOException {
    Random random = new Random(20261123L);
    Instant t0 = Instant.parse("2026-11-23T00:00:00Z");
    FakeClock clock = new FakeClock(t0);
    Path file = dir.resolve("keys.jwks");
    KeySet keys = KeySet.of(TokenKey.generate("k0", Algorithm.HS256).withLifecycle(t0, t0, null, null));
    write(file, keys);

    int[] pollMillis = {15, 30, 55, 90};
    List<Keyring> rings = new ArrayList<>();
    List<TokenCodec> nodes = new ArrayList<>();
    try {
      for (int poll : pollMillis) {
        Keyring k = Keyring.builder().jwksFile(file).filePollInterval(Duration.ofMillis(poll)).clock(clock).build();
        rings.add(k);
        nodes.add(TokenCodec.builder().keys(k).issuer("https://shop.example").audience("shop")
            .timeToLive(TTL).clock(clock).build());
      }
      List<Issued> recent = new ArrayList<>();
      List<Issued> longLived = new ArrayList<>();
      int decoded = 0;
      int expiredSeen = 0;
      java.util.Set<String> signers = new java.util.TreeSet<>();
      for (int r = 1; r <= ROTATIONS; r++) {
        keys = rotate(keys, clock.instant(), r);
        write(file, keys);
        String newKid = "k" + r;
        for (Duration elapsed = Duration.ZERO; elapsed.compareTo(LEAD) < 0; elapsed = elapsed.plus(STEP)) {
          if (elapsed.plus(STEP).compareTo(LEAD) >= 0) {
            // The operational rule: nobody reaches the activation before every node has the key.
            for (Keyring k : rings) {
              Await.until(() -> k.current().key(newKid).isPresent(), () -> newKid + " on " + k);
            }
          }
          clock.advance(STEP);
          for (int p = 0; p < PAIRS_PER_STEP; p++) {
            int from = random.nextInt(nodes.size());
            String token = nodes.get(from).encode(Claims.builder().newSessionId().put("n", p).build());
            SessionToken fresh = nodes.get(random.nextInt(nodes.size())).decode(token);
            signers.add(fresh.keyId());
            decoded++;
            recent.add(new Issued(token, fresh.expiresAt(), "node" + from));
          }
          if (random.nextInt(4) == 0) {
            // A token with a day-long lifetime, to outlive its key.
            TokenCodec longCodec = TokenCodec.builder().keys(rings.get(0)).issuer("https://shop.example")
                .audience("shop").timeToLive(Duration.ofDays(1)).clock(clock).build();
            String token = longCodec.encode(Claims.builder().build());
            longLived.add(new Issued(token, clock.instant().plus(Duration.ofDays(1)), "node0"));
          }
          // Older tokens come back on other nodes, across the rotation.
          List<Issued> keep = new ArrayList<>();
          for (Issued old : recent) {
            TokenCodec node = nodes.get(random.nextInt(nodes.size()));
            boolean valid = old.expires().plusSeconds(30).isAfter(clock.instant());
            try {
              node.decode(old.token());
              decoded++;
              if (!valid) {
                fail("a token past its exp and leeway was accepted");
              }
              keep.add(old);
            } catch (TokenException e) {
              if (valid) {
                fail("a valid token from " + old.node() + " was rejected with " + e.reason() + " at "
                    + clock.instant() + ": " + e.getMessage());
              }
              assertEquals(TokenException.Reason.EXPIRED, e.reason());
              expiredSeen++;
            }
          }
          recent = keep;
        }
      }
      // Every long-lived token whose key has expired is refused for that reason, not accepted.
      int withdrawn = 0;
      for (Issued token : longLived) {
        try {
          nodes.get(1).decode(token.token());
        } catch (TokenException e) {
          assertEquals(TokenException.Reason.UNKNOWN_KEY, e.reason(), e.getMessage());
          withdrawn++;
        }
      }
      assertTrue(decoded > ROTATIONS * 12 * PAIRS_PER_STEP, "decoded " + decoded);
      assertTrue(expiredSeen > 0, "tokens did expire along the way");
      assertTrue(signers.size() >= ROTATIONS, "every rotation's key signed: " + signers);
      assertTrue(withdrawn > 0 && withdrawn >= longLived.size() - 6,
          "tokens under withdrawn keys rejected: " + withdrawn + " of " + longLived.size());
    } finally {
      rings.forEach(Keyring::close);
    }
  }
}
