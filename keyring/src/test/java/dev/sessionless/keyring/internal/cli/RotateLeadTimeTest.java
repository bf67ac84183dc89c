package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code keyring rotate} counts {@code --activate-in} from the moment the new file is in place,
 * however long reading and writing took, and refuses a lead below the safe minimum unless
 * forced. Slowness is simulated with clocks that advance as the command looks at them.
 */
class RotateLeadTimeTest {
  static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  @TempDir Path dir;

  /** A clock that advances by {@code step} after every reading: a CLI slowed down by load. */
  static final class SlowClock extends Clock {
    final Duration step;
    Instant now;

    SlowClock(Instant start, Duration step) {
      this.now = start;
      this.step = step;
    }

    @Override
    public Instant instant() {
      Instant i = now;
      now = now.plus(step);
      return i;
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

  /**
   * A clock standing still until the watched file's content changes; then, at the next reading,
   * it jumps by the next of {@code stalls}: a write (or move) that stalled that long.
   */
  static final class StallingClock extends Clock {
    final Path watched;
    final Deque<Duration> stalls;
    Instant now;
    String seen;

    StallingClock(Instant start, Path watched, List<Duration> stalls) {
      this.now = start;
      this.watched = watched;
      this.stalls = new ArrayDeque<>(stalls);
      this.seen = content();
    }

    String content() {
      try {
        return Files.exists(watched) ? Files.readString(watched) : "";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Instant instant() {
      String c = content();
      if (!c.equals(seen)) {
        seen = c;
        if (!stalls.isEmpty()) {
          now = now.plus(stalls.poll());
        }
      }
      return now;
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

  record Result(int code, String out, String err) {}

  Result run(Clock clock, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), clock);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Path initKeys() {
    Path file = dir.resolve("keys.json");
    Result init = run(Clock.fixed(T0.minus(Duration.ofDays(1)), ZoneOffset.UTC), "init", "--out", file.toString(),
        "--kid", "old");
    assertEquals(0, init.code, init.err);
    return file;
  }

  static TokenKey newKey(Path file) throws IOException {
    return KeySet.fromJwks(Files.readString(file)).key("new").orElseThrow();
  }

  @Test
  void leadIsCountedFromTheMomentTheNewFileIsInPlace() throws IOException {
    Path file = initKeys();
    SlowClock clock = new SlowClock(T0, Duration.ofMillis(1700)); // PBKDF2 under load
    Result r = run(clock, "rotate", "--in", file.toString(), "--kid", "new", "--activate-in", "30s");
    assertEquals(0, r.code, r.err);
    Instant inPlace = clock.instant(); // the file has been in place since before this reading at the latest
    Instant activates = newKey(file).activates().orElseThrow();
    Duration lead = Duration.between(inPlace, activates);
    assertTrue(lead.compareTo(Duration.ofSeconds(30)) >= 0,
        "the new key activates " + lead + " after the file was in place, less than 30s: " + r.out);
    TokenKey old = KeySet.fromJwks(Files.readString(file)).key("old").orElseThrow();
    assertEquals(activates, old.retires().orElseThrow(), "the old key signs until the new one does");
  }

  @Test
  void aWriteSlowerThanEstimatedIsRewrittenWithTheSameKeyActivatingLater() throws IOException {
    Path file = initKeys();
    StallingClock clock = new StallingClock(T0, file, List.of(Duration.ofSeconds(60)));
    Result r = run(clock, "rotate", "--in", file.toString(), "--kid", "new", "--activate-in", "30s");
    assertEquals(0, r.code, r.err);
    assertTrue(r.err.contains("rewriting"), r.err);
    Instant inPlace = clock.instant();
    TokenKey key = newKey(file);
    Duration lead = Duration.between(inPlace, key.activates().orElseThrow());
    assertTrue(lead.compareTo(Duration.ofSeconds(30)) >= 0, "lead after the rewrite: " + lead);
    assertTrue(r.out.contains("signs from " + key.activates().orElseThrow()), r.out);
  }

  @Test
  void aLeadEatenOnEveryAttemptFailsAndSaysSo() throws IOException {
    Path file = initKeys();
    StallingClock clock = new StallingClock(T0, file,
        List.of(Duration.ofSeconds(60), Duration.ofSeconds(600), Duration.ofSeconds(6000)));
    Result r = run(clock, "rotate", "--in", file.toString(), "--kid", "new", "--activate-in", "30s");
    assertEquals(KeyringCli.FAILED, r.code, r.out);
    assertTrue(r.err.contains("less than --activate-in") && r.err.contains("new"), r.err);
    assertEquals(1, r.err.lines().filter(l -> l.startsWith("keyring: error:")).count(), r.err);
    assertEquals(2, r.err.lines().filter(l -> l.startsWith("keyring: note: writing took")).count(), r.err);
    for (var key : new ObjectMapper().readTree(Files.readString(file)).get("keys")) {
      String secret = key.get("k").asString();
      assertFalse(r.out.contains(secret) || r.err.contains(secret), "a secret in the output of a failed rotation");
    }
  }

  @Test
  void rotateRefusesALeadShorterThanTheSafeMinimumUnlessForced() throws IOException {
    Path file = initKeys();
    String before = Files.readString(file);
    Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    Result refused = run(clock, "rotate", "--in", file.toString(), "--activate-in", "10s");
    assertEquals(KeyringCli.USAGE, refused.code);
    assertTrue(refused.err.contains("15s") && refused.err.contains("--force"), refused.err);
    assertEquals(before, Files.readString(file), "nothing written");

    Result zero = run(clock, "rotate", "--in", file.toString(), "--activate-in", "0s");
    assertEquals(KeyringCli.USAGE, zero.code, "no lead at all is refused too");

    Result forced = run(clock, "rotate", "--in", file.toString(), "--kid", "new", "--activate-in", "10s", "--force");
    assertEquals(0, forced.code, forced.err);
    assertTrue(forced.err.contains("warning") && forced.err.contains("safe minimum"), forced.err);
    assertEquals(T0.plusSeconds(10), newKey(file).activates().orElseThrow());
  }

  @Test
  void minimumLeadFollowsTheNodesRefreshInterval() throws IOException {
    Path file = initKeys();
    Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    Result quick = run(clock, "rotate", "--in", file.toString(), "--kid", "new", "--refresh-interval", "1s",
        "--activate-in", "7s");
    assertEquals(0, quick.code, "2 x 1s + 5s = 7s is enough: " + quick.err);
    assertFalse(quick.err.contains("warning"), quick.err);
    Result slow = run(clock, "rotate", "--in", file.toString(), "--refresh-interval", "2m", "--activate-in", "4m");
    assertEquals(KeyringCli.USAGE, slow.code, "nodes polling every 2m need 4m5s");
    assertTrue(slow.err.contains("4m5s"), slow.err);
    assertEquals(Duration.ofSeconds(15), SafeLead.forFile(SafeLead.DEFAULT_REFRESH_INTERVAL));
  }
}
