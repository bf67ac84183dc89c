package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;

/**
 * Which failures are an outage of this node rather than a fault in the request or a bug: a
 * revocation source that cannot answer (a store down past its stale bound), a revocation store
 * that cannot record a logout, or a key source that can no longer vouch for the token's key (a
 * JWKS URL down past its stale bound). Each adapter answers them {@code 503 Service Unavailable}
 * with a {@code Retry-After} of {@link #RETRY_AFTER_SECONDS}, never a 500.
 */
public final class Outages {
  /** Seconds a client is asked to wait; revocation stores recover on their next poll. */
  public static final String RETRY_AFTER_SECONDS = "5";
  private static final int MAX_CAUSES = 16;

  private Outages() {}

  /**
   * Whether {@code failure} is (or was caused by, within 16 causes) {@code
   * REVOCATION_UNAVAILABLE} or {@code KEY_SOURCE_UNAVAILABLE}.
   */
  public static boolean isOutage(Throwable failure) {
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
