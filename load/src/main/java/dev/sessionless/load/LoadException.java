package dev.sessionless.load;

/**
 * The one failure type of the load tool, with a machine-readable {@link Reason}.
 *
 * <p>{@link Reason#INVALID_INPUT} is the caller's to fix (a malformed CSV, a negative rate, too
 * few points to fit); the other reasons are failures of the tool or of a system under test. More
 * reasons may be added.
 */
public final class LoadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the tool failed. */
  public enum Reason {
    /** The input (measurements, CSV, options) is malformed or out of range; fix it and retry. */
    INVALID_INPUT,
    /** The optimiser found no usable fit from any starting point. */
    FIT_FAILED,
    /** A system under test could not be started or stopped. */
    SYSTEM_FAILED,
    /** The injector itself failed (its HTTP client or threads), not the system under test. */
    INJECTOR_FAILED
  }

  private final Reason reason;

  /**
   * A failure with a message telling the user what to do.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and how to fix it
   */
  public LoadException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /**
   * A failure caused by another exception.
   *
   * @param reason the machine-readable reason
   * @param message what went wrong and how to fix it
   * @param cause the underlying exception
   */
  public LoadException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** The machine-readable reason. */
  public Reason reason() {
    return reason;
  }
}
