package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.DbscNames;
import dev.sessionless.devicebinding.DeviceBindingBuilder;
import dev.sessionless.devicebinding.DeviceBindingEngine;
import dev.sessionless.devicebinding.DeviceBindingEngine.Answer;
import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.UnboundPolicy;
import jakarta.servlet.http.Cookie;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Map;

/**
 * Device Bound Session Credentials for a servlet application: serves the registration and
 * refresh endpoints, and lets an ordinary request of a bound session through only with a valid
 * short-lived bound cookie. Map it after {@code SessionlessFilter}, for {@code REQUEST}
 * dispatches, ahead of any CSRF filter:
 *
 * <pre>{@code
 * DeviceBindingFilter dbsc = DeviceBindingFilter.builder()
 *     .keys(keys).issuer("https://shop.example")
 *     .unboundPolicy(UnboundPolicy.SHORTER_LIFETIME)
 *     .build();
 * servletContext.addFilter("dbsc", dbsc).addMappingForUrlPatterns(null, true, "/*");
 * }</pre>
 *
 * <p><b>How it is stateless.</b> The application offers registration on a response of its
 * choosing ({@link #offerRegistration}, typically right after login); the challenge names the
 * Sessionless session's id. The registration endpoint verifies the browser's proof, stores a new
 * DBSC session id in the Sessionless session ({@link #SESSION_ATTRIBUTE}) and sets two cookies,
 * tokens of core's codec: a long-lived one carrying the device key and last refresh time, sent
 * only to the refresh endpoint, and a bound cookie ({@link
 * DeviceBindingBuilder#boundLifetime}, minutes) naming the DBSC session id. From then on a
 * request of that session needs a bound cookie for that id; the browser refreshes it at the
 * refresh endpoint with a signature of its device key, on any node holding the keys. Copied
 * cookies stop working when the copied bound cookie expires.
 *
 * <p><b>Answers.</b> A bound session without a valid bound cookie is refused {@code 401} ({@code
 * NOT_BOUND}); unbound sessions follow the {@link UnboundPolicy} and {@link
 * DeviceBindingBuilder#requireBound}. Refusals are JSON {@code
 * {"error":"device_binding","reason":"..."}} with the reason also in the request attribute
 * {@link #REFUSAL_ATTRIBUTE}. A key source that cannot be read is {@code 503} with {@code
 * Retry-After}; a fault on this side is {@code 500} and logged at ERROR.
 *
 * <p>What it decides is {@link DeviceBindingEngine}'s, shared with the WebFlux adapter; this
 * class only reads the request into it and writes the answer. Thread-safe.
 */
public final class DeviceBindingFilter implements Filter {
  /** The {@code HttpSession} attribute holding the DBSC session id (a String) once the session is bound. */
  public static final String SESSION_ATTRIBUTE = DeviceBindingEngine.SESSION_ATTRIBUTE;
  /** The request attribute: {@link Boolean#TRUE} when the request's session is bound and proved it (see {@link #isBound}). */
  public static final String BOUND_ATTRIBUTE = "dev.sessionless.devicebinding.bound";
  /** The request attribute holding the {@link Reason} a request was refused for. */
  public static final String REFUSAL_ATTRIBUTE = "dev.sessionless.devicebinding.refusal";
  private static final String FILTER_ATTRIBUTE = DeviceBindingFilter.class.getName();

  private final DeviceBindingEngine engine;

  DeviceBindingFilter(DeviceBindingEngine engine) {
    this.engine = engine;
  }

  /** A builder; keys and issuer are required. */
  public static DeviceBindingFilterBuilder builder() {
    return new DeviceBindingFilterBuilder();
  }

