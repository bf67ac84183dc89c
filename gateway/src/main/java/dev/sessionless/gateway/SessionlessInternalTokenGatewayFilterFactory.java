package dev.sessionless.gateway;

import dev.sessionless.core.TokenException;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.NoSessionException;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.propagation.TraceContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The route filter {@code SessionlessInternalToken}: for each routed request, mints the internal
 * token of {@code sessionless-propagation} for the route's service (its audience) from the
 * browser's session at the gateway, and sends it downstream in the header of the minter's
 * {@link TokenProfile}: {@code Authorization: Bearer <token>} ({@link TokenProfile#INTERNAL}, the
 * default) or {@code Txn-Token: <token>} ({@link TokenProfile#TXN_TOKEN}, {@code
 * sessionless.propagation.profile=txn-token}: {@code aud} the trust domain, the minter's {@code
 * scope}, the request's trace id in {@code rctx}); the browser's session cookies stay at the
 * gateway.
 *
 * <pre>{@code
 * spring.cloud.gateway.server.webflux.routes:
 *   - id: orders
 *     uri: http://orders.internal:8080
 *     predicates: [ "Path=/orders/**" ]
 *     filters: [ "SessionlessInternalToken=orders" ]      # the audience
 * }</pre>
 *
 * <p>Per routed request: the session comes from the {@link EdgeSessionResolver} (by default the
 * authenticated principal and the {@code WebSession}); the token is {@link
 * InternalTokenMinter#mint} for the route's audience, carrying the route's state values (its
 * {@code state} argument, else {@code sessionless.propagation.send.grants.<audience>}, else none),
 * with the gateway as the actor and a lifetime cut to the session's; the downstream request gets a
 * {@code traceparent} that is a child of the browser's (a new trace when it sent none or a
 * malformed one). Whatever the browser sent in the token header is removed first, so only a token
 * this gateway minted reaches the service.
 *
 * <p>Without a session the route's {@link WithoutSession} policy holds: {@link
 * WithoutSession#REFUSE} (the default) answers {@code 401}; {@link WithoutSession#FORWARD} sends
 * the request on without a token, for services that serve anonymous callers and refuse the rest
 * themselves. A session that has expired is answered {@code 401}; keys the gateway cannot sign
 * with now (a key file mid-rotation, an unreadable key source) {@code 503} with {@code
 * Retry-After: 5}, logged at ERROR; any other fault on this side {@code 500}, logged at ERROR.
 * Answers carry {@code Cache-Control: no-store} and a one-line body without details.
 *
 * <p>Registered by {@link SessionlessGatewayAutoConfiguration}. Thread-safe.
 */
