package dev.sessionless.webflux;

import dev.sessionless.core.TokenException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The session could not be checked or recorded because something this node depends on is down:
 * a revocation source past its stale bound, a revocation store that cannot record a logout, or a
 * key source that can no longer vouch for the token's key. Not the client's fault and not a bug:
 * WebFlux answers it {@code 503 Service Unavailable} with {@code Retry-After}, never a 500. The
 * machine-readable cause is {@link #reason()}.
 */
public final class SessionUnavailableException extends ResponseStatusException {
  private static final long serialVersionUID = 1L;
  /** Seconds a client is asked to wait: revocation stores recover on their next poll. */
  static final String RETRY_AFTER_SECONDS = "5";
  private static final int MAX_CAUSES = 16;

  private final TokenException.Reason reason;

  private SessionUnavailableException(TokenException cause) {
    super(HttpStatus.SERVICE_UNAVAILABLE, "The session could not be checked (a revocation list or key source"
        + " is unavailable, " + cause.reason() + "); retry shortly.", cause);
    this.reason = cause.reason();
  }

  /** {@code REVOCATION_UNAVAILABLE} or {@code KEY_SOURCE_UNAVAILABLE}. */
  public TokenException.Reason reason() {
    return reason;
  }

  /** Adds {@code Retry-After} to the 503. */
  @Override
  public HttpHeaders getHeaders() {
    HttpHeaders h = new HttpHeaders();
    h.set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    return h;
  }

  /**
   * {@code failure} as this exception if it is (or was caused by) an outage, else {@code failure}
   * itself: a rejection never gets here, and anything else is a server error.
   */
  public static Throwable translate(Throwable failure) {
    Throwable t = failure;
    for (int i = 0; t != null && i < MAX_CAUSES; i++, t = t.getCause()) {
      if (t instanceof SessionUnavailableException) {
        return t;
      }
      if (t instanceof TokenException && (((TokenException) t).reason() == TokenException.Reason.REVOCATION_UNAVAILABLE
          || ((TokenException) t).reason() == TokenException.Reason.KEY_SOURCE_UNAVAILABLE)) {
        return new SessionUnavailableException((TokenException) t);
      }
    }
    return failure;
  }
}
