package dev.sessionless.servlet.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/** Writes the session before an async request completes or dispatches. */
final class SessionAsyncContext implements AsyncContext {
  private final AsyncContext delegate;
  private final RequestSession state;
  private final HttpServletRequest request;
  private final SessionResponse response;

  SessionAsyncContext(AsyncContext delegate, RequestSession state, HttpServletRequest request,
      SessionResponse response) {
    this.delegate = delegate;
    this.state = state;
    this.request = request;
    this.response = response;
  }

  boolean wraps(AsyncContext ac) {
    return ac == delegate;
  }

  private void save() {
    state.checkpoint(request, response.raw(), true);
  }

  @Override
  public ServletRequest getRequest() {
    return delegate.getRequest();
  }

  @Override
  public ServletResponse getResponse() {
    return delegate.getResponse();
  }

  @Override
  public boolean hasOriginalRequestAndResponse() {
    return delegate.hasOriginalRequestAndResponse();
  }

  @Override
  public void dispatch() {
    save();
    delegate.dispatch();
  }

  @Override
  public void dispatch(String path) {
    save();
    delegate.dispatch(path);
  }

  @Override
  public void dispatch(ServletContext context, String path) {
    save();
    delegate.dispatch(context, path);
  }

  @Override
  public void complete() {
    save();
    delegate.complete();
  }

  @Override
  public void start(Runnable run) {
    delegate.start(run);
  }

  @Override
  public void addListener(AsyncListener listener) {
    delegate.addListener(listener);
  }

  @Override
  public void addListener(AsyncListener listener, ServletRequest req, ServletResponse res) {
    delegate.addListener(listener, req, res);
  }

  @Override
  public <T extends AsyncListener> T createListener(Class<T> clazz) throws ServletException {
    return delegate.createListener(clazz);
  }

  @Override
  public void setTimeout(long timeout) {
    delegate.setTimeout(timeout);
  }

  @Override
  public long getTimeout() {
    return delegate.getTimeout();
  }
}
