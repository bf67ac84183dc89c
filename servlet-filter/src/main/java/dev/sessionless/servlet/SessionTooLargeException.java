package dev.sessionless.servlet;

/**
 * Thrown by {@code HttpSession.setAttribute} when the value would grow the session's state past
 * its budget ({@link SessionlessFilterBuilder#maxStateBytes}): the attribute is not set and the
 * session is as it was. The message names the attribute and the budget, never the value.
 *
 * <p>A session carried in a cookie must fit the request header limits of every proxy and
 * container on its way; a session that keeps growing with what a client sends (a saved URL, a
 * search, an error text) is refused here, where the application can catch it, rather than when
 * the response is written.
 */
public final class SessionTooLargeException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The attribute whose value was refused. */
  private final String attribute;
  private final long stateBytes;
  private final long budgetBytes;

  SessionTooLargeException(String attribute, long stateBytes, long budgetBytes, String advice) {
    super("session attribute '" + attribute + "' would make the session state about " + stateBytes
        + " bytes, over its budget of " + budgetBytes + " bytes (" + advice + "): the attribute was not set."
        + " Store less in the session (keep large or client-supplied data elsewhere), or raise the budget"
        + " with maxStateBytes (init parameter max-state-bytes) knowing the header limits on the way");
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
