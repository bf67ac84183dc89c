package dev.sessionless.servlet;

import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.servlet.internal.FilterRun;
import dev.sessionless.servlet.internal.RequestSession;
import dev.sessionless.session.internal.LogoutRevocation;
import dev.sessionless.session.internal.Settings;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A filter that makes {@code HttpSession} a token: the session lives in a signed (or encrypted)
 * cookie or header, so no node stores it and any node can serve any request.
 *
 * <pre>{@code
 * SessionlessFilter filter = SessionlessFilter.builder()
 *     .keys(KeySet.fromJwks(Files.readString(Path.of("/etc/app/keys.jwks"))))
 *     .issuer("https://shop.example").audience("shop")
 *     .build();
 * FilterRegistration.Dynamic reg = servletContext.addFilter("sessionless", filter);
 * reg.setAsyncSupported(true);
 * reg.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/*");
 * }</pre>
 *
 * <p>Or, in {@code web.xml}, declare this class with init parameters (see {@link #init}); map it
 * for every dispatcher type and mark it async-supported.
 *
 * <p><b>Behaviour.</b> The token is decoded only when the application first touches the session,
 * and written only when the session is new, changed (also in place: found by comparing what a
 * record or {@code java.util} collection value holds, else by re-serialising the attribute
 * values read or set), invalidated, or due for renewal, always before the response commits.
 * Attributes are stored as JSON with their class name; only JDK value types and the classes
 * given to {@link SessionlessFilterBuilder#attributeTypes} are accepted, and a class name read
 * from a token never loads a class. A bad, expired or foreign token starts a fresh session; its
 * reason is the request attribute {@link #REJECTION_ATTRIBUTE}. A stored attribute that no
 * longer reads back as its class is dropped or starts a fresh session ({@link
 * SessionlessFilterBuilder#onBadAttribute}), never a 500. A failure on this side (a key source
 * that throws, a {@link TokenException} whose reason is no rejection) is a server error: the
 * first use of the session throws, and the client's token is kept; a revocation or key source
 * that is down is answered {@code 503} with {@code Retry-After}. Container {@code
 * HttpSessionListener}s, {@code HttpSessionAttributeListener}s and {@code HttpSessionIdListener}s
 * are not fired; {@code HttpSessionBindingListener} values are told when bound and unbound. The
 * session is safe to use from several threads.
 *
 * <p><b>Security.</b> Tokens are encrypted by default ({@code dir} with A256GCM and {@code zip:
 * DEF}, a standard JWE): a copied cookie shows nothing of the session; a signing algorithm is
 * one {@link SessionlessFilterBuilder#algorithm} away. The token and attribute values are never
 * logged. Cookies are {@code HttpOnly}, {@code SameSite=Lax} and {@code Secure} on every request,
 * plain http included, unless the application turns {@code Secure} off (see {@link
 * SessionlessFilterBuilder#cookieSecure}). A session may hold what one cookie carries ({@link
 * SessionlessFilterBuilder#maxStateBytes}, {@link SessionlessFilterBuilder#maxCookieChunks}). A
 * mapper or attribute type that would let JSON choose a class is refused at build. Parallel
 * requests of one session each write their own token: the last response the client stores wins.
 *
 * <p><b>Logging</b>, on the {@code System.Logger} {@code dev.sessionless.servlet.SessionlessFilter}:
 * rejections at DEBUG per request and as a WARNING summary per reason once a minute; failures on
 * this side at ERROR once per cause, then counted.
 *
 * <p>Thread-safe once initialised. Spec: Jakarta Servlet 6.0 and 6.1, RFC 6265 (cookies).
 */
public final class SessionlessFilter implements Filter {
  /**
   * The request attribute holding the {@link TokenException.Reason} why the token the request
   * carried was not accepted, once the session has been looked at; absent when there was no
   * token or it was fine. New reasons may be added.
   */
  public static final String REJECTION_ATTRIBUTE = "dev.sessionless.servlet.rejection";

  /**
   * The request attribute holding, as a {@link java.time.Instant}, when the request's session
   * was authenticated ({@code auth_time}, see {@link #authTime}), once the session has been
   * looked at; absent while the session has none. It follows {@link #loggedIn}, {@code
   * changeSessionId()} and {@code invalidate()} within the request. For readers that must not
   * depend on this module, such as the propagation module's {@code EdgeContextFilter}, which
   * carries it into internal tokens.
   */
  public static final String AUTH_TIME_ATTRIBUTE = RequestSession.AUTH_TIME_ATTRIBUTE;

  private volatile Settings settings;
  /**
   * The keyring init() made from {@code keys.file} or {@code keys.env}; stopped by destroy(). Typed
   * {@code AutoCloseable}: the keyring is an optional dependency, and this class must load without it.
   */
  private volatile AutoCloseable owned;

  /**
   * A filter configured from its init parameters in {@link #init(FilterConfig)}; for {@code
   * web.xml} and {@code ServletContext.addFilter(name, SessionlessFilter.class)}.
   */
  public SessionlessFilter() {}

  SessionlessFilter(Settings settings) {
    this.settings = settings;
  }

  /** A builder for a filter configured in code. */
  public static SessionlessFilterBuilder builder() {
    return new SessionlessFilterBuilder();
  }

  /**
   * Reads the init parameters unless the filter was built with {@link #builder()} (then they are
   * ignored). Parameters: {@code keys.file} (a JWKS file, live) or {@code keys.env} (an
   * environment variable holding a JWKS or a base64url secret), both read through a {@code
   * Keyring} when {@code sessionless-keyring} is on the class path; without it only {@code keys.env}
   * with a plain JWKS or a base64url secret works, and the other key parameters fail init naming
   * the artifact to add. For an encrypted file at most one of {@code keys.password-env}, {@code
   * keys.password-file}, {@code keys.kek-env}, {@code keys.kek-file}; {@code
   * keys.file.poll-seconds}, {@code algorithm}, {@code issuer}, {@code audience}, {@code
   * cookie.name}, {@code cookie.path}, {@code cookie.domain}, {@code cookie.max-age} (seconds),
   * {@code cookie.same-site}, {@code cookie.secure} ({@code true}/{@code false}), {@code
   * cookie.max-chunks}, {@code max-state-bytes}, {@code header} (use this header instead of cookies), {@code
   * max-inactive-interval} (seconds), {@code absolute-lifetime} (seconds), {@code
   * renewal-fraction}, {@code attribute-types} (comma-separated class names), {@code
   * bad-attribute} ({@code drop} or {@code new-session}), {@code compress} ({@code true}/{@code
   * false}), {@code compression} ({@code none}, {@code deflate}, {@code
   * deflate-with-dictionary}), {@code accept-compressed-signed-tokens} ({@code true}/{@code
   * false}), {@code revocation} ({@code memory}: an
   * in-memory {@link RevocationStore} for a single node), {@code revocation.context-attribute}
   * (the name of a {@code ServletContext} attribute holding the {@link RevocationSource}, put
   * there by a {@code ServletContextListener}). If init fails, the keyring it started is
   * stopped.
   *
   * @throws ServletException if a parameter is missing or invalid, or the key file cannot be read
   */
  @Override
  public void init(FilterConfig config) throws ServletException {
    if (settings != null) {
      return;
    }
    AutoCloseable started = null;
    try {
      SessionlessFilterBuilder b = builder();
      started = InitParams.apply(config::getInitParameter, System::getenv, b,
          Thread.currentThread().getContextClassLoader());
      String attribute = config.getInitParameter("revocation.context-attribute");
      if (attribute != null) {
        Object source = config.getServletContext().getAttribute(attribute.trim());
        if (!(source instanceof RevocationSource)) {
          throw new IllegalStateException("the ServletContext attribute '" + attribute.trim() + "' named by"
              + " revocation.context-attribute holds no RevocationSource: set it in a ServletContextListener");
        }
        b.revocation((RevocationSource) source);
      }
      settings = b.settings();
      owned = started;
    } catch (IOException | RuntimeException e) {
      if (started != null) {
        close(started); // its refresh thread would outlive the failed filter
      }
      throw new ServletException("SessionlessFilter '" + config.getFilterName()
          + "' is misconfigured: " + e.getMessage(), e);
    }
  }

  /**
   * Wraps the request and response so that the session is the token's; once per request, so
   * the filter may be mapped twice and for forward, include, error and async dispatches.
   *
   * @throws TokenException {@code NO_SIGNING_KEY} (a server error) if the token cannot be made,
   *     or another reason that is no rejection if the token cannot be read because of a failure
   *     on this side (also any exception the key source throws)
   */
  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    Settings s = settings;
    if (s == null) {
      throw new IllegalStateException("SessionlessFilter was not initialised");
    }
    if (!(req instanceof HttpServletRequest) || !(res instanceof HttpServletResponse)) {
      chain.doFilter(req, res);
      return;
    }
    FilterRun.run(s, (HttpServletRequest) req, (HttpServletResponse) res, chain, REJECTION_ATTRIBUTE);
  }

  /**
   * Marks a login on {@code request}'s session (creating one if need be): gives it a new id (as
   * {@code changeSessionId()}, against session fixation), the subject, and an {@code auth_time}
   * of now, which renewal never moves. Call it once the user is authenticated; a plain {@code
   * changeSessionId()} also sets {@code auth_time} but no subject. The subject is what {@link
   * #logOutEverywhere} ends.
   *
   * @return the new session id
   * @throws IllegalStateException if the request did not pass through a {@code SessionlessFilter},
   *     or the response is already committed
   */
  public static String loggedIn(HttpServletRequest request, String subject) {
    Objects.requireNonNull(subject, "subject");
    if (subject.isEmpty()) {
      throw new IllegalArgumentException("subject must not be empty");
    }
    return requestSession(request, "loggedIn").loggedIn(subject, null);
  }

  /**
   * When the request's session was authenticated ({@code auth_time}, whole seconds), as its
   * next token will say: now if this request called {@link #loggedIn} or {@code
   * changeSessionId()}, otherwise the incoming token's. Empty when the request has no session,
   * the session never logged in, or it was invalidated in this request. Decodes the session if
   * that has not happened yet.
   *
   * @throws IllegalStateException if the request did not pass through a {@code SessionlessFilter}
   */
  public static Optional<Instant> authTime(HttpServletRequest request) {
    return requestSession(request, "authTime").authTime();
  }

  /**
   * Logs a subject out everywhere: every session of theirs authenticated before now (this one
   * too, from its next request) is rejected with {@code SUBJECT_REVOKED} on every node reading
   * the filter's {@link RevocationStore}, within that store's lag. Other subjects' sessions are
   * untouched. A login after this call (in a later second) is valid again.
   *
   * @throws IllegalStateException if the request did not pass through a {@code SessionlessFilter}
   *     or the filter has no {@link RevocationStore}
   */
  public static void logOutEverywhere(HttpServletRequest request, String subject) {
    Objects.requireNonNull(subject, "subject");
    requestSession(request, "logOutEverywhere").logOutEverywhere(subject);
  }

  /**
   * Logs a subject out everywhere from outside a request (a scheduled job, an administrator's
   * action), as {@link #logOutEverywhere(HttpServletRequest, String)} does within one: every
   * reader of {@code store} rejects the subject's sessions authenticated before {@code now}, and
   * the entry is kept for {@code absoluteLifetime} (the filter's) plus a margin for the readers'
   * clock skew.
   *
   * @throws IllegalArgumentException if the subject is empty
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the store cannot record it (Redis
   *     down), as the store says
   */
  public static void logOutEverywhere(RevocationStore store, String subject, Instant now,
      Duration absoluteLifetime) {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(absoluteLifetime, "absoluteLifetime");
    LogoutRevocation.revokeSubject(store, subject, now, absoluteLifetime);
  }

  private static RequestSession requestSession(HttpServletRequest request, String what) {
    Object state = request.getAttribute(RequestSession.ATTRIBUTE);
    if (!(state instanceof RequestSession)) {
      throw new IllegalStateException(what + ": the request did not pass through SessionlessFilter");
    }
    return (RequestSession) state;
  }

  /** Stops the keyring this filter made for {@code keys.file}, if any. */
  @Override
  public void destroy() {
    AutoCloseable k = owned;
    if (k != null) {
      close(k);
    }
  }

  private static void close(AutoCloseable keyring) {
    try {
      keyring.close();
    } catch (Exception e) {
      // Keyring.close() throws nothing checked; anything else is a bug worth seeing.
      throw new IllegalStateException("the filter's keyring did not close", e);
    }
  }

  /**
   * What the filter does with a stored attribute that no longer reads back as its recorded class
   * (see {@link SessionlessFilterBuilder#onBadAttribute}); init parameter {@code bad-attribute}: {@code drop} or
   * {@code new-session}.
   */
  public enum BadAttribute {
    /**
     * Leave that attribute out: the application sees the session without it, the other
     * attributes survive, and the next token is written without it. Checked lazily: a value is
     * read when the application first asks for it, and at the latest when the token is next
     * written.
     */
    DROP,
    /**
     * Start a fresh session, as for a rejected token (the request attribute {@link
     * #REJECTION_ATTRIBUTE} is {@code STATE_MAPPING}). Every stored value is read when the
     * session is first used, so this costs a JSON parse of each attribute per request.
     */
    NEW_SESSION
  }
}
