package dev.sessionless.propagation;

/**
 * A call on behalf of a user was asked for while serving a request that has no browser
 * session (and no internal token): there is no user to act for. {@link OutgoingTokens} throws
 * it; {@link EdgeContextFilter} answers the request {@code 401} when it leaves the application
 * before the response is committed, so an endpoint that calls other services needs no login
 * check of its own to avoid a {@code 500}. An {@link IllegalStateException}, as before it had a
 * type of its own.
 */
public final class NoSessionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** With the message that says what to do. */
  NoSessionException() {
    super("the request has no session: there is no user to call on behalf of; sign the user in first "
        + "(EdgeContextFilter answers such a request 401)");
  }

  /** With another message that says what to do. */
  NoSessionException(String message) {
    super(message);
  }
}
