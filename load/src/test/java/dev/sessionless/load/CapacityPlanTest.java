package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityPlanTest {
  static final List<LatencyPoint> LATENCY = List.of(new LatencyPoint(800, 300), new LatencyPoint(100, 5),
      new LatencyPoint(400, 20), new LatencyPoint(200, 8));

  static UslFit fitPeakingAt(double peak) {
    // λ = 100, α = 0, β chosen so X_max = λN*/(1 + βN*(N*−1)) lands near the peak asked for
    List<Measurement> data = new ArrayList<>();
    double beta = 1 / Math.pow(2 * peak / 100, 2);
    for (int n = 1; n <= 64; n *= 2) {
      data.add(new Measurement(n, Usl.throughput(100, 0, beta, n)));
    }
    return Usl.fit(data);
  }

  @Test
  void latencyLimitIsInterpolatedBetweenMeasuredRates() {
    CapacityPlan plan = CapacityPlan.plan(2000, 200, LATENCY, fitPeakingAt(5000), 0.8, false);
    // 400 + (200 − 20)/(300 − 20)·400 = 657.1/s, at 80%: 525.7/s, 2000/525.7 = 3.8 → 4
    assertEquals(657.14, plan.latencyBoundRate(), 0.01);
    assertEquals(525.71, plan.perMachineRate(), 0.01);
    assertEquals(4, plan.machines());
    assertTrue(plan.summary().contains("4 machine(s) for 2000 requests/s with p99 under 200 ms"), plan.summary());
  }

  @Test
  void aSpareMachineIsAddedWhenAsked() {
    assertEquals(5, CapacityPlan.plan(2000, 200, LATENCY, fitPeakingAt(5000), 0.8, true).machines());
  }

  @Test
  void theUslPeakCapsAMachineBelowItsLatencyBound() {
    UslFit fit = fitPeakingAt(500);
    CapacityPlan plan = CapacityPlan.plan(2000, 200, LATENCY, fit, 0.8, false);
    assertEquals(fit.peakThroughput() * 0.8, plan.perMachineRate(), 1e-9);
    assertEquals((int) Math.ceil(2000 / (fit.peakThroughput() * 0.8)), plan.machines());
    assertTrue(plan.assumptions().stream().anyMatch(a -> a.contains("USL peak")), plan.summary());
  }

  @Test
  void aLimitNeverReachedIsNotExtrapolated() {
    CapacityPlan plan = CapacityPlan.plan(1000, 500, LATENCY, fitPeakingAt(5000), 1.0, false);
    assertEquals(800, plan.latencyBoundRate(), 0);
    assertEquals(2, plan.machines());
    assertTrue(plan.assumptions().stream().anyMatch(a -> a.contains("does not extrapolate")), plan.summary());
  }

  @Test
  void aLimitMissedAtEveryRateIsRejectedWithAdvice() {
    LoadException e = assertThrows(LoadException.class,
        () -> CapacityPlan.plan(1000, 2, LATENCY, fitPeakingAt(5000), 0.8, false));
    assertEquals(LoadException.Reason.INVALID_INPUT, e.reason());
    assertTrue(e.getMessage().contains("measure lower rates"), e.getMessage());
  }
}
