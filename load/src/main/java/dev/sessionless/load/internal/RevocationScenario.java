package dev.sessionless.load.internal;

import dev.sessionless.redis.RedisRevocations;
import java.time.Duration;
import java.util.Locale;

/**
 * The runs of the {@code revocation-lag} profile: the lag with publish/subscribe and with polling
 * alone, then one run per fault. Each runs on three fresh nodes and a fresh Redis, and knows its
 * store settings and when its fault starts and ends.
 */
public enum RevocationScenario {
  /** Publish/subscribe on, polling as the fallback: the lag a deployment normally sees. */
  PUSH("push", "publish/subscribe on, polling every P as the fallback"),
  /** Polling alone ({@code subscribe(false)}): the lag is at most the poll interval. */
  POLL("poll", "publish/subscribe off: polling every P alone"),
  /** Redis stopped and a fresh, empty one started on the same port (its data lost). */
  REDIS_RESTART("redis-restart", "Redis stopped, then a fresh one started on the same port with its data lost"),
  /** The network to Redis cut past the stale bound, nodes failing open. */
  UNREACHABLE_FAIL_OPEN("unreachable-fail-open", "the network to Redis cut for longer than the stale bound; FAIL_OPEN"),
  /** The same, nodes failing closed. */
  UNREACHABLE_FAIL_CLOSED("unreachable-fail-closed", "the network to Redis cut for longer than the stale bound; FAIL_CLOSED"),
  /** Node 2 stopped while the network to Redis is cut, and started again: at once, and then until it starts. */
  NODE_STARTS_WHILE_DOWN("node-starts-while-redis-down", "node 2 stopped and restarted while the network to Redis is cut");

  /** The node that a {@link #NODE_STARTS_WHILE_DOWN} run stops and starts. */
  public static final int NODE = 2;

  private final String id;
  private final String description;

  RevocationScenario(String id, String description) {
    this.id = id;
    this.description = description;
  }

  /** The run's name in reports, e.g. {@code redis-restart}. */
  public String id() {
    return id;
  }

  /** What the run does, with {@code P} for the poll interval. */
  public String description(Duration poll) {
    return description.replace("every P", "every " + FaultsReport.seconds(poll));
  }

  /** Whether this run injects a fault. */
  public boolean fault() {
    return this != PUSH && this != POLL;
  }

  /** The stale bound of the runs that cut Redis off: twice the poll interval (the least the store takes is more than one). */
  static Duration staleBound(Duration poll) {
    return poll.multipliedBy(2);
  }

  /** The node stores' settings for this run; {@code n} makes the key prefix unique. */
  RevocationNodes.StoreSettings settings(Duration poll, int n) {
    boolean cut = this == UNREACHABLE_FAIL_OPEN || this == UNREACHABLE_FAIL_CLOSED;
    return new RevocationNodes.StoreSettings(this != POLL, poll, cut ? staleBound(poll) : null,
        this == UNREACHABLE_FAIL_CLOSED ? RedisRevocations.OnStale.FAIL_CLOSED : RedisRevocations.OnStale.FAIL_OPEN,
        "load-lag-" + id + "-" + n + ":");
  }

  /** When the fault starts, in seconds from the run's start: after {@code lead} of undisturbed load. */
  static double faultAt(Duration lead) {
    return lead.toMillis() / 1000.0;
  }

  /** How long the fault lasts, in seconds. */
  double outage(Duration poll) {
    double p = poll.toMillis() / 1000.0;
    return switch (this) {
      case PUSH, POLL -> 0;
      case REDIS_RESTART, NODE_STARTS_WHILE_DOWN -> Math.max(2, 2 * p);
      // past the stale bound by at least a second, so the stale state is seen under load
      case UNREACHABLE_FAIL_OPEN, UNREACHABLE_FAIL_CLOSED -> staleBound(poll).toMillis() / 1000.0 + Math.max(1.5, p);
    };
  }

  /**
   * The run's length in seconds: {@code step} for the lag runs; for a fault, {@code lead}, the
   * outage, and time for every node to catch up afterwards (two poll intervals and two seconds).
   */
  double length(Duration step, Duration lead, Duration poll) {
    if (!fault()) {
      return step.toMillis() / 1000.0;
    }
    return faultAt(lead) + outage(poll) + 2 * poll.toMillis() / 1000.0 + 2;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s", id);
  }
}
