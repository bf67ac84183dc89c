package dev.sessionless.propagation;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The edge's side: binds a {@link CallContext} for each request, with the incoming (or a new)
 * trace and the browser session of the request's {@code HttpSession}, so that {@link
 * OutgoingTokens} can mint internal tokens for the calls the request makes. Map it after the
 * session filter ({@code SessionlessFilter}), which makes the {@code HttpSession} a verified
 * token; it works with any {@code HttpSession}, and depends on no servlet-filter internals.
 *
 * <pre>{@code
 * context.addFilter(sessionlessFilter, "/*");
 * context.addFilter(EdgeContextFilter.builder().subjectAttribute("user").build(), "/*");
 * }</pre>
 *
 * <p>The session is read only when a token is minted: its id, the subject from the named
 * attribute (a {@code String}), its end ({@code getLastAccessedTime() +
 * getMaxInactiveInterval()}), the values of the attributes a token carries, and when the user
 * authenticated: the request attribute {@link #SESSION_FILTER_AUTH_TIME_ATTRIBUTE}, which the
 * session filter keeps equal to its decoded session's {@code auth_time} ({@code
 * HttpSession} has no such notion). Tokens carry it as {@code auth_time}, so that a receiving
 * service with a revocation source can honour "log out everywhere"; without it they carry none,
 * and such a receiver refuses them once the subject has a not-before instant.
 *
 * <p><b>No session.</b> A request without a browser session that asks {@link OutgoingTokens}
 * for a token (a page that calls other services, reached before login) gets {@link
 * NoSessionException}; when it leaves the application before the response is committed, this
 * filter answers {@code 401} ({@code Cache-Control: no-store}, a one-line text body, headers set
 * so far kept), never a {@code 500} with a stack trace. An application that prefers a redirect to
 * its login page requires login for such paths (Spring Security's rules, say), so the request
 * never gets this far.
 *
 * <p>Thread-safe. The context is bound to the serving thread only.
 */
public final class EdgeContextFilter implements Filter {
  /**
   * The request attribute the session filter keeps the session's {@code auth_time} in (an
   * {@link Instant}): {@code SessionlessFilter.AUTH_TIME_ATTRIBUTE}, named here so that this
   * module needs no servlet-filter on its class path.
   */
  public static final String SESSION_FILTER_AUTH_TIME_ATTRIBUTE = "dev.sessionless.servlet.authTime";

  private final String subjectAttribute;
  private final String authTimeAttribute;

  private EdgeContextFilter(Builder b) {
    this.subjectAttribute = b.subjectAttribute;
    this.authTimeAttribute = b.authTimeAttribute;
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The browser session of an {@code HttpSession}, read as described above, without a login
   * time: its internal tokens carry no {@code auth_time}.
   *
   * @param subjectAttribute the attribute holding the user id, or null for none
   */
  public static EdgeSession session(HttpSession session, String subjectAttribute) {
    return session(session, subjectAttribute, null);
  }

  /**
   * The browser session of an {@code HttpSession}, read as described above, authenticated at
   * {@code authTime} (carried as {@code auth_time} into its internal tokens).
   *
   * @param subjectAttribute the attribute holding the user id, or null for none
   * @param authTime when the user authenticated, or null if unknown
   */
  public static EdgeSession session(HttpSession session, String subjectAttribute, Instant authTime) {
    Objects.requireNonNull(session, "session");
    Object subject = subjectAttribute == null ? null : session.getAttribute(subjectAttribute);
    int idle = session.getMaxInactiveInterval();
    Instant end = idle > 0 ? Instant.ofEpochMilli(session.getLastAccessedTime()).plusSeconds(idle) : null;
    Set<String> names = new LinkedHashSet<>(Collections.list(session.getAttributeNames()));
    return EdgeSession.lazy(session.getId(), subject instanceof String ? (String) subject : null, end, authTime,
        names, session::getAttribute);
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest)) {
      chain.doFilter(req, res);
      return;
    }
    HttpServletRequest request = (HttpServletRequest) req;
    TraceContext trace = TraceContext.parse(request.getHeader(TraceContext.HEADER)).orElseGet(TraceContext::newTrace);
    CallContext context = CallContext.ofSession(trace,
        () -> Optional.ofNullable(request.getSession(false)).map(s -> session(s, subjectAttribute, authTime(request))));
    request.setAttribute(InternalTokenFilter.CONTEXT_ATTRIBUTE, context);
    try (CallContext.Scope scope = context.open()) {
      chain.doFilter(req, res);
    } catch (IOException | ServletException | RuntimeException e) {
      if (!(res instanceof HttpServletResponse) || res.isCommitted() || !noSession(e)) {
        throw e;
      }
      res.resetBuffer();
      Answers.unauthorized((HttpServletResponse) res, null,
          "sign in first: this page acts on behalf of a signed-in user");
    }
  }

  /** Whether {@code e} is (or wraps) the {@link NoSessionException} of {@link OutgoingTokens}. */
  private static boolean noSession(Throwable e) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
      if (t instanceof NoSessionException) {
        return true;
      }
    }
    return false;
  }

  /** The login time the session filter published, read after the session was (which decodes it). */
  private Instant authTime(HttpServletRequest request) {
    Object t = authTimeAttribute == null ? null : request.getAttribute(authTimeAttribute);
    return t instanceof Instant ? (Instant) t : null;
  }

  /** The subject and login-time attributes. */
  @Override
  public String toString() {
    return "EdgeContextFilter[subject=" + subjectAttribute + ", authTime=" + authTimeAttribute + "]";
  }

  /** Builds an {@link EdgeContextFilter}. Not thread-safe. */
  public static final class Builder {
    private String subjectAttribute;
    private String authTimeAttribute = SESSION_FILTER_AUTH_TIME_ATTRIBUTE;

    private Builder() {}

    /**
     * The request attribute holding, as an {@link Instant}, when the session's user
     * authenticated; {@link #SESSION_FILTER_AUTH_TIME_ATTRIBUTE} (the session filter's) if not
     * set. Another session mechanism can set its own attribute; the value is read when a token
     * is minted, after the session.
     */
    public Builder authTimeAttribute(String name) {
      this.authTimeAttribute = BuilderArgs.notEmpty(name, "the attribute name");
      return this;
    }

    /** The session attribute holding the user id (a {@code String}), carried as {@code sub}. */
    public Builder subjectAttribute(String name) {
      this.subjectAttribute = Objects.requireNonNull(name, "name");
      return this;
    }

    /** The filter. */
    public EdgeContextFilter build() {
      return new EdgeContextFilter(this);
    }
  }
}
