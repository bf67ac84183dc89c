package dev.sessionless.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * How many machines like the measured one serve a target rate with p99 under a limit: the
 * measured machine's sustainable rate is where its p99 crosses the limit (interpolated between
 * measured rates, never extrapolated), capped by the USL peak X_max, less a headroom; the
 * machines needed are the target over that, plus one spare if asked. The assumptions behind
 * the answer are part of it ({@link #assumptions()}).
 *
 * <p>Immutable.
 */
public final class CapacityPlan {
  private final double targetRate;
  private final double p99LimitMillis;
  private final double latencyBoundRate;
  private final double uslBoundRate;
  private final double perMachineRate;
  private final int machines;
  private final List<String> assumptions;

  private CapacityPlan(double targetRate, double p99LimitMillis, double latencyBoundRate, double uslBoundRate,
      double perMachineRate, int machines, List<String> assumptions) {
    this.targetRate = targetRate;
    this.p99LimitMillis = p99LimitMillis;
    this.latencyBoundRate = latencyBoundRate;
    this.uslBoundRate = uslBoundRate;
    this.perMachineRate = perMachineRate;
    this.machines = machines;
    this.assumptions = List.copyOf(assumptions);
  }

  /**
   * Plans capacity.
   *
   * @param targetRate requests per second to serve, &gt; 0
   * @param p99LimitMillis the p99 latency allowed, in milliseconds, &gt; 0
   * @param latencyVsRate one machine's p99 at several open-model rates (at least one)
   * @param fit the USL fit of the same machine's closed ramp, for its peak throughput
   * @param headroom the fraction of the sustainable rate to plan on, in (0, 1] (0.8 leaves 20%
   *     for bursts)
   * @param spare whether to add one machine so the target is still met with one down
   * @return the plan
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for out-of-range arguments
   *     or when the p99 exceeds the limit at every measured rate (measure lower rates or relax
   *     the limit)
   */
  public static CapacityPlan plan(double targetRate, double p99LimitMillis, List<LatencyPoint> latencyVsRate,
      UslFit fit, double headroom, boolean spare) {
    if (!(targetRate > 0) || !(p99LimitMillis > 0) || !(headroom > 0 && headroom <= 1) || latencyVsRate.isEmpty()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "a plan needs a target rate > 0, a p99 limit > 0,"
          + " a headroom in (0, 1] and at least one latency point");
    }
    List<LatencyPoint> points = new ArrayList<>(latencyVsRate);
    points.sort(Comparator.comparingDouble(LatencyPoint::rate));
    List<String> assumptions = new ArrayList<>();
    double latencyBound = Double.NaN;
    LatencyPoint lastGood = null;
    for (LatencyPoint p : points) {
      if (p.p99Millis() <= p99LimitMillis) {
        lastGood = p;
        continue;
      }
      if (lastGood != null) { // the limit is crossed between lastGood and p
        double f = (p99LimitMillis - lastGood.p99Millis()) / (p.p99Millis() - lastGood.p99Millis());
        latencyBound = lastGood.rate() + f * (p.rate() - lastGood.rate());
        assumptions.add(String.format(Locale.ROOT, "p99 crosses %.0f ms between %.0f/s (%.1f ms) and %.0f/s"
            + " (%.1f ms); linear in between gives %.0f/s per machine", p99LimitMillis, lastGood.rate(),
            lastGood.p99Millis(), p.rate(), p.p99Millis(), latencyBound));
      }
      break;
    }
    if (lastGood == null) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, String.format(Locale.ROOT,
          "p99 exceeds %.0f ms at every measured rate (lowest %.0f/s): measure lower rates or relax the limit",
          p99LimitMillis, points.get(0).rate()));
    }
    if (Double.isNaN(latencyBound)) {
      latencyBound = lastGood.rate();
      assumptions.add(String.format(Locale.ROOT, "p99 stayed under %.0f ms up to the highest rate measured,"
          + " %.0f/s; the plan does not extrapolate past it (a lower bound: measure higher rates)",
          p99LimitMillis, latencyBound));
    }
    double uslBound = fit.peakThroughput();
    double sustainable = Math.min(latencyBound, uslBound);
    if (uslBound < latencyBound) {
      assumptions.add(String.format(Locale.ROOT, "capped at the USL peak X_max = %.0f/s of the closed ramp", uslBound));
    }
    double perMachine = sustainable * headroom;
    assumptions.add(String.format(Locale.ROOT, "planned at %.0f%% of the sustainable rate: %.0f/s per machine",
        headroom * 100, perMachine));
    int machines = (int) Math.ceil(targetRate / perMachine);
    if (spare) {
      machines++;
      assumptions.add("one spare machine: the target is met with any one machine down");
    }
    assumptions.add("machines share nothing on the request path (stateless sessions), so capacity adds up"
        + " linearly across machines; a shared session store would add its own contention, not modelled");
    assumptions.add("the balancer spreads load evenly and is not itself a limit; the workload mix is the"
        + " one measured; the measured machine ran the load client too (loopback), so figures are conservative");
    return new CapacityPlan(targetRate, p99LimitMillis, latencyBound, uslBound, perMachine, machines, assumptions);
  }

  /** Machines needed, spare included. */
  public int machines() {
    return machines;
  }

  /** The rate planned per machine, headroom applied. */
  public double perMachineRate() {
    return perMachineRate;
  }

  /** The rate at which one machine's p99 reaches the limit. */
  public double latencyBoundRate() {
    return latencyBoundRate;
  }

  /** The USL peak throughput of one machine. */
  public double uslBoundRate() {
    return uslBoundRate;
  }

  /** The assumptions and steps behind the answer, one per line. */
  public List<String> assumptions() {
    return assumptions;
  }

  /** The answer and its assumptions, for a person. */
  public String summary() {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "%d machine(s) for %.0f requests/s with p99 under %.0f ms%n", machines, targetRate, p99LimitMillis));
    for (String a : assumptions) {
      s.append("  - ").append(a).append(System.lineSeparator());
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return "CapacityPlan[machines=" + machines + ", perMachineRate=" + Usl.fmt(perMachineRate) + "]";
  }
}
