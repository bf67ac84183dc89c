package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.Outages;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The one place the filter answers an outage of this node. A revocation source that cannot
 * answer (a store down past its stale bound), a revocation store that cannot record a logout,
 * or a key source that can no longer vouch for the token's key (a JWKS URL down past its stale
 * bound) is not a fault in the request and not a bug: the client gets {@code 503 Service
 * Unavailable} with a {@code Retry-After}, through the container's (or the application's) error
 * page, never a 500 and never a stack trace.
 *
 * <p>The propagation module answers its own 503s: it does not depend on this module (only its
 * tests do), and its refusals are plain-text bodies of a service API, not a browser's error page.
 */
final class OutageResponse {
  /** Seconds a client is asked to wait (the rule both adapters share). */
  static final String RETRY_AFTER_SECONDS = Outages.RETRY_AFTER_SECONDS;

  private OutageResponse() {}

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
    response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "The session could not be checked"
        + " (a revocation list or key source is unavailable); retry shortly.");
    return true;
  }

  /** Whether {@code failure} is (or was caused by) an outage this class answers. */
  static boolean isOutage(Throwable failure) {
    return Outages.isOutage(failure);
  }
}
