package dev.sessionless.servlet.internal;

import dev.sessionless.core.TokenException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A revocation source that cannot answer (a store that is down past its stale bound), or a key
 * source that can no longer vouch for the token's key (a JWKS URL down past its stale bound), is an
 * outage of this node, not a fault in the request and not a bug: the client gets {@code 503
 * Service Unavailable} with a {@code Retry-After}, through the container's (or the
 * application's) error page, never a 500 and never a stack trace.
 */
final class RevocationOutage {
  /** Seconds a client is asked to wait; revocation stores recover on their next poll. */
  static final String RETRY_AFTER_SECONDS = "5";
  private static final int MAX_CAUSES = 16;

  private RevocationOutage() {}

  /**
   * Answers {@code 503} if {@code failure} is (or was caused by) {@code REVOCATION_UNAVAILABLE}
   * or {@code KEY_SOURCE_UNAVAILABLE} (a key source past its stale bound) and the response can
   * still say so.
   *
   * @return whether the failure was answered (and must not be rethrown)
   */
  static boolean answered(Throwable failure, HttpServletResponse response) throws IOException {
    if (!isOutage(failure) || response.isCommitted()) {
      return false;
    }
    response.resetBuffer();
    response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
    response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE,
        "The session could not be checked (a revocation list or key source is unavailable); retry shortly.");
    return true;
  }

  static boolean isOutage(Throwable failure) {
    Throwable t = failure;
    for (int i = 0; t != null && i < MAX_CAUSES; i++, t = t.getCause()) {
      if (t instanceof TokenException
          && (((TokenException) t).reason() == TokenException.Reason.REVOCATION_UNAVAILABLE
              || ((TokenException) t).reason() == TokenException.Reason.KEY_SOURCE_UNAVAILABLE)) {
        return true;
      }
    }
    return false;
  }
}
