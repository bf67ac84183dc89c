package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.DbscNames;
import dev.sessionless.devicebinding.DeviceBindingEngine;
import dev.sessionless.devicebinding.DeviceBindingEngine.Answer;
import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.core.Ordered;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Device Bound Session Credentials for a WebFlux application: the servlet {@code
 * DeviceBindingFilter}'s behaviour and settings as a {@link WebFilter}. It serves the registration
 * and refresh endpoints, and lets an ordinary request of a bound session through only with a
 * valid short-lived bound cookie. The application's {@code WebSessionManager} must be {@code
 * SessionlessWebSessionManager}: the DBSC session's id lives in its token session ({@link
 * #SESSION_ATTRIBUTE}), and {@code auth_time} comes from it.
 *
 * <pre>{@code
 * DeviceBindingWebFilter dbsc = DeviceBindingWebFilter.builder()
 *     .keys(keys).issuer("https://shop.example")
 *     .unboundPolicy(UnboundPolicy.SHORTER_LIFETIME)
 *     .build();
 * HttpHandler app = WebHttpHandlerBuilder.webHandler(handler).filter(dbsc).sessionManager(sessions).build();
 * }</pre>
 *
 * <p>The application offers registration with {@link #offerRegistration} on a response of its
 * choosing (after login). Refusals are the servlet filter's: JSON {@code
 * {"error":"device_binding","reason":"..."}} with the same statuses, the reason also in the
 * exchange attribute {@link #REFUSAL_ATTRIBUTE}; an unreadable key source is {@code 503} with
 * {@code Retry-After}. The two endpoints never call the rest of the chain: ordered before Spring
 * Security's {@code WebFilterChainProxy} ({@link #DEFAULT_ORDER}), they never reach its CSRF check
 * or header writers.
 *
 * <p><b>Threads.</b> Everything runs on the thread that subscribes, the event loop, as the token
 * {@code WebSession} decodes its token there: the bound-cookie check and the tokens are CPU work,
 * and so is a refresh's proof check (one ES256 signature verification on core's P-256 engine, or
 * RS256 with the JDK's {@code Signature}); nothing here blocks (the DRBG for new DBSC session ids
 * is seeded when the filter is built). With a used-challenge store ({@code usedChallenges}), the
 * two endpoints (a refresh every few minutes per session, never an ordinary request) run on
 * Reactor's {@code boundedElastic} scheduler instead: the store's look-up is its in-memory copy,
 * but recording the use is a write (Redis: a network call). What it decides is {@link
 * DeviceBindingEngine}'s, shared with the servlet filter. Thread-safe.
 */
public final class DeviceBindingWebFilter implements WebFilter, Ordered {
  /** The {@code WebSession} attribute holding the DBSC session id (a String) once the session is bound. */
  public static final String SESSION_ATTRIBUTE = DeviceBindingEngine.SESSION_ATTRIBUTE;
  /** The exchange attribute: {@link Boolean#TRUE} when the exchange's session is bound and proved it (see {@link #isBound}). */
  public static final String BOUND_ATTRIBUTE = "dev.sessionless.devicebinding.bound";
  /** The exchange attribute holding the {@link Reason} an exchange was refused for. */
  public static final String REFUSAL_ATTRIBUTE = "dev.sessionless.devicebinding.refusal";
  /** The default order: ahead of Spring Security's {@code WebFilterChainProxy} (-100). */
  public static final int DEFAULT_ORDER = -150;
  private static final String FILTER_ATTRIBUTE = DeviceBindingWebFilter.class.getName();

  private final DeviceBindingEngine engine;
  private final int order;

  DeviceBindingWebFilter(DeviceBindingEngine engine, int order) {
    this.engine = engine;
    this.order = order;
  }

  /** A builder; keys and issuer are required. */
  public static DeviceBindingWebFilterBuilder builder() {
    return new DeviceBindingWebFilterBuilder();
  }

  /** The registration endpoint's path, within the context path (for a security matcher). */
  public String registrationPath() {
    return engine.registrationPath();
  }

  /** The refresh endpoint's path, within the context path (for a security matcher). */
  public String refreshPath() {
    return engine.refreshPath();
  }

  /** This filter's order among the {@code WebFilter}s. */
  @Override
  public int getOrder() {
    return order;
  }