  /**
   * Serves the two endpoints; lets other requests through when their session may be used (see
   * the class comment), refuses them otherwise.
   */
  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest req) || !(response instanceof HttpServletResponse res)) {
      chain.doFilter(request, response);
      return;
    }
    req.setAttribute(FILTER_ATTRIBUTE, this);
    String uri = req.getRequestURI();
    String context = req.getContextPath();
    String path = uri.startsWith(context) ? uri.substring(context.length()) : uri;
    HttpSession session = req.getSession(false);
    if (path.equals(engine.registrationPath())) {
      Answer a = engine.register(req.getMethod(), context, session == null ? null : session.getId(),
          req.getHeader(DbscNames.RESPONSE_HEADER));
      if (a.bind() != null) {
        session.setAttribute(SESSION_ATTRIBUTE, a.bind());
      }
      send(req, res, a);
      return;
    }
    if (path.equals(engine.refreshPath())) {
      send(req, res, engine.refresh(req.getMethod(), context, cookie(req, engine.longLivedCookieName()),
          req.getHeader(DbscNames.SESSION_ID_HEADER), req.getHeader(DbscNames.RESPONSE_HEADER)));
      return;
    }
    Object dbscSession = session == null ? null : session.getAttribute(SESSION_ATTRIBUTE);
    Answer refusal = engine.check(path, session != null, dbscSession, cookie(req, engine.boundCookieName()),
        () -> SessionlessFilter.authTime(req));
    if (refusal != null) {
      send(req, res, refusal);
      return;
    }
    req.setAttribute(BOUND_ATTRIBUTE, dbscSession instanceof String);
    chain.doFilter(req, res);
  }

  /**
   * Whether {@code request}'s session is bound to a device and this request proved it (a valid
   * bound cookie). False for unbound sessions, and before the filter has looked.
   */
  public static boolean isBound(HttpServletRequest request) {
    return Boolean.TRUE.equals(request.getAttribute(BOUND_ATTRIBUTE));
  }

  /**
   * Offers registration on {@code response}: adds {@code Secure-Session-Registration} with a
   * challenge bound to the request's session (created if need be), unless the session is bound
   * already. Call it on the response that completes a login (after {@code
   * SessionlessFilter.loggedIn}, which changes the session id), before the response commits.
   *
   * <p>When the keys cannot be read now, the header is left out and the outage logged at WARNING
   * (see {@link DeviceBindingEngine#registrationOffer}): the response stays the application's,
   * never a 500, and the session stays unbound until a later offer.
   *
   * @return whether the header was added
   * @throws IllegalStateException if the request did not pass through a {@code DeviceBindingFilter}
   */
  public static boolean offerRegistration(HttpServletRequest request, HttpServletResponse response) {
    Object f = request.getAttribute(FILTER_ATTRIBUTE);
    if (!(f instanceof DeviceBindingFilter filter)) {
      throw new IllegalStateException("offerRegistration: the request did not pass through DeviceBindingFilter");
    }
    HttpSession session = request.getSession(true);
    if (session.getAttribute(SESSION_ATTRIBUTE) instanceof String) {
      return false;
    }
    String offer = filter.engine.registrationOffer(request.getContextPath(), session.getId());
    if (offer == null) {
      return false;
    }
    response.addHeader(DbscNames.REGISTRATION_HEADER, offer);
    return true;
  }

  private static void send(HttpServletRequest req, HttpServletResponse res, Answer a) throws IOException {
    if (a.reason() != null) {
      req.setAttribute(REFUSAL_ATTRIBUTE, a.reason());
    }
    res.setStatus(a.status());
    for (Map.Entry<String, String> h : a.headers()) {
      res.addHeader(h.getKey(), h.getValue());
    }
    byte[] body = a.body();
    if (a.json() != null) {
      res.setContentType("application/json");
    }
    res.setContentLength(body.length);
    res.getOutputStream().write(body);
  }

  /** The value of the first cookie called {@code name}, or null. */
  private static String cookie(HttpServletRequest req, String name) {
    Cookie[] cookies = req.getCookies();
    if (cookies != null) {
      for (Cookie c : cookies) {
        if (c.getName().equals(name)) {
          return c.getValue();
        }
      }
    }
    return null;
  }
}
