package dev.sessionless.load.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The revocation lag over a set of (revoked token, node) pairs: how many were refused and the
 * lag's median, 99th percentile and maximum (nearest rank, in milliseconds), how many were never
 * refused within the replay cap, and what the node answered before refusing: served (leaked),
 * {@code 503}, no reply, anything else.
 *
 * @param pairs the (token, node) pairs counted
 * @param refused pairs the node refused within the cap
 * @param p50 the median lag, ms ({@code NaN} if none refused)
 * @param p99 the 99th percentile lag, ms
 * @param max the largest lag, ms
 * @param leaked replays the nodes served after the logout
 * @param leakingPairs pairs with at least one replay served
 * @param unavailable replays answered {@code 503}
 * @param unreachable replays that got no reply
 * @param errors replays answered with any other status
 * @param lagsMillis every lag, ascending (for the chart)
 */
public record LagStats(long pairs, long refused, double p50, double p99, double max, long leaked, long leakingPairs,
    long unavailable, long unreachable, long errors, List<Double> lagsMillis) {

  /** Pairs the node never refused within the cap. */
  public long notRefused() {
    return pairs - refused;
  }

  /** The stats of the pairs {@code which} picks (a token and a node index). */
  static LagStats of(List<RevocationLag.Revoked> revoked, BiPredicate<RevocationLag.Revoked, Integer> which) {
    List<Double> lags = new ArrayList<>();
    long pairs = 0;
    long leaked = 0;
    long leaking = 0;
    long unavailable = 0;
    long unreachable = 0;
    long errors = 0;
    for (RevocationLag.Revoked r : revoked) {
      for (int i = 0; i < r.nodes.length; i++) {
        if (!which.test(r, i)) {
          continue;
        }
        RevocationLag.PerNode n = r.nodes[i];
        pairs++;
        if (n.lagNanos >= 0) {
          lags.add(n.lagNanos / 1e6);
        }
        leaked += n.leaked.get();
        leaking += n.leaked.get() > 0 ? 1 : 0;
        unavailable += n.unavailable.get();
        unreachable += n.unreachable.get();
        errors += n.errors.get();
      }
    }
    lags.sort(null);
    return new LagStats(pairs, lags.size(), rank(lags, 0.50), rank(lags, 0.99),
        lags.isEmpty() ? Double.NaN : lags.get(lags.size() - 1), leaked, leaking, unavailable, unreachable, errors,
        List.copyOf(lags));
  }

  private static double rank(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int i = (int) Math.ceil(q * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }

  /** For the JSON report: every field but the lags themselves. */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pairs", pairs);
    m.put("refused", refused);
    m.put("notRefused", notRefused());
    m.put("p50Millis", round(p50));
    m.put("p99Millis", round(p99));
    m.put("maxMillis", round(max));
    m.put("leakedRequests", leaked);
    m.put("leakingPairs", leakingPairs);
    m.put("answered503", unavailable);
    m.put("noReply", unreachable);
    m.put("otherStatus", errors);
    return m;
  }

  static Object round(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10) / 10.0;
  }
}
