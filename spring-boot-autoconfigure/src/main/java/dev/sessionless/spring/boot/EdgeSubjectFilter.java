package dev.sessionless.spring.boot;

import dev.sessionless.propagation.EdgeContextFilter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Enumeration;
import java.util.Map;
import java.util.Objects;

/**
 * Runs an {@link EdgeContextFilter} whose subject is the name of the Spring Security login kept
 * in the token session (the map {@code SessionlessSecurityContextRepository} stores under
 * {@link #LOGIN_ATTRIBUTE}): the edge filter sees a view of the session with that name as the
 * String attribute {@link #SUBJECT_ATTRIBUTE}. The application and the rest of the chain get the
 * original request; the view is read only when a token is minted. No Spring Security class is
 * needed at run time.
 */
final class EdgeSubjectFilter implements Filter {
  /** The attribute the edge filter is told to read the subject from (a view only, never stored). */
  public static final String SUBJECT_ATTRIBUTE = "sessionless.propagation.subject";
  /**
   * {@code SessionlessSecurityContextRepository.ATTRIBUTE}: the login's values, a map. Written
   * out rather than referenced, so that this package does not depend on the security package
   * (which depends on this one) and reading it loads no Spring Security class;
   * EdgeSubjectFilterTest pins the two as equal.
   */
  static final String LOGIN_ATTRIBUTE = "sessionless.security.authentication";

  private final EdgeContextFilter edge;

  /**
   * Wraps an edge filter built with {@code subjectAttribute(SUBJECT_ATTRIBUTE)}.
   *
   * @param edge the edge filter
   */
  public EdgeSubjectFilter(EdgeContextFilter edge) {
    this.edge = Objects.requireNonNull(edge, "edge");
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest)) {
      chain.doFilter(req, res);
      return;
    }
    edge.doFilter(new View((HttpServletRequest) req), res, (request, response) -> chain.doFilter(req, response));
  }

  /** The edge filter. */
  @Override
  public String toString() {
    return "EdgeSubjectFilter[" + edge + "]";
  }

  /** The request as the edge filter sees it: its session shows the login's name. */
  private static final class View extends HttpServletRequestWrapper {
    View(HttpServletRequest request) {
      super(request);
    }

    @Override
    public HttpSession getSession(boolean create) {
      HttpSession s = super.getSession(create);
      return s == null ? null : new SubjectSession(s);
    }

    @Override
    public HttpSession getSession() {
      return getSession(true);
    }
  }

  /** A session that answers {@link #SUBJECT_ATTRIBUTE} with the login's name; otherwise the session. */
  private static final class SubjectSession implements HttpSession {
    private final HttpSession s;

    SubjectSession(HttpSession s) {
      this.s = s;
    }

    @Override
    public Object getAttribute(String name) {
      if (SUBJECT_ATTRIBUTE.equals(name)) {
        Object login = s.getAttribute(LOGIN_ATTRIBUTE);
        Object user = login instanceof Map ? ((Map<?, ?>) login).get("name") : null;
        return user instanceof String && !((String) user).isEmpty() ? user : null;
      }
      return s.getAttribute(name);
    }

    @Override
    public long getCreationTime() {
      return s.getCreationTime();
    }

    @Override
    public String getId() {
      return s.getId();
    }

    @Override
    public long getLastAccessedTime() {
      return s.getLastAccessedTime();
    }

    @Override
    public ServletContext getServletContext() {
      return s.getServletContext();
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
      s.setMaxInactiveInterval(interval);
    }

    @Override
    public int getMaxInactiveInterval() {
      return s.getMaxInactiveInterval();
    }

    @Override
    public Enumeration<String> getAttributeNames() {
      return s.getAttributeNames();
    }

    @Override
    public void setAttribute(String name, Object value) {
      s.setAttribute(name, value);
    }

    @Override
    public void removeAttribute(String name) {
      s.removeAttribute(name);
    }

    @Override
    public void invalidate() {
      s.invalidate();
    }

    @Override
    public boolean isNew() {
      return s.isNew();
    }
  }
}
