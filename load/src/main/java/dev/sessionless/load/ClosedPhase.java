package dev.sessionless.load;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A closed-model step: a fixed number of users, each sending its next request when the previous
 * reply arrived and it has thought for a while: exactly {@code thinkTime}, or a random time of
 * that mean ({@link Think}).
 *
 * <p>With a think time, each user also waits before its first request (a time drawn from the
 * same distribution; with {@link Think#FIXED}, a uniform fraction of {@code thinkTime}), so the
 * users do not all send in the same instant and stay in step for the whole run.
 *
 * @param users concurrent users, &gt; 0
 * @param thinkTime pause between a reply and the next request (its mean for {@link
 *     Think#EXPONENTIAL}), zero or more
 * @param duration how long the step runs, warm-up included, &gt; 0
 * @param think how the pause varies from one request to the next
 */
public record ClosedPhase(int users, Duration thinkTime, Duration duration, Think think) {
  /**
   * How a user's think time varies. Real users do not pause for the same time after every page;
   * a fixed pause keeps users that started together in step, which a real population never is.
   */
  public enum Think {
    /** Exactly the think time, every time. */
    FIXED,
    /**
     * Negative exponential with the think time as its mean, truncated at ten times the mean (as
     * the TPC-C benchmark draws its think times): many short pauses, a few long ones.
     */
    EXPONENTIAL;

    /** The longest exponential pause, as a multiple of the mean. */
    static final double TRUNCATION = 10;

    /** The next pause, in nanoseconds, for a mean of {@code meanNanos}. */
    long pause(long meanNanos, SplittableRandom random) {
      if (meanNanos <= 0) {
        return 0;
      }
      return switch (this) {
        case FIXED -> meanNanos;
        case EXPONENTIAL -> (long) (meanNanos * Math.min(TRUNCATION, -Math.log(1 - random.nextDouble())));
      };
    }

    /** The wait before a user's first request, so that users do not start in step. */
    long firstPause(long meanNanos, SplittableRandom random) {
      if (meanNanos <= 0) {
        return 0;
      }
      return this == FIXED ? (long) (meanNanos * random.nextDouble()) : pause(meanNanos, random);
    }
  }

  /**
   * Checks the step.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for no users, a negative
   *     think time, a duration that is not positive or no {@code think}
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
    if (think == null) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "think must be FIXED or EXPONENTIAL, got null");
    }
  }

  /**
   * A step whose users think for exactly {@code thinkTime} ({@link Think#FIXED}).
   *
   * @param users concurrent users, &gt; 0
   * @param thinkTime pause between a reply and the next request, zero or more
   * @param duration how long the step runs, warm-up included, &gt; 0
   * @throws LoadException as the canonical constructor
   */
  public ClosedPhase(int users, Duration thinkTime, Duration duration) {
    this(users, thinkTime, duration, Think.FIXED);
  }
}
