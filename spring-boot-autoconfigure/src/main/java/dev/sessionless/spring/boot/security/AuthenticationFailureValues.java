package dev.sessionless.spring.boot.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.security.authentication.AccountExpiredException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.CredentialsExpiredException;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.WebAttributes;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps the last login failure, which Spring Security's failure handler stores in the session
 * as an exception for the login page to show, as its kind and message: Spring Security's five
 * account exceptions come back as themselves, any other as a {@code BadCredentialsException}
 * with the original message, cut to {@value #MAX_MESSAGE_LENGTH} characters (it can be the
 * client's text, as an OAuth2 {@code error_description} is). Runs right after the Sessionless filter and only wraps the
 * request's session; every other attribute passes straight through.
 */
final class AuthenticationFailureValues extends OncePerRequestFilter {
  private static final String KEY = WebAttributes.AUTHENTICATION_EXCEPTION;
  /** The longest failure message kept; a longer one is cut, ending in an ellipsis. */
  static final int MAX_MESSAGE_LENGTH = 256;
  private static final Map<String, Function<String, AuthenticationException>> KNOWN = Map.of(
      "bad-credentials", BadCredentialsException::new,
      "locked", LockedException::new,
      "disabled", DisabledException::new,
      "account-expired", AccountExpiredException::new,
      "credentials-expired", CredentialsExpiredException::new);

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    chain.doFilter(new Request(request), response);
  }

  static Map<String, Object> write(AuthenticationException e) {
    String kind = e instanceof LockedException ? "locked"
        : e instanceof DisabledException ? "disabled"
        : e instanceof AccountExpiredException ? "account-expired"
        : e instanceof CredentialsExpiredException ? "credentials-expired"
        : "bad-credentials";
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind);
    m.put("message", bounded(e.getMessage()));
    return m;
  }

  /**
   * The message, at most {@value #MAX_MESSAGE_LENGTH} characters: a failure message can be the
   * client's text (an OAuth2 {@code error_description}), and would otherwise grow the session
   * without bound.
   */
  static String bounded(Object message) {
    if (!(message instanceof String)) {
      return "";
    }
    String s = (String) message;
    if (s.length() <= MAX_MESSAGE_LENGTH) {
      return s;
    }
    int end = MAX_MESSAGE_LENGTH - 1;
    if (Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end) + "\u2026";
  }

  static Object read(Object value) {
    if (!(value instanceof Map)) {
      return value;
    }
    Map<?, ?> m = (Map<?, ?>) value;
    Function<String, AuthenticationException> make = KNOWN.get(String.valueOf(m.get("kind")));
    return make == null ? null : make.apply(bounded(m.get("message")));
  }

  private static final class Request extends HttpServletRequestWrapper {
    private Session session;

    Request(HttpServletRequest request) {
      super(request);
    }

    @Override
    public HttpSession getSession(boolean create) {
      HttpSession s = super.getSession(create);
      if (s == null) {
        return null;
      }
      if (session == null || session.delegate != s) {
        session = new Session(s);
      }
      return session;
    }

    @Override
    public HttpSession getSession() {
      return getSession(true);
    }
  }

  // Forwards like EdgeSubjectFilter.SubjectSession: one shared class would have to be public API
  // in dev.sessionless.spring.boot, for a dozen lines of delegation.
  private static final class Session implements HttpSession {
    final HttpSession delegate;

    Session(HttpSession delegate) {
      this.delegate = delegate;
    }

    @Override
    public Object getAttribute(String name) {
      Object v = delegate.getAttribute(name);
      return KEY.equals(name) ? read(v) : v;
    }

    @Override
    public void setAttribute(String name, Object value) {
      delegate.setAttribute(name, KEY.equals(name) && value instanceof AuthenticationException
          ? write((AuthenticationException) value) : value);
    }

    @Override
    public long getCreationTime() {
      return delegate.getCreationTime();
    }

    @Override
    public String getId() {
      return delegate.getId();
    }

    @Override
    public long getLastAccessedTime() {
      return delegate.getLastAccessedTime();
    }

    @Override
    public jakarta.servlet.ServletContext getServletContext() {
      return delegate.getServletContext();
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
      delegate.setMaxInactiveInterval(interval);
    }

    @Override
    public int getMaxInactiveInterval() {
      return delegate.getMaxInactiveInterval();
    }

    @Override
    public Enumeration<String> getAttributeNames() {
      return delegate.getAttributeNames();
    }

    @Override
    public void removeAttribute(String name) {
      delegate.removeAttribute(name);
    }

    @Override
    public void invalidate() {
      delegate.invalidate();
    }

    @Override
    public boolean isNew() {
      return delegate.isNew();
    }
  }
}
