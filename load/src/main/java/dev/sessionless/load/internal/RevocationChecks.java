package dev.sessionless.load.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What the documentation ({@code redis/README.md}, "Limits", and {@code RedisRevocations}) says
 * happens in each run of the {@code revocation-lag} profile, set beside what the run counted. A
 * check that does not hold makes the tool exit with status 4.
 */
public final class RevocationChecks {
  /**
   * One documented behaviour and what was counted.
   *
   * @param what the behaviour, in a few words
   * @param documented what the documentation says
   * @param counted what the run counted
   * @param holds whether the count agrees with the documentation
   */
  public record Check(String what, String documented, String counted, boolean holds) {}

  /** What the fault actions saw while the run went on; written by the fault thread, read after it ended. */
  static final class Observed {
    /** When the fault began and ended, in seconds from the run's start, as its actions finished; -1 until then. */
    volatile double faultStart = -1;
    volatile double faultEnd = -1;
    /** The port of the node the run stops, or -1. */
    volatile int stoppedPort = -1;
    /** Statuses of the tokens revoked before the fault, replayed once on every node during or after it. */
    volatile List<Integer> beforeFault = List.of();
    /** Nodes whose store said it was stale, sampled past the stale bound. */
    volatile int staleNodes = -1;
    /** Start attempts of the stopped node while Redis was cut off: refused, and (wrongly) started. */
    volatile int refusedToStart;
    volatile int startedWhileDown;
    /** Start attempts refused after the network came back, and when the node started. */
    volatile int refusedAfterReturn;
    volatile double startedAt = -1;
    /** Statuses of every token revoked so far, replayed once on the node that started late. */
    volatile List<Integer> onStartedNode = List.of();
  }

  private RevocationChecks() {}

