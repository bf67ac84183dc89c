package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rotation without a coordinator, simulated: four nodes poll one shared JWKS file at different
 * intervals and moments, a key manager rotates the signing key every 15 minutes for 12 hours of
 * fake time, and a stream of tokens is made on one random node and read on another.
 *
 * <p>The rule under test (DESIGN.md, "Keys"): publish a new key at least the slowest node's
 * refresh interval before it activates, and keep a retired key at least the token lifetime
 * (plus clock skew) after it retires. Then no valid token is ever rejected anywhere; and a token
 * that outlives its key (made with a longer lifetime on purpose) is rejected as {@code
 * UNKNOWN_KEY} once the key expires. A second run with a lead shorter than the slowest refresh
 * shows that the simulation does catch a broken rotation.
 *
 * <p>Deterministic: seeded, one thread, each node's checks driven by a {@link FakeScheduler} on
 * the shared {@link FakeClock}; the files, keyrings and codecs are the real ones.
 */
class RotationSimulationTest {
  static final Instant T0 = Instant.parse("2026-11-23T00:00:00Z");
  static final Duration TOKEN_TTL = Duration.ofMinutes(10);
  static final Duration CLOCK_SKEW = Duration.ofSeconds(30);
  static final Duration PERIOD = Duration.ofMinutes(15);
  static final Duration EXPIRY_AFTER_RETIRE = TOKEN_TTL.plus(CLOCK_SKEW).plusMinutes(1);
  static final Duration WITHDRAW_AFTER_EXPIRY = Duration.ofMinutes(5);
  static final List<Duration> POLLS = List.of(
      Duration.ofSeconds(20), Duration.ofSeconds(45), Duration.ofSeconds(75), Duration.ofSeconds(120));
  static final Duration SLOWEST_POLL = Duration.ofSeconds(120);
  static final int MAX_STEP_SECONDS = 15;

  @TempDir Path dir;

  static final class Node {
    final FakeScheduler scheduler;
    final Keyring keyring;
    final TokenCodec codec;

    Node(FakeScheduler scheduler, Keyring keyring, TokenCodec codec) {
      this.scheduler = scheduler;
      this.keyring = keyring;
      this.codec = codec;
    }
  }

  static final class Issued {
    final String token;
    final int node;
    final Instant expires;
    final String kid;

    Issued(String token, int node, Instant expires, String kid) {
      this.token = token;
      this.node = node;
      this.expires = expires;
      this.kid = kid;
    }
  }

  static final class Stats {
    int rotations;
    int encodes;
    int decodes;
    int outOfSyncSteps;
    final List<String> validRejected = new ArrayList<>();
    int longLivedAccepted;
    int longLivedRejectedAsUnknownKey;
    final List<String> longLivedWronglyTreated = new ArrayList<>();
  }

  /** Writes the shared key file the way the {@code keyring rotate} command does: atomically. */
  static final class KeyManager {
    final Path file;
    final Duration lead;
    final Map<Integer, TokenKey> keys = new TreeMap<>();
    final Map<Integer, Instant> expiries = new LinkedHashMap<>();
    int nextToPublish;

    KeyManager(Path file, Duration lead) {
      this.file = file;
      this.lead = lead;
    }

    static Instant activates(int i) {
      return T0.plus(PERIOD.multipliedBy(i));
    }

