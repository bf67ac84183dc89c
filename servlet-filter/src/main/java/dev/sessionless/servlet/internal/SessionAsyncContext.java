package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.RequestView;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * Writes the session before an async request completes or dispatches, and when the container
 * ends it on a timeout or an error: a listener registered at {@code startAsync} writes it before
 * the application's listeners run, and each application listener added here is followed by
 * another write, so a change it makes before completing the request is delivered too. Once the
 * response is committed nothing more is written (the change is dropped, never half-written).
 */
final class SessionAsyncContext implements AsyncContext {
  private final AsyncContext delegate;
  private final RequestSession state;
  private final HttpServletRequest request;
  /** The request as the session engine reads it (the cookie's path and Secure). */
  private final RequestView requestView;
  private final SessionResponse response;

  SessionAsyncContext(AsyncContext delegate, RequestSession state, HttpServletRequest request,
      SessionResponse response) {
    this.delegate = delegate;
    this.state = state;
    this.request = request;
    this.requestView = new ServletRequestView(request);
    this.response = response;
  }

  /** Registers the listener that writes the session when the container times out or fails. */
  SessionAsyncContext listen() {
    delegate.addListener(new Saving(null));
    return this;
  }

  boolean wraps(AsyncContext ac) {
    return ac == delegate;
  }

  void save() {
    state.checkpoint(requestView, response, true);
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
    delegate.addListener(new Saving(listener));
  }

  @Override
  public void addListener(AsyncListener listener, ServletRequest req, ServletResponse res) {
    delegate.addListener(new Saving(listener), req, res);
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

  /** One event handed to an application's listener. */
  @FunctionalInterface
  private interface ListenerCall {
    void on(AsyncListener listener) throws IOException;
  }

  /**
   * Writes the session on a timeout or an error, after the application's listener (if any) has
   * had its turn; every other event goes straight to the application's listener.
   */
  private final class Saving implements AsyncListener {
    private final AsyncListener app;

    Saving(AsyncListener app) {
      this.app = app;
    }

    @Override
    public void onComplete(AsyncEvent event) throws IOException {
      if (app != null) {
        app.onComplete(event);
      } else {
        state.finish(requestView, response); // the filter's own listener: reports a late change
      }
    }

    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
      appThenSave(a -> a.onTimeout(event));
    }

    @Override
    public void onError(AsyncEvent event) throws IOException {
      appThenSave(a -> a.onError(event));
    }

    /** The application's listener has its turn (if there is one), then the session is written whatever it did. */
    private void appThenSave(ListenerCall call) throws IOException {
      try {
        if (app != null) {
          call.on(app);
        }
      } finally {
        save();
      }
    }

    @Override
    public void onStartAsync(AsyncEvent event) throws IOException {
      if (app != null) {
        app.onStartAsync(event);
      }
    }
  }
}
