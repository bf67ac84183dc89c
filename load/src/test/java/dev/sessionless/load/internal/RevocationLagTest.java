package dev.sessionless.load.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.Injector;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code revocation-lag} profile, shortened, once: three real Jetty nodes with real {@code
 * RedisRevocations} stores against a real {@code redis-server}, under the shop's load, users
 * logging out and their cookies replayed on every node, through every fault. The assertions
 * count (refusals, leaks, statuses) and order; none measures time.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RevocationLagTest {
  private static Options options;
  private static Map<RevocationScenario, RevocationProfile.Run> runs;

  @BeforeAll
  static void runTheProfileOnce(@TempDir Path out) {
    options = Options.parse("revocation-lag", "--users=3", "--step=2s", "--warmup=200ms", "--system-warmup=1s",
        "--poll-interval=500ms", "--replay-cap=6s", "--logout-rate=5", "--out=" + out);
    try (Injector injector = Injector.builder().warmup(options.warmup).build()) {
      runs = RevocationProfile.run(injector, RevocationRun.settings(options), List.of(RevocationScenario.values()), null)
          .stream().collect(Collectors.toMap(RevocationProfile.Run::scenario, Function.identity()));
    }
  }

  private static RevocationChecks.Check check(RevocationScenario sc, String what) {
    return runs.get(sc).checks().stream().filter(c -> c.what().startsWith(what)).findFirst()
        .orElseThrow(() -> new AssertionError("no check '" + what + "' in " + runs.get(sc).checks()));
  }

  private static String describe(RevocationScenario sc) {
    RevocationProfile.Run r = runs.get(sc);
    return sc + ": " + r.checks() + " events " + r.events() + " shop " + r.shop();
  }

  @Test
  void everyRevokedTokenIsRefusedOnEveryNodeWithPushAndWithPollingAlone() {
    for (RevocationScenario sc : List.of(RevocationScenario.PUSH, RevocationScenario.POLL)) {
      RevocationProfile.Run r = runs.get(sc);
      LagStats all = LagStats.of(r.revoked(), (t, i) -> true);
      assertTrue(r.revoked().size() >= 5, describe(sc));
      assertEquals(3L * r.revoked().size(), all.pairs(), describe(sc));
      assertEquals(0, all.notRefused(), describe(sc));
      assertTrue(check(sc, "every revoked token is refused").holds(), describe(sc));
    }
  }

  @Test
  void underPushNoOtherNodeServesARevokedTokenMoreOftenThanItCouldWithinOnePollInterval() {
    // The documented bound is the poll interval even when a message is missed; a replay goes out
    // every FAST at most, so no pair can leak more replays than fit in one interval (a count, not
    // a clock: a machine that stalls slows the replays as much as the store).
    long perInterval = options.pollInterval.toNanos() / RevocationLag.FAST.toNanos() + 1;
    for (RevocationLag.Revoked t : runs.get(RevocationScenario.PUSH).revoked()) {
      for (int i = 0; i < t.nodes.length; i++) {
        assertTrue(t.nodes[i].leaked.get() <= perInterval, "user " + t.user + " node " + i + ": "
            + t.nodes[i].leaked.get() + " replays served, at most " + perInterval + " fit in one poll interval");
      }
    }
  }

  @Test
  void theNodeThatTookTheLogoutNeverServesTheTokenAgainInAnyRun() {
    for (RevocationScenario sc : RevocationScenario.values()) {
      assertTrue(check(sc, "the node that took the logout").holds(), describe(sc));
    }
  }

  @Test
  void noRunGivesAServerErrorToTheShopOrToAReplay() {
    for (RevocationScenario sc : RevocationScenario.values()) {
      assertTrue(check(sc, "no server error").holds(), describe(sc));
    }
  }

  @Test
  void aLogoutWhileRedisCannotBeWrittenIs503AndItsTokenIsRefusedEverywhereOnceRedisIsBack() {
    for (RevocationScenario sc : List.of(RevocationScenario.REDIS_RESTART, RevocationScenario.UNREACHABLE_FAIL_OPEN)) {
      assertTrue(runs.get(sc).revoked().stream().anyMatch(t -> t.logoutStatus == 503), describe(sc));
      assertTrue(check(sc, "a logout while Redis cannot be written").holds(), describe(sc));
      assertTrue(check(sc, "every revoked token is refused").holds(), describe(sc));
      assertTrue(check(sc, "revocations made before the outage still hold").holds(), describe(sc));
    }
  }

  @Test
  void failOpenServesSessionsThroughTheOutageAndRevokedTokensPassElsewhereOnlyUntilRedisIsBack() {
    RevocationScenario sc = RevocationScenario.UNREACHABLE_FAIL_OPEN;
    assertTrue(check(sc, "every store is stale").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_OPEN: sessions are served").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_OPEN: tokens revoked during the outage").holds(), describe(sc));
    // the documented gap is real: some token revoked during the outage passed on another node
    assertTrue(runs.get(sc).revoked().stream().anyMatch(t -> t.logoutStatus == 503
        && LagStats.of(List.of(t), (x, i) -> i != x.logoutNode).leaked() > 0), describe(sc));
  }

  @Test
  void failClosedAnswers503NotA500PastTheStaleBoundAndServesAgainAfter() {
    RevocationScenario sc = RevocationScenario.UNREACHABLE_FAIL_CLOSED;
    assertTrue(check(sc, "every store is stale").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_CLOSED: served from the copy").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_CLOSED: every session request gets 503").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_CLOSED: revoked tokens get 503").holds(), describe(sc));
    assertTrue(check(sc, "FAIL_CLOSED: sessions are served again").holds(), describe(sc));
  }

  @Test
  void aNodeThatStartsWhileRedisIsDownStaysOutUntilItAnswersAndThenRefusesEveryRevokedToken() {
    RevocationScenario sc = RevocationScenario.NODE_STARTS_WHILE_DOWN;
    assertTrue(check(sc, "a node does not start while Redis cannot be read").holds(), describe(sc));
    assertTrue(check(sc, "it starts once Redis answers").holds(), describe(sc));
    assertTrue(check(sc, "it catches up").holds(), describe(sc));
  }

  @Test
  void theReportHasTheLagTableEveryCheckAChartAndAnExitStatusThatFollowsTheChecks() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int status = RevocationRun.write(options, "test", List.copyOf(runs.values()), "test",
        new PrintStream(text, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
    String md = text.toString(StandardCharsets.UTF_8);
    // The status follows the checks (the two that bound a time, which this shared machine may
    // miss, are the tool's to report, not this test's to assert; the others are asserted above).
    boolean allHold = runs.values().stream().allMatch(r -> r.checks().stream().allMatch(RevocationChecks.Check::holds));
    assertEquals(allHold ? 0 : RevocationRun.CONTRADICTED, status, md);
    assertTrue(md.contains("| push |") && md.contains("| poll |"), md);
    assertTrue(md.contains(allHold ? "Every count agrees with the documentation." : "contradict the documentation"), md);
    try (var files = Files.list(options.out)) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.endsWith("-test-revocation-lag.json")), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.endsWith("-test-revocation-lag.md")), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.endsWith("-test-revocation-lag-lag.png")), names.toString());
    }
  }

  @Test
  void aTokenServedByItsOwnLogoutNodeContradictsTheDocumentation() {
    RevocationLag.Revoked t = new RevocationLag.Revoked(0, 0, 1, 3);
    t.logoutStatus = 200;
    for (RevocationLag.PerNode n : t.nodes) {
      n.lagNanos = 1_000_000;
    }
    t.nodes[1].leaked.incrementAndGet(); // node 1 took the logout and still served the token
    List<RevocationChecks.Check> checks = RevocationChecks.check(RevocationScenario.PUSH, RevocationRun.settings(options),
        List.of(t), new StatusCounts(id -> null, System.nanoTime()), List.of(), new RevocationChecks.Observed());
    assertFalse(checks.stream().filter(c -> c.what().startsWith("the node that took the logout")).findFirst()
        .orElseThrow().holds(), checks.toString());
  }

  @Test
  void aLogoutLostWithTheNodeThatStopsIsCountedAsDocumentedNotAsAMissedRevocation() {
    // Between the cut and node 2's stop, a logout on node 2 is answered 503 and applied there
    // only; the node then stops and the revocation is gone (documented). Seen once in a full run
    // on a stalled machine, it read as two (token, node) pairs never refused.
    RevocationLag.Revoked lost = new RevocationLag.Revoked(0, 1, RevocationScenario.NODE, 3);
    lost.logoutStatus = 503;
    lost.revokedAt = 2.05;
    lost.nodes[RevocationScenario.NODE].lagNanos = 1_000_000;
    RevocationLag.Revoked kept = new RevocationLag.Revoked(1, 0, 1, 3);
    kept.logoutStatus = 200;
    kept.revokedAt = 1.0;
    for (RevocationLag.PerNode n : kept.nodes) {
      n.lagNanos = 1_000_000;
    }
    RevocationChecks.Observed seen = new RevocationChecks.Observed();
    seen.faultStart = 2.0;
    seen.faultEnd = 4.0;
    seen.refusedToStart = 3;
    seen.startedAt = 4.3;
    seen.onStartedNode = List.of(401);
    List<RevocationChecks.Check> checks = RevocationChecks.check(RevocationScenario.NODE_STARTS_WHILE_DOWN,
        RevocationRun.settings(options), List.of(kept, lost), new StatusCounts(id -> null, System.nanoTime()),
        List.of(), seen);
    assertTrue(checks.stream().allMatch(RevocationChecks.Check::holds), checks.toString());
    assertTrue(checks.stream().anyMatch(c -> c.what().startsWith("a logout the stopped node could not write")
        && c.counted().startsWith("1 logouts")), checks.toString());
  }

  @Test
  void theProfileRunsAloneAndChecksItsOptions() {
    assertThrowsInput("revocation-lag,peak");
    assertThrowsInput("revocation-lag", "--logout-rate=0");
    assertThrowsInput("revocation-lag", "--poll-interval=50ms");
    assertThrowsInput("revocation-lag", "--poll-interval=1s", "--replay-cap=2s");
  }

  private static void assertThrowsInput(String... args) {
    dev.sessionless.load.LoadException e = org.junit.jupiter.api.Assertions.assertThrows(
        dev.sessionless.load.LoadException.class, () -> Options.parse(args));
    assertEquals(dev.sessionless.load.LoadException.Reason.INVALID_INPUT, e.reason());
  }
}
