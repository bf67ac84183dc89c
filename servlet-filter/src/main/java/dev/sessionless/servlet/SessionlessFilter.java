package dev.sessionless.servlet;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenException;
import dev.sessionless.servlet.internal.FilterRun;
import dev.sessionless.servlet.internal.RequestSession;
import dev.sessionless.servlet.internal.Settings;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
 * record or {@code java.util} collection value holds, else by re-serialising the attribute values
 * read or set), invalidated, or due for renewal, always before the response
 * commits. Attributes are stored as JSON with their class name; only JDK value types and the
 * classes given to {@link Builder#attributeTypes} are accepted, and a class name read from a
 * token never loads a class. A bad, expired or foreign token starts a fresh session; its reason
 * is the request attribute {@link #REJECTION_ATTRIBUTE}. A stored attribute that no longer reads
 * back as its class is dropped or starts a fresh session ({@link Builder#onBadAttribute}), never
 * a 500. A failure on this side (a key source that throws, a {@link TokenException} whose reason
 * is no rejection) is a server error: the first use of the session throws, and the client's
 * token is kept. Container {@code HttpSessionListener}s,
 * {@code HttpSessionAttributeListener}s and {@code HttpSessionIdListener}s are not fired;
 * {@code HttpSessionBindingListener} values are told when bound and unbound. The session is
 * safe to use from several threads.
 *
 * <p><b>Security.</b> Tokens are encrypted by default ({@code dir} with A256GCM and {@code
 * zip: DEF}, a standard JWE): a copied cookie shows nothing of the session; a signing algorithm
 * is one {@link Builder#algorithm} away. The token and attribute values are never logged.
 * Cookies are {@code HttpOnly}, {@code SameSite=Lax} and {@code Secure} on every request, plain
 * http included, unless the application turns {@code Secure} off (see {@link
 * Builder#cookieSecure}). A session may hold what one cookie carries ({@link
 * Builder#maxStateBytes}, {@link Builder#maxCookieChunks}). A mapper or attribute type that
 * would let JSON choose a class is refused at build. Parallel requests of one session each
 * write their own token: the last response the client stores wins.
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

  private SessionlessFilter(Settings settings) {
    this.settings = settings;
  }

  /** A builder for a filter configured in code. */
  public static Builder builder() {
    return new Builder();
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
      Builder b = builder();
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
   * (see {@link Builder#onBadAttribute}); init parameter {@code bad-attribute}: {@code drop} or
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

  /**
   * Configures a {@link SessionlessFilter}. {@link #keys}, {@link #issuer} and {@link #audience}
   * are required; every option may be set once. Not thread-safe.
   */
  public static final class Builder {
    KeySource keys;
    Algorithm algorithm;
    String issuer;
    String audience;
    Clock clock;
    StateMapper mapper;
    final Set<Class<?>> types = new LinkedHashSet<>();
    Duration maxInactive;
    Duration absoluteLifetime;
    Double renewalFraction;
    String cookieName;
    String cookiePath;
    String cookieDomain;
    Duration cookieMaxAge;
    String sameSite;
    Integer maxChunks;
    Integer maxStateBytes;
    String header;
    BadAttribute badAttribute;
    Boolean cookieSecure;
    dev.sessionless.core.Compression compress;
    Boolean acceptCompressedSigned;
    RevocationSource revocation;
    SessionlessListener listener = SessionlessListener.NONE;
    private boolean listenerSet;

    private Builder() {}

    private static void once(Object current, String option) {
      BuilderChecks.once(current, option);
    }

    /** Where the keys come from: a fixed {@code KeySet} or a live source. Required. */
    public Builder keys(KeySource keys) {
      once(this.keys, "keys");
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * The token algorithm. If not set: {@link Algorithm#DIR_A256GCM}, direct encryption with
     * AES-256-GCM, compressed with {@code zip: DEF} unless {@link #compression} says otherwise (a
     * standard JWE that jose4j and Nimbus read): a copied cookie shows nothing of the session.
     * The keys must then hold an A256GCM key ({@code keyring init} makes one by default): build
     * refuses keys that can only sign, naming this setting. Setting a signing algorithm ({@code
     * HS256} and the others) keeps tokens signed but readable by anyone holding a copy, said
     * once at INFO when the filter is built; for the benchmark cart (256 bytes of state) HS256
     * makes a 581-byte token, {@code dir} with {@code DEF} 374.
     */
    public Builder algorithm(Algorithm algorithm) {
      once(this.algorithm, "algorithm");
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /**
     * Whether to DEFLATE the token's payload ({@code "zip":"DEF"}): shorter cookies for larger
     * sessions, at the cost of compressing on every write and inflating on every
     * verification-cache miss. If not set: {@code DEF} with the default algorithm, off with
     * one set. {@code compress(true)} is {@code compression(DEFLATE)}: see {@link
     * #compression(dev.sessionless.core.Compression)}.
     */
    public Builder compress(boolean compress) {
      return compression(compress ? dev.sessionless.core.Compression.DEFLATE : dev.sessionless.core.Compression.NONE);
    }

    /**
     * How to compress the token's payload: {@code compression(DEFLATE)} is {@code
     * compress(true)}; {@link dev.sessionless.core.Compression#DEFLATE_WITH_DICTIONARY} ({@code
     * "zip":"SLD1"}) makes the shortest cookies, 10–20% under {@code DEFLATE} for a session of a
     * few hundred bytes, in a form only Sessionless reads. Set one of the two, once.
     *
     * <p>With {@link Algorithm#DIR_A256GCM} the payload is compressed before it is encrypted,
     * and every kind is read whatever this says: switch a fleet to a new kind only once every
     * node runs a version that reads it.
     *
     * <p>With a signing algorithm the payload is compressed before it is signed, an extension
     * of JWS that other JOSE libraries do not read, and which a Sessionless filter reads only
     * when it {@linkplain #acceptCompressedSignedTokens(boolean) accepts it} (this implies it).
     * Switch a fleet in two deploys: first every node accepts them, then every node writes them.
     * The benchmark cart's HS256 cookie: ~480 bytes with {@code SLD1}, 743 without.
     */
    public Builder compression(dev.sessionless.core.Compression compression) {
      Objects.requireNonNull(compression, "compression");
      once(this.compress, "compress/compression");
      this.compress = compression;
      return this;
    }

    /**
     * Whether to read signed tokens compressed by {@link #compression(dev.sessionless.core.Compression)}
     * ({@code zip} on a JWS). Off if not set: such a token is then refused as {@code
     * UNSUPPORTED_HEADER} and the request goes on with a new session. On, and not to be turned
     * off, when this filter writes them.
     */
    public Builder acceptCompressedSignedTokens(boolean accept) {
      once(this.acceptCompressedSigned, "acceptCompressedSignedTokens");
      this.acceptCompressedSigned = accept;
      return this;
    }

    /** The issuer ({@code iss}) written and required. Required. */
    public Builder issuer(String issuer) {
      once(this.issuer, "issuer");
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /** The audience ({@code aud}) written and required. Required. */
    public Builder audience(String audience) {
      once(this.audience, "audience");
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /** The clock; the system UTC clock if not set. */
    public Builder clock(Clock clock) {
      once(this.clock, "clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How attribute values become JSON and back; {@link StateMapper#defaults()} (Jackson 3) if
     * not set. Pass {@code JacksonStateMapper.of(yourJsonMapper)} to bring your own Jackson 3
     * configuration, or {@code Jackson2StateMapper.of(yourObjectMapper)} on Jackson 2. A mapper
     * with default typing is refused, and so is any registered type it could read polymorphically.
     */
    public Builder stateMapper(StateMapper mapper) {
      once(this.mapper, "stateMapper");
      this.mapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Application classes allowed as attribute values (exactly these classes, not subclasses),
     * besides JDK value types ({@code String}, boxed numbers, {@code Boolean}, {@code
     * Character}, {@code BigInteger}, {@code BigDecimal}, and lists and string-keyed maps of
     * those). May be called more than once.
     */
    public Builder attributeTypes(Class<?>... types) {
      for (Class<?> t : types) {
        this.types.add(Objects.requireNonNull(t, "type"));
      }
      return this;
    }

    /** The default {@code maxInactiveInterval}, how far each write moves expiry; 30 minutes if not set. */
    public Builder maxInactiveInterval(Duration interval) {
      once(this.maxInactive, "maxInactiveInterval");
      this.maxInactive = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** The longest a session may live from its creation, however active; 12 hours if not set. */
    public Builder absoluteLifetime(Duration lifetime) {
      once(this.absoluteLifetime, "absoluteLifetime");
      this.absoluteLifetime = Objects.requireNonNull(lifetime, "lifetime");
      return this;
    }

    /**
     * The fraction of a token's lifetime that must pass before a read-only request renews it;
     * 0.5 if not set; greater than 0, at most 1.
     */
    public Builder renewalFraction(double fraction) {
      once(this.renewalFraction, "renewalFraction");
      this.renewalFraction = fraction;
      return this;
    }

    /**
     * The cookie name; {@code SESSIONLESS} if not set. Chunks are {@code name.1}, {@code
     * name.2}, .... A name starting with {@code __Host-} (recommended for a site on one host)
     * makes the browser refuse the cookie unless it is {@code Secure}, has {@code Path=/} and no
     * {@code Domain}: the filter then writes exactly that, and refuses at build a {@code
     * cookieDomain}, a {@code cookiePath} other than {@code /}, or {@code cookieSecure(false)}.
     */
    public Builder cookieName(String name) {
      once(this.cookieName, "cookieName");
      this.cookieName = Objects.requireNonNull(name, "name");
      return this;
    }

    /** The cookie path; the context path if not set. */
    public Builder cookiePath(String path) {
      once(this.cookiePath, "cookiePath");
      this.cookiePath = Objects.requireNonNull(path, "path");
      return this;
    }

    /** The cookie domain; none (host-only) if not set. */
    public Builder cookieDomain(String domain) {
      once(this.cookieDomain, "cookieDomain");
      this.cookieDomain = Objects.requireNonNull(domain, "domain");
      return this;
    }

    /** The cookie max-age; a browser-session cookie if not set. */
    public Builder cookieMaxAge(Duration maxAge) {
      once(this.cookieMaxAge, "cookieMaxAge");
      this.cookieMaxAge = Objects.requireNonNull(maxAge, "maxAge");
      return this;
    }

    /** The cookie's SameSite attribute: {@code Lax} (default), {@code Strict} or {@code None}. */
    public Builder cookieSameSite(String sameSite) {
      once(this.sameSite, "cookieSameSite");
      this.sameSite = Objects.requireNonNull(sameSite, "sameSite");
      return this;
    }

    /**
     * Whether cookies carry {@code Secure}. {@code true}, the default: always, on every host,
     * plain http included (browsers accept {@code Secure} cookies from {@code http://localhost},
     * so local development needs nothing else). {@code false}: only on requests the container
     * sees as secure (https, or a proxy's {@code X-Forwarded-Proto} the container trusts), logged
     * as one WARNING at build saying what that costs. Never judged from the {@code Host} header,
     * which a reverse proxy may rewrite to its upstream ({@code 127.0.0.1}). A {@code __Host-} or
     * {@code __Secure-} cookie name, or {@code SameSite=None}, refuses {@code false}.
     */
    public Builder cookieSecure(boolean always) {
      once(this.cookieSecure, "cookieSecure");
      this.cookieSecure = always;
      return this;
    }

    /**
     * How many cookies a token may be split across (1 to 16; 1 if not set). With 1, a token
     * that does not fit one 4096-byte cookie (about 3.8 KB of token, about 2.3 KB of session
     * state uncompressed) is refused. One is what fits the usual 8 KiB request header limits
     * (Tomcat, Jetty, nginx's {@code large_client_header_buffers}) with room for the other
     * headers: a browser sends every cookie in one {@code Cookie} line, so two full cookies
     * already exceed them, and a cookie the server refuses locks the user out. Raise it only with
     * the limits of every proxy and container on the way raised to match.
     */
    public Builder maxCookieChunks(int chunks) {
      once(this.maxChunks, "maxCookieChunks");
      this.maxChunks = chunks;
      return this;
    }

    /**
     * The most session state {@code setAttribute} may build up, in bytes as the token stores it
     * (each attribute's name and JSON, and its metadata): a {@code setAttribute} past it throws
     * {@link SessionTooLargeException}, naming the attribute and the budget, and leaves the
     * session unchanged. If not set: what the cookies ({@link #maxCookieChunks}) or the header
     * can carry uncompressed, about 2.3 KB for one cookie; with compression a larger state is
     * allowed when it deflates to that. The written token is checked again, exactly.
     */
    public Builder maxStateBytes(int bytes) {
      once(this.maxStateBytes, "maxStateBytes");
      this.maxStateBytes = bytes;
      return this;
    }

    /**
     * What to do when a stored attribute no longer reads back as its recorded class (the class
     * was renamed or changed between deploys, or is no longer registered); {@link
     * BadAttribute#DROP} if not set. Either way the request goes on (never a 500), a WARNING names
     * the attribute and its type (never its value), and the next token no longer carries it.
     */
    public Builder onBadAttribute(BadAttribute policy) {
      once(this.badAttribute, "onBadAttribute");
      this.badAttribute = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Carries the token in this request and response header instead of cookies (for APIs);
     * an empty response header value clears it.
     */
    public Builder header(String name) {
      once(this.header, "header");
      this.header = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Checks every session token against this source (revoked sessions, subjects logged out
     * everywhere; a revoked token starts a fresh session, its reason {@code SESSION_REVOKED} or
     * {@code SUBJECT_REVOKED}); none if not set. If it is a {@link RevocationStore}, {@code
     * invalidate()} revokes the session there, so a copy of its cookie stops working ("logout
     * that holds"), and {@link SessionlessFilter#logOutEverywhere} works.
     */
    public Builder revocation(RevocationSource source) {
      once(this.revocation, "revocation");
      this.revocation = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Told of every token the filter's codec verifies, rejects or makes, every session cookie
     * written (its size and number of chunks) and every token refused (by reason: a rejection
     * starts a fresh session, {@code INTERNAL} is a server error); {@link
     * SessionlessListener#NONE} if not set. Its exceptions are caught and logged once, never
     * reaching the request.
     */
    public Builder listener(SessionlessListener listener) {
      if (listenerSet) {
        throw new IllegalStateException("listener was already set");
      }
      this.listener = Objects.requireNonNull(listener, "listener");
      listenerSet = true;
      return this;
    }

    /**
     * Checks the configuration and builds the filter.
     *
     * @throws IllegalStateException if a required option is missing or options contradict
     * @throws IllegalArgumentException if a value is out of range
     */
    public SessionlessFilter build() {
      return new SessionlessFilter(settings());
    }

    Settings settings() {
      return FilterSettings.of(this);
    }
  }
}
