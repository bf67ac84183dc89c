package dev.sessionless.load;

import java.time.Duration;

/**
 * An open-model step: requests arrive at a fixed rate whatever the system does, and each one's
 * latency counts from the moment it was due to be sent.
 *
 * @param rate requests per second, &gt; 0
 * @param duration how long arrivals continue, warm-up included, &gt; 0
 */
public record OpenPhase(double rate, Duration duration) {
  /**
   * Checks the step.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for a rate or duration
   *     that is not positive
   */
  public OpenPhase {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "rate must be a positive number, got " + rate);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "duration must be positive, got " + duration);
    }
  }
}
