package dev.sessionless.servlet.internal;

import dev.sessionless.core.TokenException;
import dev.sessionless.session.internal.ExchangeSession;
import dev.sessionless.session.internal.RequestView;
import dev.sessionless.session.internal.SessionHooks;
import dev.sessionless.session.internal.Settings;
import dev.sessionless.session.internal.TokenSession;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import java.time.Instant;
import java.util.Optional;

/**
 * The session of one request and all its dispatches, for the servlet API: the container-neutral
 * engine ({@link ExchangeSession}) with what is the servlet's, the request attributes it
 * publishes (the rejection, {@code auth_time}), {@code HttpSessionBindingListener} and the
 * {@code HttpSession} each {@link TokenSession} is shown as. Stored as a request attribute, so
 * forwards, includes, error and async dispatches see the same session.
 */
public final class RequestSession implements SessionHooks {
  /** The request attribute holding this object. */
  public static final String ATTRIBUTE = RequestSession.class.getName();
  /**
   * The request attribute holding the session's {@code auth_time} as an {@link Instant} while it
   * has one (see {@code SessionlessFilter.AUTH_TIME_ATTRIBUTE}).
   */
  public static final String AUTH_TIME_ATTRIBUTE = "dev.sessionless.servlet.authTime";

  private final HttpServletRequest request;
  private final String rejectionAttribute;
  private final ExchangeSession engine;
  /** How many filter invocations are on the stack for this request. */
  int depth;
  /** The {@code HttpSession} of the engine's current session (one per session: getSession() is the same object). */
  private TokenHttpSession shown;

  /** State for {@code request}; nothing is decoded yet. */
  public RequestSession(Settings settings, HttpServletRequest request, String rejectionAttribute) {
    this.request = request;
    this.rejectionAttribute = rejectionAttribute;
    this.engine = new ExchangeSession(settings, new ServletRequestView(request), this);
  }

  ExchangeSession engine() {
    return engine;
  }

  /** The {@code HttpSession} that shows {@code s}. */
  TokenHttpSession shown(TokenSession s) {
    synchronized (engine) {
      TokenHttpSession h = shown;
      if (h == null || h.data != s) {
        h = new TokenHttpSession(s, request.getServletContext());
        shown = h;
      }
      return h;
    }
  }

  /** See {@link ExchangeSession#authTime()}. */
  public Optional<Instant> authTime() {
    return engine.authTime();
  }

  TokenException.Reason rejection() {
    return engine.rejection();
  }

  /** The current valid session, creating one if asked; {@code null} otherwise. */
  TokenHttpSession session(boolean create, SessionResponse response) {
    synchronized (engine) {
      TokenSession s = engine.session(create, response);
      return s == null ? null : shown(s);
    }
  }

  String changeSessionId() {
    return engine.changeSessionId();
  }

  /** See {@link ExchangeSession#loggedIn}. */
  public String loggedIn(String subject, SessionResponse response) {
    return engine.loggedIn(subject, response);
  }

  String requestedId() {
    return engine.requestedId();
  }

  boolean requestedIdValid() {
    return engine.requestedIdValid();
  }

  boolean requestedFromCookie() {
    return engine.requestedFromCookie();
  }

  /** Writes the token if it must be written, before the response commits (see {@link ExchangeSession#checkpoint}). */
  void checkpoint(RequestView req, SessionResponse response, boolean full) {
    engine.checkpoint(req, response, full);
  }

  /** The request is over (see {@link ExchangeSession#finish}). */
  void finish(RequestView req, SessionResponse response) {
    engine.finish(req, response);
  }

  /** The reason the incoming token was rejected, if it was (and it was looked at). */
  public Optional<TokenException.Reason> rejectionIfLoaded() {
    return engine.rejectionIfLoaded();
  }

  /** Logs {@code subject} out everywhere (writes the revocation store). */
  public void logOutEverywhere(String subject) {
    engine.logOutEverywhere(subject);
  }

  @Override
  public void rejected(TokenException.Reason reason) {
    request.setAttribute(rejectionAttribute, reason);
  }

  @Override
  public void authTimeChanged(Instant authTime) {
    if (authTime != null) {
      request.setAttribute(AUTH_TIME_ATTRIBUTE, authTime);
    } else {
      request.removeAttribute(AUTH_TIME_ATTRIBUTE);
    }
  }

  @Override
  public boolean listens(Class<?> type) {
    return HttpSessionBindingListener.class.isAssignableFrom(type);
  }

  @Override
  public void bound(TokenSession session, String name, Object value) {
    ((HttpSessionBindingListener) value).valueBound(new HttpSessionBindingEvent(shown(session), name, value));
  }

  @Override
  public void unbound(TokenSession session, String name, Object value) {
    ((HttpSessionBindingListener) value).valueUnbound(new HttpSessionBindingEvent(shown(session), name, value));
  }
}
