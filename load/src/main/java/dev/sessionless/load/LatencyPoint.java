package dev.sessionless.load;

/**
 * The p99 latency one machine showed at one open-model arrival rate.
 *
 * @param rate arrivals per second
 * @param p99Millis 99th percentile latency at that rate, in milliseconds
 */
public record LatencyPoint(double rate, double p99Millis) {
  /**
   * Checks the point.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for a rate that is not
   *     positive or a latency that is negative or not a number
   */
  public LatencyPoint {
    if (!(rate > 0) || Double.isInfinite(rate) || !(p99Millis >= 0)) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "a latency point needs a positive rate and a p99 >= 0, got " + rate + " and " + p99Millis);
    }
  }
}
