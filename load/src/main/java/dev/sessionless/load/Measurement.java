package dev.sessionless.load;

/**
 * One measured point: throughput at a concurrency (users, threads, processors or nodes).
 *
 * @param concurrency the load level N, at least 1
 * @param throughput the throughput X(N) measured there, in any unit (requests/s), not negative
 */
public record Measurement(double concurrency, double throughput) {
  /**
   * Checks the point.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for a concurrency below 1,
   *     a negative throughput, or a value that is not a finite number
   */
  public Measurement {
    if (!Double.isFinite(concurrency) || concurrency < 1) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "concurrency must be a finite number >= 1, got " + concurrency);
    }
    if (!Double.isFinite(throughput) || throughput < 0) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "throughput must be a finite number >= 0, got " + throughput);
    }
  }
}
