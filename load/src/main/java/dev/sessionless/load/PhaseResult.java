package dev.sessionless.load;

import java.util.List;

/**
 * What one step of a run measured, warm-up excluded. Latencies are in milliseconds; in an open
 * step they count from each request's intended send time, in a closed step from its actual send.
 *
 * @param label the step, e.g. {@code "open 200/s"} or {@code "closed 8 users"}
 * @param targetRate the arrival rate asked for (open), {@code NaN} for a closed step
 * @param users concurrent users (closed), 0 for an open step
 * @param seconds the measured window
 * @param completed replies received in the window (successes and errors)
 * @param errors failed replies, timeouts and refused connections
 * @param late sends that left later than the late threshold after their intended time
 * @param dropped requests never sent: the in-flight cap was reached or the run hit its time bound
 * @param achievedRate completed / seconds
 * @param p50 median latency
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max the largest latency
 * @param injectorCpu CPU the injector's own threads used, in cores (1.0 = one core busy)
 * @param saturated whether the injector could not do what was asked, so the figures flatter
 * @param notes why it is saturated, and other warnings; empty when none
 */
public record PhaseResult(String label, double targetRate, int users, double seconds, long completed,
    long errors, long late, long dropped, double achievedRate, double p50, double p90, double p99,
    double p999, double max, double injectorCpu, boolean saturated, List<String> notes) {
  /** Copies the notes. */
  public PhaseResult {
    notes = List.copyOf(notes);
  }
}
