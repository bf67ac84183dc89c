package dev.sessionless.propagation;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
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
 * getMaxInactiveInterval()}), and the values of the attributes a token carries.
 *
 * <p>Thread-safe. The context is bound to the serving thread only.
 */
public final class EdgeContextFilter implements Filter {
  private final String subjectAttribute;

  private EdgeContextFilter(Builder b) {
    this.subjectAttribute = b.subjectAttribute;
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The browser session of an {@code HttpSession}, read as described above.
   *
   * @param subjectAttribute the attribute holding the user id, or null for none
   */
  public static EdgeSession session(HttpSession session, String subjectAttribute) {
    Objects.requireNonNull(session, "session");
    Object subject = subjectAttribute == null ? null : session.getAttribute(subjectAttribute);
    int idle = session.getMaxInactiveInterval();
    Instant end = idle > 0 ? Instant.ofEpochMilli(session.getLastAccessedTime()).plusSeconds(idle) : null;
    Set<String> names = new LinkedHashSet<>(Collections.list(session.getAttributeNames()));
    return EdgeSession.lazy(session.getId(), subject instanceof String ? (String) subject : null, end, names,
        session::getAttribute);
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
        () -> Optional.ofNullable(request.getSession(false)).map(s -> session(s, subjectAttribute)));
    request.setAttribute(InternalTokenFilter.CONTEXT_ATTRIBUTE, context);
    try (CallContext.Scope scope = context.open()) {
      chain.doFilter(req, res);
    }
  }

  /** The subject attribute. */
  @Override
  public String toString() {
    return "EdgeContextFilter[subject=" + subjectAttribute + "]";
  }

  /** Builds an {@link EdgeContextFilter}. Not thread-safe. */
  public static final class Builder {
    private String subjectAttribute;

    private Builder() {}

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
