package dev.sessionless.webflux;

/**
 * Thrown by {@code WebSession.getAttributes().put(...)} when the value would grow the session's
 * state past its budget ({@link SessionlessWebSessionManagerBuilder#maxStateBytes}): the
 * attribute is not set and the session is as it was. The message names the attribute and the
 * budget, never the value. A session carried in a cookie must fit the header limits of every
 * proxy and server on its way; it is refused here, where the application can catch it, rather
 * than when the response is written.
 */
public final class SessionTooLargeException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String attribute;
  private final long stateBytes;
  private final long budgetBytes;

  /**
   * The refusal of {@code attribute}.
   *
   * @param advice where the budget comes from, for the message
   */
  public SessionTooLargeException(String attribute, long stateBytes, long budgetBytes, String advice) {
    super("session attribute '" + attribute + "' would make the session state about " + stateBytes
        + " bytes, over its budget of " + budgetBytes + " bytes (" + advice + "): the attribute was not"
        + " set. Keep large or client-supplied data out of the session, or raise maxStateBytes knowing"
        + " the header limits on the way");
    this.attribute = attribute;
    this.stateBytes = stateBytes;
    this.budgetBytes = budgetBytes;
  }

  /** The name of the attribute that was not set. */
  public String attribute() {
    return attribute;
  }

  /** About how many bytes of state the session would have held with it. */
  public long stateBytes() {
    return stateBytes;
  }

  /** The budget, in bytes of state. */
  public long budgetBytes() {
    return budgetBytes;
  }
}
