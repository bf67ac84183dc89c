package dev.sessionless.devicebinding.servlet;

import dev.sessionless.core.TokenException;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.Challenges;
import dev.sessionless.devicebinding.DbscHeaders;
import dev.sessionless.devicebinding.DbscNames;
import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.DeviceProof;
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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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
 * DeviceBindingFilterBuilder#boundLifetime}, minutes) naming the DBSC session id. From then on a
 * request of that session needs a bound cookie for that id; the browser refreshes it at the
 * refresh endpoint with a signature of its device key, on any node holding the keys. Copied
 * cookies stop working when the copied bound cookie expires.
 *
 * <p><b>Answers.</b> A bound session without a valid bound cookie is refused {@code 401} ({@code
 * NOT_BOUND}); unbound sessions follow the {@link UnboundPolicy} and {@link
 * DeviceBindingFilterBuilder#requireBound}. Refusals are JSON {@code
 * {"error":"device_binding","reason":"..."}} with the reason also in the request attribute
 * {@link #REFUSAL_ATTRIBUTE}. A key source that cannot be read is {@code 503} with {@code
 * Retry-After}; a fault on this side is {@code 500} and logged at ERROR.
 *
 * <p>Thread-safe.
 */
public final class DeviceBindingFilter implements Filter {
  /** The {@code HttpSession} attribute holding the DBSC session id (a String) once the session is bound. */
  public static final String SESSION_ATTRIBUTE = "dev.sessionless.devicebinding.session";
  /** The request attribute: {@link Boolean#TRUE} when the request's session is bound and proved it (see {@link #isBound}). */
  public static final String BOUND_ATTRIBUTE = "dev.sessionless.devicebinding.bound";
  /** The request attribute holding the {@link Reason} a request was refused for. */
  public static final String REFUSAL_ATTRIBUTE = "dev.sessionless.devicebinding.refusal";
  private static final String FILTER_ATTRIBUTE = DeviceBindingFilter.class.getName();
  private static final System.Logger LOG = System.getLogger(DeviceBindingFilter.class.getName());

  final String registrationPath;
  final String refreshPath;
  private final Challenges challenges;
  private final BindingTokens tokens;
  private final Endpoints endpoints;
  private final UnboundPolicy policy;
  private final java.time.Duration unboundLifetime;
  private final List<String> requireBound;
  private final String[] proofAlgorithms;
  private final java.time.Clock clock;

  DeviceBindingFilter(DeviceBindingFilterBuilder b) {
    registrationPath = b.registrationPath;
    refreshPath = b.refreshPath;
    challenges = Challenges.builder().keys(b.keys).algorithm(b.algorithm).issuer(b.issuer)
        .window(b.challengeWindow).clock(b.clock).usedChallenges(b.usedChallenges).build();
    String first = b.proofAlgorithms[0];
    String[] more = java.util.Arrays.copyOfRange(b.proofAlgorithms, 1, b.proofAlgorithms.length);
    DeviceProof proofs = DeviceProof.verifier(challenges).algorithms(first, more).clock(b.clock).build();
    tokens = new BindingTokens(b);
    endpoints = new Endpoints(this, challenges, proofs, tokens);
    policy = b.unboundPolicy;
    unboundLifetime = b.unboundLifetime;
    requireBound = List.copyOf(b.requireBound);
    proofAlgorithms = b.proofAlgorithms.clone();
    clock = b.clock;
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
    String path = path(req);
    if (path.equals(registrationPath)) {
      endpoints.register(req, res);
      return;
    }
    if (path.equals(refreshPath)) {
      endpoints.refresh(req, res);
      return;
    }
    Reason refusal;
    try {
      refusal = check(req, path);
    } catch (TokenException e) {
      outage(req, res, e);
      return;
    }
    if (refusal != null) {
      refuse(req, res, refusal == Reason.NOT_BOUND || refusal == Reason.UNBOUND_EXPIRED ? 401 : 403,
          new DeviceBindingException(refusal, message(refusal)));
      return;
    }
    chain.doFilter(req, res);
  }

