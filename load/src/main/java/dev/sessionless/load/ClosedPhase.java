package dev.sessionless.load;

import java.time.Duration;

/**
 * A closed-model step: a fixed number of users, each sending its next request when the previous
 * reply arrived and it has thought for {@code thinkTime}.
 *
 * @param users concurrent users, &gt; 0
 * @param thinkTime pause between a reply and the next request, zero or more
 * @param duration how long the step runs, warm-up included, &gt; 0
 */
public record ClosedPhase(int users, Duration thinkTime, Duration duration) {
  /**
   * Checks the step.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for no users, a negative
   *     think time or a duration that is not positive
   */
  public ClosedPhase {
    if (users < 1) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "users must be at least 1, got " + users);
    }
    if (thinkTime.isNegative()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "think time must not be negative, got " + thinkTime);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "duration must be positive, got " + duration);
    }
  }
}
