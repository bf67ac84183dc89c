package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Claims;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.keyring.internal.cli.KeyringCli;
import dev.sessionless.testing.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rotation through the {@code keyring} command's own code path, as operators run it: three nodes
 * poll one key file (every 3–5 s, at different moments) while {@code keyring rotate} replaces it
 * every 10 minutes with the shortest lead it accepts without {@code --force} — and the command
 * itself is slow (every look at the clock costs it up to 0.8 s, as PBKDF2 under load would), so
 * time passes while it works. A stream of sessions starts on one node and continues on another;
 * no valid token may be rejected. Nodes polling slower than the command was told (its default
 * refresh interval) show that the simulation does see a lead that is too short.
 *
 * <p>Deterministic: seeded, one thread, the nodes' checks driven by {@link FakeScheduler}s on one
 * {@link FakeClock}; the command, the files, the keyrings and the codecs are the real ones.
 */
class CliRotationSimulationTest {
  static final Instant T0 = Instant.parse("2026-11-23T00:00:00Z");
  static final Duration TOKEN_TTL = Duration.ofMinutes(10);
  static final Duration CLOCK_SKEW = Duration.ofSeconds(30);
  static final Duration EVERY = Duration.ofMinutes(10);
  /** The nodes' poll intervals: within the default 5 s that {@code rotate} assumes. */
  static final List<Duration> POLLS = List.of(Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(5));
  /** Nodes polling far slower than the command was told: the lead it accepts is too short for them. */
  static final List<Duration> SLOW_POLLS = List.of(Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(45));

  @TempDir Path dir;

  /** The shared fake clock as the command sees it: every reading costs it a random slice of time. */
  static final class SlowCommandClock extends Clock {
    final FakeClock clock;
    final Random random;

    SlowCommandClock(FakeClock clock, Random random) {
      this.clock = clock;
      this.random = random;
    }

    @Override
    public Instant instant() {
      clock.advance(Duration.ofMillis(random.nextInt(800)));
      return clock.instant();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  static final class Stats {
    int rotations;
    int decodes;
    final Set<String> signingKids = new HashSet<>();
    final List<String> validRejected = new ArrayList<>();
  }

  static void cli(Clock clock, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), clock);
    assertEquals(0, code, () -> String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
  }

  record Issued(String token, int node, Instant expires, String kid) {}

  Stats simulate(long seed, Duration length, List<Duration> polls, String... leadFlags) {
    Random random = new Random(seed);
    FakeClock clock = new FakeClock(T0);
    Clock command = new SlowCommandClock(clock, random);
    Path file = dir.resolve("keys-" + seed + "-" + polls.get(0).getSeconds() + ".jwks");
    cli(command, "init", "--out", file.toString(), "--kid", "first", "--alg", "HS256");

    List<FakeScheduler> schedulers = new ArrayList<>();
    List<Keyring> keyrings = new ArrayList<>();
    List<TokenCodec> codecs = new ArrayList<>();
    for (Duration poll : polls) {
      clock.advance(Duration.ofMillis(random.nextInt((int) poll.toMillis()))); // nodes start, and so poll, at different moments
      FakeScheduler scheduler = new FakeScheduler(clock);
      Keyring keyring = TestHooks.scheduler(Keyring.builder().jwksFile(file).filePollInterval(poll).clock(clock),
          () -> scheduler).build();
      schedulers.add(scheduler);
      keyrings.add(keyring);
      codecs.add(TokenCodec.builder().keys(keyring).issuer("https://shop.example").audience("shop")
          .timeToLive(TOKEN_TTL).clockSkew(CLOCK_SKEW).clock(clock).build());
    }

    Stats stats = new Stats();
    List<Issued> live = new ArrayList<>();
    Instant nextRotation = T0.plus(EVERY);
    Instant end = T0.plus(length);
    List<String> rotate = new ArrayList<>(List.of("rotate", "--in", file.toString(),
        "--max-token-lifetime", "10m30s", "--grace", "1m"));
    Collections.addAll(rotate, leadFlags);
    try {
      while (clock.instant().isBefore(end)) {
        clock.advance(Duration.ofMillis(200 + random.nextInt(1800)));
        if (!clock.instant().isBefore(nextRotation)) {
          cli(command, rotate.toArray(String[]::new)); // time passes while it runs
          stats.rotations++;
          nextRotation = nextRotation.plus(EVERY);
        }
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
        Collections.shuffle(order, random);
        for (int n : order) {
          schedulers.get(n).runDue();
        }
        Instant now = clock.instant();
        int from = random.nextInt(codecs.size());
        String token = codecs.get(from).encode(Claims.builder().subject("s").build());
        String kid = codecs.get(from).decode(token).keyId();
        stats.signingKids.add(kid);
        live.add(new Issued(token, from, now.plus(TOKEN_TTL), kid));
        live.removeIf(t -> !t.expires().isAfter(now));
        for (int k = 0; k < 3; k++) { // the new session's next request, and two older ones, on another node
          Issued t = k == 0 ? live.get(live.size() - 1) : live.get(random.nextInt(live.size()));
          int to = (t.node() + 1 + random.nextInt(codecs.size() - 1)) % codecs.size();
          stats.decodes++;
          try {
            codecs.get(to).decode(t.token());
          } catch (TokenException e) {
            stats.validRejected.add(now + ": node " + to + " rejected a token of " + t.kid() + " from node "
                + t.node() + ": " + e.reason());
          }
        }
      }
    } finally {
      keyrings.forEach(Keyring::close);
    }
    return stats;
  }

  @Test
  void rotatingWithTheCommandAtItsMinimumLeadRejectsNoValidTokenOnAnyNode() {
    for (long seed : new long[] {1, 2}) {
      Stats s = simulate(seed, Duration.ofHours(4), POLLS, "--activate-in", "15s");
      assertTrue(s.rotations >= 23, "rotations: " + s.rotations);
      assertTrue(s.signingKids.size() >= s.rotations, "every rotated key signed: " + s.signingKids.size());
      assertTrue(s.decodes > 10_000, "decodes: " + s.decodes);
      assertEquals(List.of(), s.validRejected.stream().limit(5).collect(Collectors.toList()),
          "seed " + seed + ": valid tokens rejected (" + s.validRejected.size() + " of " + s.decodes + ")");
    }
  }

  @Test
  void slowerNodesNeedTheirRealRefreshIntervalGivenToTheCommand() {
    Stats s = simulate(3, Duration.ofHours(2), SLOW_POLLS, "--refresh-interval", "45s", "--activate-in", "95s");
    assertTrue(s.rotations >= 11, "rotations: " + s.rotations);
    assertEquals(List.of(), s.validRejected.stream().limit(5).collect(Collectors.toList()),
        "valid tokens rejected (" + s.validRejected.size() + " of " + s.decodes + ")");
  }

  @Test
  void aLeadTooShortForTheNodesRealRefreshRejectsTokensSoTheSimulationHasTeeth() {
    // The command is told nothing of the nodes' 20-45 s polls, so it accepts its default minimum.
    Stats s = simulate(1, Duration.ofHours(2), SLOW_POLLS, "--activate-in", "15s");
    assertTrue(s.validRejected.size() > 0, "a key signing before every node holds it must cause rejections");
    assertTrue(s.validRejected.stream().allMatch(r -> r.endsWith("UNKNOWN_KEY")), s.validRejected.get(0));
  }
}