    /** Publishes, retires and withdraws keys whose time has come; returns the number of keys published. */
    int act(Instant now) throws IOException {
      boolean changed = false;
      int published = 0;
      while (!activates(nextToPublish).minus(lead).isAfter(now)) {
        int i = nextToPublish++;
        Instant activates = activates(i);
        TokenKey previous = keys.get(i - 1);
        if (previous != null) { // the key signing until now retires when the new one activates
          Instant expires = activates.plus(EXPIRY_AFTER_RETIRE);
          keys.put(i - 1, previous.withLifecycle(previous.published().orElse(null),
              previous.activates().orElse(null), activates, expires));
          expiries.put(i - 1, expires);
        }
        Instant publishedAt = i == 0 ? activates : activates.minus(lead);
        keys.put(i, TokenKey.generate("key-" + i, Algorithm.HS256).withLifecycle(publishedAt, activates, null, null));
        changed = true;
        published++;
      }
      for (Iterator<Map.Entry<Integer, Instant>> it = expiries.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Integer, Instant> e = it.next();
        if (!e.getValue().plus(WITHDRAW_AFTER_EXPIRY).isAfter(now)) {
          keys.remove(e.getKey());
          it.remove();
          changed = true;
        }
      }
      if (changed) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, KeySet.of(new ArrayList<>(keys.values())).toJwksWithSecrets());
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
      return published;
    }
  }

  Stats simulate(long seed, Duration lead, Duration length) throws IOException {
    Random random = new Random(seed);
    FakeClock clock = new FakeClock(T0);
    Path file = dir.resolve("seed-" + seed + "-lead-" + lead.getSeconds() + ".jwks");
    KeyManager manager = new KeyManager(file, lead);
    Stats stats = new Stats();
    manager.act(clock.instant());

    List<Node> nodes = new ArrayList<>();
    for (Duration poll : POLLS) {
      clock.advance(Duration.ofSeconds(random.nextInt(20))); // nodes start, and so poll, at different moments
      FakeScheduler scheduler = new FakeScheduler(clock);
      Keyring keyring = TestHooks.scheduler(Keyring.builder().jwksFile(file).filePollInterval(poll).clock(clock),
          () -> scheduler).build();
      TokenCodec codec = TokenCodec.builder().keys(keyring).issuer("https://shop.example").audience("shop")
          .timeToLive(TOKEN_TTL).clockSkew(CLOCK_SKEW).clock(clock).build();
      nodes.add(new Node(scheduler, keyring, codec));
    }

    List<Issued> live = new ArrayList<>();
    List<Issued> longLived = new ArrayList<>();
    Set<String> kidsWithLongLivedToken = new java.util.HashSet<>();
    Instant end = T0.plus(length);
    try {
      while (clock.instant().isBefore(end)) {
        clock.advance(Duration.ofSeconds(1 + random.nextInt(MAX_STEP_SECONDS)));
        Instant now = clock.instant();
        stats.rotations += manager.act(now);
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
        java.util.Collections.shuffle(order, random);
        for (int n : order) {
          nodes.get(n).scheduler.runDue();
        }
        if (nodes.stream().map(n -> n.keyring.status().keyIds()).distinct().count() > 1) {
          stats.outOfSyncSteps++;
        }

        for (int k = 0; k < 3; k++) { // requests that start a session somewhere
          int n = random.nextInt(nodes.size());
          String token = nodes.get(n).codec.encode(Claims.builder().put("n", k).build());
          String kid = nodes.get(n).codec.decode(token).keyId();
          live.add(new Issued(token, n, now.plus(TOKEN_TTL), kid));
          stats.encodes++;
          if (kidsWithLongLivedToken.add(kid)) { // one token per key that outlives the key on purpose
            String longToken = nodes.get(n).codec.encode(Claims.builder().timeToLive(Duration.ofDays(3)).build());
            longLived.add(new Issued(longToken, n, now.plus(Duration.ofDays(3)), kid));
          }
        }
        live.removeIf(t -> !t.expires.isAfter(now));
        for (int k = 0; k < 3 && !live.isEmpty(); k++) { // ... and continue on another node
          Issued t = live.get(random.nextInt(live.size()));
          int n = (t.node + 1 + random.nextInt(nodes.size() - 1)) % nodes.size();
          stats.decodes++;
          try {
            nodes.get(n).codec.decode(t.token);
          } catch (TokenException e) {
            stats.validRejected.add(now + ": node " + n + " (poll " + POLLS.get(n) + ") rejected a token of "
                + t.kid + " from node " + t.node + ": " + e.reason() + " " + e.getMessage());
          }
        }
        if (!longLived.isEmpty()) {
          Issued t = longLived.get(random.nextInt(longLived.size()));
          Instant keyExpires = manager.expiries.getOrDefault(Integer.parseInt(t.kid.substring(4)), null);
          boolean keyGone = keyExpires == null ? manager.keys.get(Integer.parseInt(t.kid.substring(4))) == null
              : !now.isBefore(keyExpires);
          Node reader = nodes.get(random.nextInt(nodes.size()));
          try {
            reader.codec.decode(t.token);
            if (keyGone) {
              stats.longLivedWronglyTreated.add(now + ": accepted a token of expired " + t.kid);
            } else {
              stats.longLivedAccepted++;
            }
          } catch (TokenException e) {
            if (keyGone && e.reason() == TokenException.Reason.UNKNOWN_KEY) {
              stats.longLivedRejectedAsUnknownKey++;
            } else if (!keyGone && e.reason() == TokenException.Reason.UNKNOWN_KEY
                && !reader.keyring.current().key(t.kid).isPresent()) {
              stats.validRejected.add(now + ": a long-lived token of " + t.kid + " before its key expired: " + e.reason() + " " + e.getMessage());
            } else {
              stats.longLivedWronglyTreated.add(now + ": " + t.kid + " " + e.reason() + " " + e.getMessage());
            }
          }
        }
      }
    } finally {
      for (Node n : nodes) {
        n.keyring.close();
      }
    }
    return stats;
  }

  @Test
  void keysRotateManyTimesWithoutRejectingAValidTokenAnywhere() throws IOException {
    Duration lead = SLOWEST_POLL.plusMinutes(1); // longer than the slowest node's refresh
    for (long seed : new long[] {1, 2, 3}) {
      Stats s = simulate(seed, lead, Duration.ofHours(12));
      assertTrue(s.rotations >= 48, "rotations: " + s.rotations);
      assertTrue(s.decodes > 10_000, "decodes: " + s.decodes);
      assertTrue(s.outOfSyncSteps > 0, "the nodes really saw changes at different moments");
      assertEquals(List.of(), s.validRejected.stream().limit(5).collect(Collectors.toList()),
          "seed " + seed + ": valid tokens rejected (" + s.validRejected.size() + " of " + s.decodes + ")");
      assertEquals(List.of(), s.longLivedWronglyTreated.stream().limit(5).collect(Collectors.toList()), "seed " + seed);
      assertTrue(s.longLivedRejectedAsUnknownKey > 100,
          "tokens outliving their key were rejected as UNKNOWN_KEY: " + s.longLivedRejectedAsUnknownKey);
      assertTrue(s.longLivedAccepted > 100, "and accepted while their key lived: " + s.longLivedAccepted);
    }
  }

  @Test
  void leadShorterThanTheSlowestRefreshRejectsTokensSoTheSimulationHasTeeth() throws IOException {
    Stats s = simulate(1, Duration.ofSeconds(10), Duration.ofHours(3));
    assertTrue(s.validRejected.size() > 0, "a key activated before every node held it must cause rejections");
    assertTrue(s.validRejected.stream().allMatch(r -> r.contains("UNKNOWN_KEY")), s.validRejected.get(0));
  }
}
