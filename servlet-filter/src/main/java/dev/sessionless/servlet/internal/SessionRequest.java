package dev.sessionless.servlet.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;

/** The request the application sees: its session methods are answered from the token. */
final class SessionRequest extends HttpServletRequestWrapper {
  private final RequestSession state;
  private final SessionResponse response;
  private final String rejectionAttribute;
  private SessionAsyncContext async;

  /** Wraps {@code request}, sharing {@code state} with every dispatch of it. */
  public SessionRequest(HttpServletRequest request, SessionResponse response, RequestSession state,
      String rejectionAttribute) {
    super(request);
    this.state = state;
    this.response = response;
    this.rejectionAttribute = rejectionAttribute;
  }

  @Override
  public HttpSession getSession(boolean create) {
    return state.session(create, response);
  }

  @Override
  public HttpSession getSession() {
    return getSession(true);
  }

  @Override
  public String changeSessionId() {
    return state.changeSessionId();
  }

  @Override
  public String getRequestedSessionId() {
    return state.requestedId();
  }

  @Override
  public boolean isRequestedSessionIdValid() {
    return state.requestedIdValid();
  }

  @Override
  public boolean isRequestedSessionIdFromCookie() {
    return state.requestedFromCookie();
  }

  @Override
  public boolean isRequestedSessionIdFromURL() {
    return false;
  }

  @Override
  public Object getAttribute(String name) {
    if (rejectionAttribute.equals(name)) {
      return state.rejection();
    }
    return super.getAttribute(name);
  }

  @Override
  public AsyncContext startAsync() {
    return startAsync(this, response);
  }

  @Override
  public AsyncContext startAsync(ServletRequest request, ServletResponse servletResponse) {
    AsyncContext ac = super.startAsync(request, servletResponse);
    async = new SessionAsyncContext(ac, state, this, response).listen();
    return async;
  }

  @Override
  public AsyncContext getAsyncContext() {
    AsyncContext ac = super.getAsyncContext();
    return async != null && async.wraps(ac) ? async : ac;
  }
}
