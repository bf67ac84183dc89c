package dev.sessionless.load.internal;

import dev.sessionless.load.ClosedPhase;
import dev.sessionless.load.Injector;
import dev.sessionless.load.LoadException;
import dev.sessionless.load.PhaseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@code revocation-lag} profile: each {@link RevocationScenario} on three fresh Sessionless
 * nodes whose {@code RedisRevocations} stores share one fresh {@code redis-server}, under the shop's
 * load from {@code users} users (round-robin), while {@link RevocationLag} logs users out at a
 * steady rate and replays each revoked cookie on every node. A fault run also counts what the
 * documentation says happens in its fault ({@link RevocationChecks}).
 */
public final class RevocationProfile {
  /** Nodes per run. */
  public static final int NODES = 3;
  /** Undisturbed load before a fault starts. */
  static final Duration LEAD = Duration.ofSeconds(2);

  /** Something that happened in a run, {@code at} seconds from its start. */
  public record Event(double at, String what) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.2fs %s", at, what);
    }
  }

  /** What one run measured. */
  public record Run(RevocationScenario scenario, double seconds, PhaseResult shop, List<RevocationLag.Revoked> revoked,
      long loginsFailed, List<Event> events, List<RevocationChecks.Check> checks, RevocationChecks.Observed seen) {}

  /** The run's settings: users, logout rate, poll interval, the lag runs' length, the warm-up, the replay cap. */
  public record Settings(int users, double logoutRate, Duration poll, Duration step, Duration warmup, Duration cap) {}

  private RevocationProfile() {}

  /**
   * Warms the JVM up (untimed: nodes, Redis, the driver), then runs each of {@code scenarios}.
   *
   * @param say receives a line as each run starts, or null
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} if Redis or a node does not start
   */
  public static List<Run> run(Injector injector, Settings s, List<RevocationScenario> scenarios, Consumer<String> say) {
    if (!s.warmup().isZero()) {
      say(say, "revocation-lag: warming up for " + FaultsReport.seconds(s.warmup()) + " (not counted)");
      once(injector, s, RevocationScenario.PUSH, s.warmup().toMillis() / 1000.0, 0, true);
    }
    List<Run> runs = new ArrayList<>();
    int n = 1;
    for (RevocationScenario sc : scenarios) {
      double length = sc.length(s.step(), LEAD, s.poll());
      say(say, "revocation-lag: " + sc.id() + " (" + sc.description(s.poll()) + "), "
          + String.format(Locale.ROOT, "%.1f s", length));
      runs.add(once(injector, s, sc, length, n++, false));
    }
    return runs;
  }

  private static void say(Consumer<String> say, String line) {
    if (say != null) {
      say.accept(line);
    }
  }

  private static Run once(Injector injector, Settings s, RevocationScenario sc, double length, int n, boolean warmup) {
    try (RevocationNodes nodes = RevocationNodes.start(sc.settings(s.poll(), n), NODES)) {
      long start = System.nanoTime();
      List<Event> events = Collections.synchronizedList(new ArrayList<>());
      StatusCounts shop = new StatusCounts(new ShopWorkload(nodes.nodes(), ShopWorkload.Routing.ROUND_ROBIN,
          nodes::isUp), start);
      // Two threads: a start attempt that blocks on Redis must not hold back the network's return.
      ScheduledExecutorService faults = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "revocation-lag-faults");
        t.setDaemon(true);
        return t;
      });
      RevocationChecks.Observed seen = new RevocationChecks.Observed();
      try (RevocationLag lag = new RevocationLag(nodes.nodes(), nodes::isUp, s.logoutRate(), s.cap(), start)) {
        if (!warmup) {
          schedule(faults, sc, s, nodes, lag, start, events, seen);
        }
        lag.start();
        PhaseResult result = injector.runClosed("revocation-lag " + (warmup ? "warm-up" : sc.id()), shop,
            new ClosedPhase(s.users(), Duration.ZERO, Duration.ofMillis((long) (length * 1000))));
        lag.stopLogouts();
        faults.shutdown();
        if (!faults.awaitTermination(60, TimeUnit.SECONDS)) {
          events.add(new Event(since(start), "a fault action did not finish within 60 s"));
        }
        if (!lag.awaitReplays(s.cap().plusSeconds(5))) {
          events.add(new Event(since(start), "replays still running at the cap plus 5 s"));
        }
        List<RevocationLag.Revoked> revoked = lag.revoked();
        List<Event> ev = List.copyOf(events);
        return new Run(sc, length, result, revoked, lag.loginsFailed(), ev,
            warmup ? List.of() : RevocationChecks.check(sc, s, revoked, shop, ev, seen), seen);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LoadException(LoadException.Reason.INJECTOR_FAILED, "interrupted during " + sc.id(), e);
      } finally {
        faults.shutdownNow();
      }
    }
  }

  static double since(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  /** Schedules the run's fault and the observations taken during it. */
  private static void schedule(ScheduledExecutorService faults, RevocationScenario sc, Settings s, RevocationNodes nodes,
      RevocationLag lag, long start, List<Event> events, RevocationChecks.Observed seen) {
    double at = RevocationScenario.faultAt(LEAD);
    double outage = sc.outage(s.poll());
    double p = s.poll().toMillis() / 1000.0;
    double stale = RevocationScenario.staleBound(s.poll()).toMillis() / 1000.0;
    switch (sc) {
      case PUSH, POLL -> { }
      case REDIS_RESTART -> {
        at(faults, start, at, events, "redis-server stopped (data lost)", () -> {
          nodes.stopRedis();
          seen.faultStart = since(start);
        });
        at(faults, start, at + outage, events, "a fresh redis-server started on the same port", () -> {
          nodes.startRedis();
          seen.faultEnd = since(start);
        });
        at(faults, start, at + outage + p + 1, events, "tokens revoked before the stop replayed once on every node",
            () -> seen.beforeFault = replayBefore(lag, nodes, at));
      }
      case UNREACHABLE_FAIL_OPEN, UNREACHABLE_FAIL_CLOSED -> {
        at(faults, start, at, events, "network to Redis cut", () -> {
          nodes.cutRedis();
          seen.faultStart = since(start);
        });
        at(faults, start, at + stale + 0.5, events, "stores sampled past the stale bound", () -> {
          seen.staleNodes = countStale(nodes);
          seen.beforeFault = replayBefore(lag, nodes, at);
        });
        at(faults, start, at + outage, events, "network to Redis restored", () -> {
          nodes.restoreRedis();
          seen.faultEnd = since(start);
        });
      }
      case NODE_STARTS_WHILE_DOWN -> {
        at(faults, start, at, events, "network to Redis cut, node " + RevocationScenario.NODE + " stopped", () -> {
          nodes.cutRedis();
          seen.faultStart = since(start);
          nodes.stopNode(RevocationScenario.NODE);
        });
        seen.stoppedPort = nodes.nodes().get(RevocationScenario.NODE).getPort();
        for (double t = at + 0.5; t < at + outage - 0.3; t += 0.5) {
          at(faults, start, t, events, "node " + RevocationScenario.NODE + " start attempted while Redis is cut", () -> {
            if (!nodes.isUp(RevocationScenario.NODE) && seen.faultEnd < 0) {
              boolean started = nodes.tryRestartNode(RevocationScenario.NODE);
              if (started && seen.faultEnd < 0) {
                seen.startedWhileDown++; // its read at start succeeded while Redis was cut off
              } else if (!started) {
                seen.refusedToStart++;
              }
            }
          });
        }
        at(faults, start, at + outage, events, "network to Redis restored", () -> {
          nodes.restoreRedis();
          seen.faultEnd = since(start);
        });
        at(faults, start, at + outage + 0.1, events, "node " + RevocationScenario.NODE + " started, and two poll"
            + " intervals and a second later every token revoked so far replayed once on it", () -> {
          for (int i = 0; i < 50 && !nodes.isUp(RevocationScenario.NODE); i++) {
            if (!nodes.tryRestartNode(RevocationScenario.NODE)) {
              seen.refusedAfterReturn++;
            }
          }
          seen.startedAt = since(start);
          try {
            Thread.sleep(2 * s.poll().toMillis() + 1000); // the others write what they took during the cut
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          seen.onStartedNode = lag.replayOnce(RevocationScenario.NODE,
              r -> !RevocationChecks.lostWithStoppedNode(RevocationScenario.NODE_STARTS_WHILE_DOWN, r));
        });
      }
      default -> throw new IllegalStateException("unknown scenario " + sc);
    }
  }

  /** Replays the tokens revoked before {@code at} seconds once on every node: the statuses. */
  private static List<Integer> replayBefore(RevocationLag lag, RevocationNodes nodes, double at) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      statuses.addAll(lag.replayOnce(i, r -> r.revokedAt < at));
    }
    return statuses;
  }

  private static int countStale(RevocationNodes nodes) {
    int stale = 0;
    for (int i = 0; i < NODES; i++) {
      stale += nodes.isUp(i) && nodes.store(i).isStale() ? 1 : 0;
    }
    return stale;
  }

  private static void at(ScheduledExecutorService faults, long start, double atSeconds, List<Event> events, String what,
      Runnable action) {
    long delay = (long) (atSeconds * 1e9) - (System.nanoTime() - start);
    faults.schedule(() -> {
      try {
        action.run();
        events.add(new Event(since(start), what));
      } catch (RuntimeException e) {
        events.add(new Event(since(start), what + " FAILED: " + e.getMessage()));
      }
    }, Math.max(0, delay), TimeUnit.NANOSECONDS);
  }
}