  /** The checks of one run. */
  static List<Check> check(RevocationScenario sc, RevocationProfile.Settings s, List<RevocationLag.Revoked> revoked,
      StatusCounts shop, List<RevocationProfile.Event> events, Observed seen) {
    List<Check> checks = new ArrayList<>();
    double p = s.poll().toMillis() / 1000.0;
    double at = seen.faultStart >= 0 ? seen.faultStart : RevocationScenario.faultAt(RevocationProfile.LEAD);
    double end = seen.faultEnd >= 0 ? seen.faultEnd : at + sc.outage(s.poll());
    double stale = RevocationScenario.staleBound(s.poll()).toMillis() / 1000.0;
    boolean closed = sc == RevocationScenario.UNREACHABLE_FAIL_CLOSED;
    List<RevocationLag.Revoked> held = revoked.stream().filter(applied(sc, s, seen)).toList();
    LagStats all = LagStats.of(held, (r, i) -> true);
    checks.add(new Check("every revoked token is refused on every node",
        "a revocation reaches every node: within the publish latency while subscribed, within the poll interval"
            + " otherwise, and after an outage at the first successful poll",
        all.refused() + " of " + all.pairs() + " (token, node) pairs refused within the cap", all.notRefused() == 0
            && all.pairs() > 0));
    LagStats own = LagStats.of(held, (r, i) -> i == r.logoutNode);
    checks.add(new Check("the node that took the logout never serves the token again",
        "a revocation is applied at once on the node that makes it (also when Redis cannot be written)",
        own.leaked() + " replays served by the logout's own node", own.leaked() == 0));
    // A request in flight on a node the run stops (node-starts-while-redis-down) gets what a dying
    // Jetty answers: the fault's own doing, not the store's, so it is left out.
    java.util.Map<Integer, Long> shopOthers = shop.others(0, Double.MAX_VALUE, seen.stoppedPort, seen.faultStart - 0.5,
        seen.faultStart + 1);
    checks.add(new Check("no server error", "an outage is a 503, never a 500; a revoked token starts an empty session",
        "shop replies other than 200 or 503: " + (shopOthers.isEmpty() ? "none" : shopOthers) + "; replays answered"
            + " other than 200, 401 or 503: " + all.errors(), shopOthers.isEmpty() && all.errors() == 0));
    if (!sc.fault()) {
      double bound = p + Math.max(0.25, p / 4);
      long late = revoked.stream().filter(r -> late(r, r.revokedAt + bound)).count();
      checks.add(new Check("no token served later than the poll interval after its logout",
          "the lag is at most the poll interval (" + FaultsReport.seconds(s.poll()) + ") even without publish/subscribe",
          late + " tokens served by some node more than " + fmt(bound) + " s after the logout (poll interval plus"
              + " scheduling slack)", late == 0));
      return checks;
    }
    List<RevocationLag.Revoked> during = revoked.stream().filter(r -> r.revokedAt >= at + 0.3 && r.revokedAt < end)
        .toList();
    if (sc != RevocationScenario.NODE_STARTS_WHILE_DOWN) {
      double logoutsEnd = closed ? Math.min(end, earliestStale(s, seen)) : end;
      List<RevocationLag.Revoked> logouts = revoked.stream()
          .filter(r -> r.revokedAt >= at + 0.3 && r.revokedAt < logoutsEnd).toList();
      long refused = logouts.stream().filter(r -> r.logoutStatus == 503).count();
      checks.add(new Check("a logout while Redis cannot be written is answered 503",
          "revokeSession applies the revocation on its node and throws REVOCATION_UNAVAILABLE; the filter answers 503"
              + " with Retry-After and clears the cookie",
          refused + " of " + logouts.size() + " logouts in the outage answered 503", refused == logouts.size()));
    }
    switch (sc) {
      case REDIS_RESTART -> beforeHeld(checks, seen, "after the restart (Redis's copy lost, the nodes' copies kept)");
      case UNREACHABLE_FAIL_OPEN -> {
        checks.add(staleCheck(seen));
        long[] cut = shop.count(at + 0.1, end);
        checks.add(new Check("FAIL_OPEN: sessions are served through the outage",
            "checks keep answering from the copy, past the stale bound too", cut[0] + " served, " + cut[1] + " 503, "
                + cut[2] + " other shop replies while cut off", cut[1] == 0 && cut[2] == 0 && cut[0] > 0));
        beforeHeld(checks, seen, "past the stale bound");
        LagStats others = LagStats.of(during, (r, i) -> i != r.logoutNode);
        // After the cut the node that took a logout writes it at its first successful poll (the
        // first may fail on a pooled connection the cut closed: up to two intervals); the others
        // read it at their next poll, or at once by publish once their subscriber has reconnected
        // (it backs off up to 10 s while Redis is away): three poll intervals and half a second.
        double bound = end + 3 * p + 0.5;
        long late = during.stream().filter(r -> late(r, bound)).count();
        checks.add(new Check("FAIL_OPEN: tokens revoked during the outage pass on the other nodes",
            "revocations made during the outage do not reach other nodes until Redis is back",
            others.leaked() + " replays served by the other nodes (" + others.leakingPairs() + " of " + others.pairs()
                + " pairs; expected)", during.isEmpty() || others.leakingPairs() > 0));
        checks.add(new Check("FAIL_OPEN: ... and only until Redis is back and the nodes have read it",
            "the node that took the logout writes it at its first successful poll; the others have it from then on"
                + " (at their next read, or by publish once resubscribed)",
            late + " tokens served later than " + fmt(bound - end) + " s after the network returned (the writer's"
                + " first successful poll, at most two intervals, then the others' next poll)", late == 0));
      }
      case UNREACHABLE_FAIL_CLOSED -> {
        checks.add(staleCheck(seen));
        long[] early = shop.count(at + 0.1, earliestStale(s, seen));
        long[] cut = shop.count(at + stale + 0.3, end);
        long[] after = shop.count(end + p + 0.5, Double.MAX_VALUE);
        checks.add(new Check("FAIL_CLOSED: served from the copy until the stale bound",
            "checks answer from the copy until no read succeeded for the stale bound (counted up to one poll interval"
                + " before the bound after the cut: the bound runs from each node's last read)",
            early[0] + " served, " + early[1] + " 503 before the bound", early[1] == 0 && early[0] > 0));
        checks.add(new Check("FAIL_CLOSED: every session request gets 503 past the stale bound",
            "every check throws REVOCATION_UNAVAILABLE until a read succeeds; the filter answers 503",
            cut[0] + " served, " + cut[1] + " 503, " + cut[2] + " other shop replies past the bound",
            cut[0] == 0 && cut[2] == 0 && cut[1] > 0));
        long before503 = seen.beforeFault.stream().filter(x -> x == 503).count();
        checks.add(new Check("FAIL_CLOSED: revoked tokens get 503 too past the bound",
            "every check fails while stale", before503 + " of " + seen.beforeFault.size() + " replays answered 503",
            before503 == seen.beforeFault.size()));
        checks.add(new Check("FAIL_CLOSED: sessions are served again once Redis answers",
            "a successful read ends the stale state", after[0] + " served, " + after[1] + " 503 from one poll after"
                + " the network returned", after[1] == 0 && after[0] > 0));
      }
      case NODE_STARTS_WHILE_DOWN -> {
        List<RevocationLag.Revoked> lost = revoked.stream().filter(r -> lostWithStoppedNode(sc, r)).toList();
        LagStats lostStats = LagStats.of(lost, (r, i) -> i != r.logoutNode);
        checks.add(new Check("a logout the stopped node could not write is lost with it",
            "a node that stops before its first successful poll loses the revocations Redis did not take",
            lost.size() + " logouts answered 503 by node " + RevocationScenario.NODE + " just before it stopped; "
                + lostStats.refused() + " of " + lostStats.pairs() + " other-node pairs refused them",
            lostStats.refused() == 0));
        checks.add(new Check("a node does not start while Redis cannot be read",
            "build() fails if Redis cannot be read at start: the node serves nothing and stays out of rotation",
            seen.refusedToStart + " start attempts refused, " + seen.startedWhileDown + " started",
            seen.refusedToStart > 0 && seen.startedWhileDown == 0));
        checks.add(new Check("it starts once Redis answers", "the full read at start succeeds",
            seen.startedAt < 0 ? "never started" : "started " + fmt(seen.startedAt - end) + " s after the network came back, "
                + seen.refusedAfterReturn + " attempts refused first", seen.startedAt >= 0));
        long served = seen.onStartedNode.stream().filter(x -> x == 200).count();
        long refused = seen.onStartedNode.stream().filter(x -> x == 401).count();
        long noReply = seen.onStartedNode.stream().filter(x -> x < 0).count();
        checks.add(new Check("it catches up: no token revoked before it started is served on it",
            "a node reads every live revocation at start",
            refused + " of " + seen.onStartedNode.size() + " refused, " + served + " served, " + noReply + " no reply"
                + " within 5 s, " + (seen.onStartedNode.size() - refused - served - noReply) + " other",
            served == 0 && refused > 0 && refused + noReply == seen.onStartedNode.size()));
      }
      default -> { }
    }
    return checks;
  }

