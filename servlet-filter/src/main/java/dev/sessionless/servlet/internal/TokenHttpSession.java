package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.LogoutRevocation;
import dev.sessionless.session.internal.TokenSession;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import java.util.Collections;
import java.util.Enumeration;

/**
 * An {@link HttpSession} backed by a token: the servlet face of the engine's {@link
 * TokenSession}, which holds the attributes and their rules. Thread-safe (Servlet 6.0, 7.7.1):
 * every method holds the lock of the request's {@code ExchangeSession}, the same lock the token is written under, so an async
 * application may use it from several threads; binding listeners are called holding it. No
 * store is called holding it ({@link #invalidate()}).
 */
final class TokenHttpSession implements HttpSession {
  /** The session this shows. */
  final TokenSession data;
  private final ServletContext context;

  TokenHttpSession(TokenSession data, ServletContext context) {
    this.data = data;
    this.context = context;
  }

  @Override
  public long getCreationTime() {
    return data.creationTime();
  }

  @Override
  public String getId() {
    return data.id();
  }

  @Override
  public long getLastAccessedTime() {
    return data.lastAccessedTime();
  }

  @Override
  public ServletContext getServletContext() {
    return context;
  }

  @Override
  public void setMaxInactiveInterval(int interval) {
    data.maxInactiveInterval(interval);
  }

  @Override
  public int getMaxInactiveInterval() {
    return data.maxInactiveInterval();
  }

  @Override
  public Object getAttribute(String name) {
    return data.attribute(name);
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    return Collections.enumeration(data.attributeNames());
  }

  @Override
  public void setAttribute(String name, Object value) {
    data.setAttribute(name, value);
  }

  @Override
  public void removeAttribute(String name) {
    data.removeAttribute(name);
  }

  /**
   * Ends the session. A revocation store is written after the lock is released: it may be
   * across the network, and another thread of the request must not wait behind it.
   */
  @Override
  public void invalidate() {
    LogoutRevocation revocation = data.invalidate();
    if (revocation != null) {
      revocation.write();
    }
  }

  @Override
  public boolean isNew() {
    return data.isNew();
  }
}