  /**
   * Serves the two endpoints; lets other exchanges through when their session may be used (see
   * the class comment), refuses them otherwise.
   */
  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    exchange.getAttributes().put(FILTER_ATTRIBUTE, this);
    ServerHttpRequest req = exchange.getRequest();
    String path = req.getPath().pathWithinApplication().value();
    String context = req.getPath().contextPath().value();
    String method = req.getMethod().name();
    HttpHeaders headers = req.getHeaders();
    if (path.equals(engine.refreshPath())) {
      return endpoint(() -> engine.refresh(method, context, cookie(req, engine.longLivedCookieName()),
          headers.getFirst(DbscNames.SESSION_ID_HEADER), headers.getFirst(DbscNames.RESPONSE_HEADER)))
          .flatMap(a -> send(exchange, a));
    }
    return exchange.getSession().flatMap(session -> {
      if (path.equals(engine.registrationPath())) {
        String sessionId = session.isStarted() ? session.getId() : null;
        return endpoint(() -> engine.register(method, context, sessionId, headers.getFirst(DbscNames.RESPONSE_HEADER)))
            .flatMap(a -> {
              if (a.bind() != null) {
                session.getAttributes().put(SESSION_ATTRIBUTE, a.bind());
              }
              return send(exchange, a);
            });
      }
      boolean started = session.isStarted();
      Object dbscSession = started ? session.getAttributes().get(SESSION_ATTRIBUTE) : null;
      Answer refusal = engine.check(path, started, dbscSession, cookie(req, engine.boundCookieName()),
          () -> Optional.ofNullable(exchange.getAttribute(SessionlessWebSessionManager.AUTH_TIME_ATTRIBUTE)));
      if (refusal != null) {
        return send(exchange, refusal);
      }
      exchange.getAttributes().put(BOUND_ATTRIBUTE, dbscSession instanceof String);
      return chain.filter(exchange);
    });
  }

  /**
   * Whether {@code exchange}'s session is bound to a device and this request proved it (a valid
   * bound cookie). False for unbound sessions, and before the filter has looked.
   */
  public static boolean isBound(ServerWebExchange exchange) {
    return Boolean.TRUE.equals(exchange.getAttribute(BOUND_ATTRIBUTE));
  }

  /**
   * Offers registration on the exchange's response: adds {@code Secure-Session-Registration} with
   * a challenge bound to the exchange's session (started if need be), unless the session is bound
   * already. Subscribe to it on the exchange that completes a login (after {@code
   * SessionlessWebSessionManager.loggedIn}, which changes the session id), before the response
   * commits.
   *
   * <p>When the keys cannot be read now, the header is left out and the outage logged at WARNING
   * (see {@link DeviceBindingEngine#registrationOffer}): the response stays the application's,
   * never a 500, and the session stays unbound until a later offer.
   *
   * @return whether the header was added; fails with {@link IllegalStateException} if the exchange
   *     did not pass through a {@code DeviceBindingWebFilter}, with {@link DeviceBindingException}
   *     {@code INTERNAL} on a fault on this side
   */
  public static Mono<Boolean> offerRegistration(ServerWebExchange exchange) {
    if (!(exchange.getAttribute(FILTER_ATTRIBUTE) instanceof DeviceBindingWebFilter filter)) {
      return Mono.error(new IllegalStateException("offerRegistration: the exchange did not pass through"
          + " DeviceBindingWebFilter (register it as a WebFilter)"));
    }
    return exchange.getSession().map(session -> {
      if (session.getAttributes().get(SESSION_ATTRIBUTE) instanceof String) {
        return false;
      }
      session.start();
      String offer = filter.engine.registrationOffer(exchange.getRequest().getPath().contextPath().value(),
          session.getId());
      if (offer == null) {
        return false;
      }
      exchange.getResponse().getHeaders().add(DbscNames.REGISTRATION_HEADER, offer);
      return true;
    });
  }

  /** An endpoint's answer: on the subscribing thread, or off the event loop when it writes to a used-challenge store. */
  private Mono<Answer> endpoint(Supplier<Answer> answer) {
    Mono<Answer> m = Mono.fromSupplier(answer);
    return engine.recordsUsedChallenges() ? m.subscribeOn(Schedulers.boundedElastic()) : m;
  }

  private static Mono<Void> send(ServerWebExchange exchange, Answer a) {
    if (a.reason() != null) {
      exchange.getAttributes().put(REFUSAL_ATTRIBUTE, a.reason());
    }
    ServerHttpResponse res = exchange.getResponse();
    res.setStatusCode(HttpStatusCode.valueOf(a.status()));
    HttpHeaders h = res.getHeaders();
    for (Map.Entry<String, String> e : a.headers()) {
      h.add(e.getKey(), e.getValue());
    }
    byte[] body = a.body();
    if (a.json() != null) {
      h.setContentType(MediaType.APPLICATION_JSON);
    }
    h.setContentLength(body.length);
    return body.length == 0 ? res.setComplete() : res.writeWith(Mono.fromSupplier(() -> res.bufferFactory().wrap(body)));
  }

  /** The value of the first cookie called {@code name}, or null. */
  private static String cookie(ServerHttpRequest req, String name) {
    HttpCookie c = req.getCookies().getFirst(name);
    return c == null ? null : c.getValue();
  }
}
