package dev.sessionless.propagation.reactive;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeContextFilter;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.NoSessionException;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.internal.Admission;
import dev.sessionless.propagation.internal.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * The edge's side on Spring WebFlux, the twin of the servlet {@link EdgeContextFilter}: gives
 * each exchange a {@link CallContext} with the incoming (or a new) trace and the user's browser
 * session, in Reactor's {@code Context} ({@link ReactiveCallContext#KEY}) and as the exchange
 * attribute {@link InternalTokenWebFilter#CONTEXT_ATTRIBUTE}, so that {@code
 * InternalTokenExchangeFilter} mints internal tokens for the calls the exchange makes.
 *
 * <pre>{@code
 * WebFilter edge = EdgeContextWebFilter.builder().build();   // after the session and security filters
 * }</pre>
 *
 * <p><b>The session</b> is the exchange's {@link WebSession} (any implementation: the token-backed
 * one or WebFlux's own), read when a token is minted: its id, digested ({@link
 * EdgeLogins#sessionId}: with WebFlux's own sessions the id is the cookie's value, which never
 * leaves the edge), its attributes as the state values, its end ({@code getLastAccessTime() +
 * getMaxIdleTime()}). <b>The subject</b> is the String session attribute named by {@link
 * Builder#subjectAttribute} if set and present, else the name of the exchange's principal
 * ({@code exchange.getPrincipal()}, which Spring Security fills) if it is a login ({@link
 * EdgeLogins#isLogin}: Spring Security's anonymous authentication is not), resolved when the
 * exchange enters this filter: place the filter after Spring Security's. <b>When the user
 * authenticated</b> (carried as {@code auth_time}) is the {@link Instant} in the exchange
 * attribute, else the session attribute, named by {@link Builder#authTimeAttribute}: by default
 * {@link #SESSION_MANAGER_AUTH_TIME_ATTRIBUTE}, which the token-backed session manager keeps equal
 * to its session's {@code auth_time} (as the servlet {@link EdgeContextFilter} reads the session
 * filter's). Tokens carry it so that a receiving service with a revocation source can honour "log
 * out everywhere". An exchange has a browser session when its {@code WebSession} was started (it
 * holds attributes) or it has a login.
 *
 * <p><b>Behind {@link InternalTokenWebFilter}.</b> On an exchange that filter passed (the
 * exchange carries a verified token's context), this filter changes nothing: calls made while
 * serving a verified internal token re-mint from it, as on the servlet side, wherever the two
 * filters stand in the chain.
 *
 * <p><b>No session.</b> An exchange without one that asks for a token gets {@link
 * NoSessionException}; when it reaches this filter before the response is committed, the answer
 * is {@code 401} ({@code Cache-Control: no-store}, a one-line text body), never a {@code 500}.
 *
 * <p>Thread-safe.
 */
public final class EdgeContextWebFilter implements WebFilter {
  /**
   * The exchange attribute the token-backed session manager keeps its session's {@code auth_time}
   * in (an {@link Instant}): {@code SessionlessWebSessionManager.AUTH_TIME_ATTRIBUTE}, named here
   * so that this module needs no {@code sessionless-webflux} on its class path. The default of
   * {@link Builder#authTimeAttribute}.
   */
  public static final String SESSION_MANAGER_AUTH_TIME_ATTRIBUTE = "dev.sessionless.webflux.authTime";

  private final String subjectAttribute;
  private final String authTimeAttribute;

  private EdgeContextWebFilter(Builder b) {
    this.subjectAttribute = b.subjectAttribute;
    this.authTimeAttribute = b.authTimeAttribute;
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Object received = exchange.getAttributes().get(InternalTokenWebFilter.CONTEXT_ATTRIBUTE);
    if (received instanceof CallContext && ((CallContext) received).token().isPresent()) {
      return chain.filter(exchange); // a verified internal token: calls re-mint from it, not from a session
    }
    TraceContext trace = Admission.trace(exchange.getRequest().getHeaders().getFirst(TraceContext.HEADER));
    return Mono.zip(EdgeLogins.loginName(exchange), exchange.getSession()).flatMap(found -> {
      String user = found.getT1().orElse(null);
      WebSession webSession = found.getT2();
      CallContext context = CallContext.ofSession(trace, () -> session(exchange, webSession, user));
      exchange.getAttributes().put(InternalTokenWebFilter.CONTEXT_ATTRIBUTE, context);
      return chain.filter(exchange)
          .onErrorResume(e -> !exchange.getResponse().isCommitted() && Responses.causedBy(e, NoSessionException.class),
              e -> Responses.write(exchange.getResponse(),
                  Answer.unauthorized(null, "sign in first: this page acts on behalf of a signed-in user")))
          .contextWrite(ReactiveCallContext.with(context));
    });
  }

  /** The browser session of the exchange, read now (when a token is minted). */
  private Optional<EdgeSession> session(ServerWebExchange exchange, WebSession s, String principalName) {
    if (!s.isStarted() && principalName == null) {
      return Optional.empty();
    }
    Map<String, Object> attributes = s.getAttributes();
    Object named = subjectAttribute == null ? null : attributes.get(subjectAttribute);
    String subject = named instanceof String && !((String) named).isEmpty() ? (String) named : principalName;
    EdgeSession.Builder b = EdgeSession.builder().sessionId(EdgeLogins.sessionId(s));
    if (subject != null) {
      b.subject(subject);
    }
    Duration idle = s.getMaxIdleTime();
    if (!idle.isNegative() && !idle.isZero()) {
      b.expiresAt(s.getLastAccessTime().plus(idle));
    }
    Instant authTime = authTime(exchange, attributes);
    if (authTime != null) {
      b.authTime(authTime);
    }
    attributes.forEach((name, value) -> {
      if (value != null) {
        try {
          b.put(name, value); // a token carries only its callee's grant of these
        } catch (IllegalArgumentException e) {
          // A name no token can carry (too long, reserved): no grant can name it either.
        }
      }
    });
    return Optional.of(b.build());
  }

  /** The login time, read when a token is minted: after the session was asked for (which publishes it). */
  private Instant authTime(ServerWebExchange exchange, Map<String, Object> attributes) {
    Object t = exchange.getAttributes().get(authTimeAttribute);
    if (!(t instanceof Instant)) {
      t = attributes.get(authTimeAttribute);
    }
    return t instanceof Instant ? (Instant) t : null;
  }

  /** The subject and login-time attributes. */
  @Override
  public String toString() {
    return "EdgeContextWebFilter[subject=" + (subjectAttribute == null ? "principal" : subjectAttribute)
        + ", authTime=" + authTimeAttribute + "]";
  }

  /** Builds an {@link EdgeContextWebFilter}. Not thread-safe. */
  public static final class Builder {
    private String subjectAttribute;
    private String authTimeAttribute = SESSION_MANAGER_AUTH_TIME_ATTRIBUTE;

    private Builder() {}

    /**
     * The session attribute holding the user id (a {@code String}), carried as {@code sub}; the
     * principal's name when not set or absent.
     */
    public Builder subjectAttribute(String name) {
      this.subjectAttribute = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * The exchange (or else session) attribute holding, as an {@link Instant}, when the user
     * authenticated; {@link #SESSION_MANAGER_AUTH_TIME_ATTRIBUTE} (the token-backed session
     * manager's) if not set. Another session mechanism (WebFlux's own sessions, say) can set its
     * own attribute; without a value there, tokens carry no {@code auth_time}.
     */
    public Builder authTimeAttribute(String name) {
      this.authTimeAttribute = Objects.requireNonNull(name, "name");
      return this;
    }

    /** The filter. */
    public EdgeContextWebFilter build() {
      return new EdgeContextWebFilter(this);
    }
  }
}