  /** Null if the request may go on, else why not. */
  private Reason check(HttpServletRequest req, String path) {
    HttpSession session = req.getSession(false);
    Object id = session == null ? null : session.getAttribute(SESSION_ATTRIBUTE);
    if (id instanceof String dbscId) {
      String cookie = BindingTokens.cookie(req, tokens.boundName);
      if (cookie == null || !tokens.boundTo(cookie, dbscId)) {
        return Reason.NOT_BOUND;
      }
      req.setAttribute(BOUND_ATTRIBUTE, Boolean.TRUE);
      return null;
    }
    req.setAttribute(BOUND_ATTRIBUTE, Boolean.FALSE);
    for (String pattern : requireBound) {
      if (matches(pattern, path)) {
        return Reason.BINDING_REQUIRED;
      }
    }
    if (session == null || policy == UnboundPolicy.ALLOW) {
      return null;
    }
    Optional<Instant> login = SessionlessFilter.authTime(req);
    if (login.isEmpty()) {
      return null;
    }
    if (policy == UnboundPolicy.REFUSE) {
      return Reason.UNBOUND_REFUSED;
    }
    return clock.instant().isAfter(login.get().plus(unboundLifetime)) ? Reason.UNBOUND_EXPIRED : null;
  }

  private static boolean matches(String pattern, String path) {
    if (pattern.endsWith("/**")) {
      String prefix = pattern.substring(0, pattern.length() - 3);
      return path.equals(prefix) || path.startsWith(prefix + "/");
    }
    return path.equals(pattern);
  }

  private static String path(HttpServletRequest req) {
    String uri = req.getRequestURI();
    String context = req.getContextPath();
    return uri.startsWith(context) ? uri.substring(context.length()) : uri;
  }

  private static String message(Reason reason) {
    return switch (reason) {
      case NOT_BOUND -> "this session is bound to a device and the request carries no valid bound cookie: the"
          + " browser refreshes it at the refresh endpoint";
      case UNBOUND_REFUSED -> "this application needs a browser that binds its session to the device (DBSC)";
      case UNBOUND_EXPIRED -> "a session not bound to a device lives only a short time here: log in again";
      default -> "this route needs a session bound to the device (DBSC)";
    };
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
   * @return whether the header was added
   * @throws IllegalStateException if the request did not pass through a {@code DeviceBindingFilter}
   * @throws DeviceBindingException {@code UNAVAILABLE} if the keys cannot be read now (answer 503)
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
    String first = filter.proofAlgorithms[0];
    String[] more = java.util.Arrays.copyOfRange(filter.proofAlgorithms, 1, filter.proofAlgorithms.length);
    response.addHeader(DbscNames.REGISTRATION_HEADER, DbscHeaders.registration()
        .algorithms(first, more)
        .path(request.getContextPath() + filter.registrationPath)
        .challenge(filter.challenges.issue(Purpose.REGISTRATION, session.getId()))
        .build());
    return true;
  }

  /** A refusal of the client: {@code status}, no caching, JSON naming the reason. */
  void refuse(HttpServletRequest req, HttpServletResponse res, int status, DeviceBindingException e)
      throws IOException {
    req.setAttribute(REFUSAL_ATTRIBUTE, e.reason());
    LOG.log(System.Logger.Level.DEBUG, () -> "DBSC refused " + req.getRequestURI() + ": " + e.reason());
    byte[] body = ("{\"error\":\"device_binding\",\"reason\":\"" + e.reason() + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    res.setStatus(status);
    res.setHeader("Cache-Control", "no-store");
    res.setContentType("application/json");
    res.setContentLength(body.length);
    res.getOutputStream().write(body);
  }

  /** An outage (503, Retry-After) or a fault on this side (500, logged); never the client's. */
  void outage(HttpServletRequest req, HttpServletResponse res, RuntimeException e) throws IOException {
    boolean down = e instanceof DeviceBindingException d ? d.reason() == Reason.UNAVAILABLE
        : ((TokenException) e).reason() == TokenException.Reason.KEY_SOURCE_UNAVAILABLE
            || ((TokenException) e).reason() == TokenException.Reason.REVOCATION_UNAVAILABLE;
    if (down) {
      LOG.log(System.Logger.Level.WARNING, "DBSC: the key source or the used-challenge store is unavailable (" + reasonOf(e) + "); answered 503");
    } else {
      LOG.log(System.Logger.Level.ERROR, "DBSC: a fault on this side (" + reasonOf(e) + ") at "
          + req.getRequestURI(), e);
    }
    Reason reason = down ? Reason.UNAVAILABLE : Reason.INTERNAL;
    req.setAttribute(REFUSAL_ATTRIBUTE, reason);
    byte[] body = ("{\"error\":\"device_binding\",\"reason\":\"" + reason + "\"}").getBytes(StandardCharsets.UTF_8);
    res.setStatus(down ? 503 : 500);
    if (down) {
      res.setHeader("Retry-After", "5");
    }
    res.setHeader("Cache-Control", "no-store");
    res.setContentType("application/json");
    res.setContentLength(body.length);
    res.getOutputStream().write(body);
  }

  private static String reasonOf(RuntimeException e) {
    return e instanceof DeviceBindingException d ? d.reason().toString() : ((TokenException) e).reason().toString();
  }
}
