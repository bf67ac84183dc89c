package dev.sessionless.core;

/**
 * Thrown when setting a session attribute would grow the session's state past its budget
 * ({@code maxStateBytes} of the servlet filter and of the WebFlux session manager): by {@code
 * HttpSession.setAttribute} and by {@code WebSession.getAttributes().put(...)}. The attribute is
 * not set and the session is as it was. The message names the attribute and the budget, never
 * the value.
 *
 * <p>A session carried in a cookie must fit the request header limits of every proxy and server
 * on its way; a session that keeps growing with what a client sends (a saved URL, a search, an
 * error text) is refused here, where the application can catch it, rather than when the response
 * is written. One type for both adapters, in core, which both export to the application.
 */
public final class SessionTooLargeException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String attribute;
  private final long stateBytes;
  private final long budgetBytes;

  /**
   * The refusal of {@code attribute}.
   *
   * @param stateBytes about how many bytes of state the session would have held with it
   * @param budgetBytes the budget
   * @param advice where the budget comes from (and how to raise it), for the message
   */
  public SessionTooLargeException(String attribute, long stateBytes, long budgetBytes, String advice) {
    super("session attribute '" + attribute + "' would make the session state about " + stateBytes
        + " bytes, over its budget of " + budgetBytes + " bytes (" + advice + "): the attribute was not set."
        + " Store less in the session (keep large or client-supplied data elsewhere), or raise the budget"
        + " with maxStateBytes knowing the header limits on the way");
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
