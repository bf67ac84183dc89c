package dev.sessionless.spring.boot;

/**
 * Sessionless cannot start as configured: what is wrong ({@link #description()}) and which
 * {@code sessionless.*} property to set ({@link #action()}). Boot prints both in its
 * "APPLICATION FAILED TO START" block ({@link SessionlessFailureAnalyzer}) instead of a stack
 * trace; the message holds both too. An {@link IllegalStateException}, as the startup failures
 * were before they had a type of their own.
 */
public class SessionlessStartupException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final String description;
  private final String action;

  /**
   * A startup failure.
   *
   * @param description what is wrong, without secrets
   * @param action what to set, naming the property
   */
  public SessionlessStartupException(String description, String action) {
    this(description, action, null);
  }

  /**
   * A startup failure with its cause.
   *
   * @param description what is wrong, without secrets
   * @param action what to set, naming the property
   * @param cause the failure underneath, or null
   */
  public SessionlessStartupException(String description, String action, Throwable cause) {
    super(description + ". " + action, cause);
    this.description = description;
    this.action = action;
  }

  /** What is wrong. */
  public String description() {
    return description;
  }

  /** What to set, naming the property. */
  public String action() {
    return action;
  }
}
