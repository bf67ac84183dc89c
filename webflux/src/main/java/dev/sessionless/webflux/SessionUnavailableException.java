package dev.sessionless.webflux;

import dev.sessionless.core.TokenException;
import dev.sessionless.session.internal.Outages;
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
    h.set(HttpHeaders.RETRY_AFTER, Outages.RETRY_AFTER_SECONDS);
    return h;
  }

  /**
   * {@code failure} as this exception if it is (or was caused by) an outage (the session module's
   * {@code Outages} rule, the servlet filter's), else {@code failure} itself: a rejection never
   * gets here, and anything else is a server error.
   */
  public static Throwable translate(Throwable failure) {
    if (failure instanceof SessionUnavailableException || !Outages.isOutage(failure)) {
      return failure;
    }
    Throwable outage = failure;
    for (Throwable t = failure; t != null && Outages.isOutage(t); t = t.getCause()) {
      outage = t; // the deepest one the rule holds for: the outage itself, not a wrapper
    }
    return new SessionUnavailableException((TokenException) outage);
  }
}