public final class SessionlessInternalTokenGatewayFilterFactory
    extends AbstractGatewayFilterFactory<SessionlessInternalTokenGatewayFilterFactory.Config> {
  private static final System.Logger LOG = System.getLogger(SessionlessInternalTokenGatewayFilterFactory.class.getName());

  private final InternalTokenMinter minter;
  private final EdgeSessionResolver sessions;
  private final TokenProfile profile;
  private final String header;
  private final Map<String, List<String>> grants;
  private final SessionCookies cookies;

  /**
   * A factory minting with {@code minter}.
   *
   * @param minter the gateway's minter ({@code sessionless.propagation.send.*})
   * @param sessions where each request's session comes from
   * @param header the header the token travels in (as the services' filters read it), or null for
   *     the minter's profile's: {@code Authorization} with {@code Bearer <token>}, or {@code
   *     Txn-Token} with the bare token
   * @param grants the state names each audience receives when its route names none
   * @param sessionCookies the cookies that stay at the gateway, with their chunks ({@code
   *     NAME.1}, ...)
   * @throws IllegalArgumentException if the header or a cookie name is not a valid name
   */
  public SessionlessInternalTokenGatewayFilterFactory(InternalTokenMinter minter, EdgeSessionResolver sessions,
      String header, Map<String, List<String>> grants, List<String> sessionCookies) {
    super(Config.class);
    this.minter = Objects.requireNonNull(minter, "minter");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.profile = minter.profile();
    if (header != null && (header.isEmpty() || header.chars().anyMatch(c -> c <= ' ' || c >= 127 || c == ':'))) {
      throw new IllegalArgumentException("sessionless.propagation.send.header: '" + header + "' is not a header name");
    }
    this.header = header != null ? header : profile.header();
    Map<String, List<String>> g = new java.util.LinkedHashMap<>();
    grants.forEach((audience, names) -> g.put(audience, List.copyOf(names)));
    this.grants = Map.copyOf(g);
    this.cookies = new SessionCookies(sessionCookies);
  }

  /** {@code SessionlessInternalToken=orders} sets the audience. */
  @Override
  public List<String> shortcutFieldOrder() {
    return List.of("audience");
  }

  /** The filter's name in route configuration. */
  @Override
  public String name() {
    return "SessionlessInternalToken";
  }

  /**
   * The filter for one route.
   *
   * @throws IllegalArgumentException if the audience is missing, or the route's state names are
   *     not among the audience's grant (a route narrows the grant, never widens it)
   */
  @Override
  public GatewayFilter apply(Config config) {
    String audience = config.getAudience();
    if (audience == null || audience.isBlank()) {
      throw new IllegalArgumentException("SessionlessInternalToken needs the audience: the name of the route's "
          + "service, as its verifier expects it (SessionlessInternalToken=orders)");
    }
    List<String> granted = grants.get(audience);
    Set<String> names;
    if (config.getState() == null) {
      names = granted == null ? Set.of() : Set.copyOf(new LinkedHashSet<>(granted));
    } else {
      names = Set.copyOf(new LinkedHashSet<>(config.getState()));
      if (granted != null && !granted.containsAll(names)) {
        List<String> extra = new ArrayList<>(names);
        extra.removeAll(granted);
        throw new IllegalArgumentException("SessionlessInternalToken for '" + audience + "': state " + extra
            + " is not in sessionless.propagation.send.grants." + audience + " " + granted
            + ": a route narrows the grant; widen the grant to send more");
      }
    }
    WithoutSession policy = config.getWithoutSession() == null ? WithoutSession.REFUSE : config.getWithoutSession();
    return new Filter(audience, names, policy);
  }

  /** What a route does with a request that has no session (no login). */
  public enum WithoutSession {
    /** Answer {@code 401} at the gateway; the request never reaches the service. The default. */
    REFUSE,
    /** Send the request on without a token (the browser's token header and session cookies removed). */
    FORWARD
  }

  /**
   * A route's arguments: {@code audience} (required), {@code state} (the state names the token
   * carries; the audience's grant when not set) and {@code without-session} ({@code refuse} unless
   * set).
   */
  public static final class Config {
    private String audience;
    private List<String> state;
    private WithoutSession withoutSession = WithoutSession.REFUSE;

    /** Used by the gateway's binder. */
    public Config() {}

    /** The route's service, the token's {@code aud}. */
    public String getAudience() {
      return audience;
    }

    /** Sets the route's service, the token's {@code aud}. */
    public Config setAudience(String audience) {
      this.audience = audience;
      return this;
    }

    /** The state names the token carries, or {@code null} for the audience's grant. */
    public List<String> getState() {
      return state;
    }

    /** Sets the state names the token carries: a subset of the audience's grant, if it has one. */
    public Config setState(List<String> state) {
      this.state = state == null ? null : List.copyOf(state);
      return this;
    }

    /** The policy for a request without a session. */
    public WithoutSession getWithoutSession() {
      return withoutSession;
    }

    /** Sets the policy for a request without a session. */
    public Config setWithoutSession(WithoutSession withoutSession) {
      this.withoutSession = withoutSession;
      return this;
    }
  }

  /** One route's filter. */
  private final class Filter implements GatewayFilter {
    private final String audience;
    private final Set<String> names;
    private final WithoutSession policy;

    Filter(String audience, Set<String> names, WithoutSession policy) {
      this.audience = audience;
      this.names = names;
      this.policy = policy;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
      TraceContext trace = TraceContext.parse(exchange.getRequest().getHeaders().getFirst(TraceContext.HEADER))
          .orElseGet(TraceContext::newTrace);
      Mono<Optional<EdgeSession>> found = sessions.resolve(exchange, names)
          .map(Optional::of)
          .defaultIfEmpty(Optional.empty())
          .onErrorMap(SessionUnreadable::new);
      // Only a failure to read the session is answered here; the chain's own errors pass on.
      return found.flatMap(session -> route(exchange, chain, trace, session))
          .onErrorResume(SessionUnreadable.class, e -> {
            LOG.log(System.Logger.Level.ERROR, "trace=" + trace.traceId() + ": the session of a request routed to '"
                + audience + "' cannot be read", e.getCause());
            return answer(exchange, HttpStatus.SERVICE_UNAVAILABLE, "the session cannot be read now");
          });
    }

    private Mono<Void> route(ServerWebExchange exchange, GatewayFilterChain chain, TraceContext trace,
        Optional<EdgeSession> session) {
      if (session.isEmpty()) {
        return policy == WithoutSession.FORWARD ? forward(exchange, chain, trace, null)
            : answer(exchange, HttpStatus.UNAUTHORIZED, "sign in first");
      }
      String token;
      try {
        // The trace: the Transaction Token profile carries its id in rctx; the internal one ignores it.
        token = minter.mint(session.get(), audience, names, trace);
      } catch (NoSessionException e) {
        // A Transaction Token names its user (sub): a resolver's session without a subject is no login.
        return answer(exchange, HttpStatus.UNAUTHORIZED, "sign in first");
      } catch (TokenException e) {
        if (e.reason() == TokenException.Reason.EXPIRED) {
          return answer(exchange, HttpStatus.UNAUTHORIZED, "the session has ended: sign in again");
        }
        boolean outage = e.reason() == TokenException.Reason.KEY_SOURCE_UNAVAILABLE
            || e.reason() == TokenException.Reason.NO_SIGNING_KEY;
        LOG.log(System.Logger.Level.ERROR, "trace=" + trace.traceId() + ": no internal token for '" + audience
            + "' (" + e.reason() + ")", e);
        return outage ? answer(exchange, HttpStatus.SERVICE_UNAVAILABLE, "cannot sign for the service now")
            : answer(exchange, HttpStatus.INTERNAL_SERVER_ERROR, "internal error");
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "trace=" + trace.traceId() + ": minting for '" + audience
            + "' failed", e);
        return answer(exchange, HttpStatus.INTERNAL_SERVER_ERROR, "internal error");
      }
      return forward(exchange, chain, trace, token);
    }

    private Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, TraceContext trace,
        String token) {
      List<String> cookieHeader = exchange.getRequest().getHeaders().get(HttpHeaders.COOKIE);
      String kept = cookieHeader == null ? null : cookies.strip(cookieHeader);
      ServerWebExchange routed = exchange.mutate().request(r -> r.headers(h -> {
        h.remove(header);
        if (token != null) {
          h.set(header, profile.headerValue(token));
        }
        h.set(TraceContext.HEADER, trace.child().header());
        if (kept == null) {
          h.remove(HttpHeaders.COOKIE);
        } else {
          h.set(HttpHeaders.COOKIE, kept);
        }
      })).build();
      return chain.filter(routed);
    }

    /** The audience, state names and policy; never a token. */
    @Override
    public String toString() {
      return "SessionlessInternalToken[audience=" + audience + ", state=" + names + ", without-session="
          + policy.name().toLowerCase(java.util.Locale.ROOT) + "]";
    }
  }

  /** A failure of the {@link EdgeSessionResolver}, told apart from the chain's errors. */
  private static final class SessionUnreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SessionUnreadable(Throwable cause) {
      super(cause.getClass().getName(), cause, false, false);
    }
  }

  /** Answers at the gateway: {@code status}, {@code Cache-Control: no-store}, one plain-text line. */
  private static Mono<Void> answer(ServerWebExchange exchange, HttpStatus status, String line) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(status);
    HttpHeaders h = response.getHeaders();
    h.set(HttpHeaders.CACHE_CONTROL, "no-store");
    if (status == HttpStatus.SERVICE_UNAVAILABLE) {
      h.set(HttpHeaders.RETRY_AFTER, "5");
    }
    h.setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
    byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }

  /** The header, the grants and the session cookies; never keys. */
  @Override
  public String toString() {
    return "SessionlessInternalTokenGatewayFilterFactory[" + minter + ", profile=" + profile.propertyValue()
        + ", header=" + header + ", grants=" + grants
        + ", " + cookies + "]";
  }
}
