package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.Settings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** One pass of the filter: wraps the request and response once per request and saves the session. */
public final class FilterRun {
  private FilterRun() {}

  /**
   * Runs {@code chain} with the session wrappers, or straight through when an outer pass of
   * this request is already on the stack (a second mapping, a forward or include).
   */
  public static void run(Settings s, HttpServletRequest request, HttpServletResponse res, FilterChain chain,
      String rejectionAttribute) throws IOException, ServletException {
    Object existing = request.getAttribute(RequestSession.ATTRIBUTE);
    RequestSession state;
    if (existing instanceof RequestSession) {
      state = (RequestSession) existing;
      if (state.depth > 0) {
        chain.doFilter(request, res);
        return;
      }
    } else {
      state = new RequestSession(s, request, rejectionAttribute);
      request.setAttribute(RequestSession.ATTRIBUTE, state);
    }
    SessionResponse response = new SessionResponse(res, state);
    SessionRequest wrapped = new SessionRequest(request, response, state, rejectionAttribute);
    response.request(wrapped);
    state.depth++;
    Throwable failure = null;
    try {
      chain.doFilter(wrapped, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      // A revocation store that is down is this node's outage: 503, not the container's 500.
      // What the session owes the client goes first (a logout the store could not record still
      // clears the cookie here); after a failed read there is nothing to write.
      if (!(e instanceof Error) && OutageResponse.isOutage(e) && !res.isCommitted()) {
        try {
          response.save();
        } catch (RuntimeException second) {
          e.addSuppressed(second);
        }
      }
      if (e instanceof Error || !OutageResponse.answered(e, res)) {
        failure = e;
        throw e;
      }
    } finally {
      state.depth--;
      if (state.depth == 0) {
        s.tick();
      }
      if (state.depth == 0 && !wrapped.isAsyncStarted()) {
        try {
          response.finish();
        } catch (RuntimeException e) {
          // An outage met while writing the session as the request ends (no key may encrypt) is a 503 too.
          if (failure == null && !OutageResponse.answered(e, res)) {
            throw e;
          } else if (failure != null) {
            failure.addSuppressed(e);
          }
        }
      }
    }
  }
}