  /**
   * The logouts that revoked their token. A logout answered 503 by a node failing closed and
   * already stale never reached the servlet (the filter could not check the token it came with),
   * so nothing was revoked: the client is told to retry. The bound counts from each node's last
   * successful read, up to one poll interval before the cut, so a 503 logout from one poll
   * interval before the bound on is left out as possibly not applied. Every other logout was
   * applied, at least on its own node (a 503 there means Redis could not be written).
   */
  static Predicate<RevocationLag.Revoked> applied(RevocationScenario sc, RevocationProfile.Settings s,
      Observed seen) {
    if (sc == RevocationScenario.NODE_STARTS_WHILE_DOWN) {
      return r -> !lostWithStoppedNode(sc, r);
    }
    if (sc != RevocationScenario.UNREACHABLE_FAIL_CLOSED) {
      return r -> true;
    }
    return r -> r.logoutStatus == 200 || r.revokedAt < earliestStale(s, seen);
  }

  /**
   * Whether the token's logout was answered 503 by the node the run stops, in the moment between
   * the cut and the stop: applied on that node only and lost with it, as documented ("a node that
   * stops before that loses it"), so no other node ever refuses it.
   */
  static boolean lostWithStoppedNode(RevocationScenario sc, RevocationLag.Revoked r) {
    return sc == RevocationScenario.NODE_STARTS_WHILE_DOWN && r.logoutStatus == 503
        && r.logoutNode == RevocationScenario.NODE;
  }

  /** The earliest a store of the fail-closed run can be stale: the bound after a read one poll interval before the cut. */
  private static double earliestStale(RevocationProfile.Settings s, Observed seen) {
    return (seen.faultStart >= 0 ? seen.faultStart : RevocationScenario.faultAt(RevocationProfile.LEAD))
        + (RevocationScenario.staleBound(s.poll()).toMillis() - s.poll().toMillis()) / 1000.0 - 0.1;
  }

  private static void beforeHeld(List<Check> checks, Observed seen, String when) {
    long served = seen.beforeFault.stream().filter(x -> x == 200).count();
    checks.add(new Check("revocations made before the outage still hold " + when,
        "reads keep answering from the local copy: revocations made before the outage still hold",
        served + " of " + seen.beforeFault.size() + " replays of tokens revoked before the fault served",
        served == 0 && !seen.beforeFault.isEmpty()));
  }

  private static Check staleCheck(Observed seen) {
    return new Check("every store is stale past the bound", "no successful read within the stale bound: stale",
        seen.staleNodes + " of " + RevocationProfile.NODES + " stores stale", seen.staleNodes == RevocationProfile.NODES);
  }

  /** Whether some node served the token's replay at or after {@code bound} seconds. */
  private static boolean late(RevocationLag.Revoked r, double bound) {
    for (RevocationLag.PerNode n : r.nodes) {
      if (n.lastLeakAt >= bound) {
        return true;
      }
    }
    return false;
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
