package dev.sessionless.webflux;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionTooLargeException;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.session.internal.SessionOptions;
import dev.sessionless.session.internal.SettingsRules;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Configures a {@link SessionlessWebSessionManager}; made by {@link
 * SessionlessWebSessionManager#builder()}. The options and their defaults are the servlet
 * filter's ({@code SessionlessFilterBuilder}), so one {@code sessionless.*} configuration means
 * the same on both stacks and a token written by one is read by the other. {@link #keys}, {@link
 * #issuer} and {@link #audience} are required; every option may be set once (a second call
 * throws {@link IllegalStateException}). Everything is checked at {@link #build()}. Not
 * thread-safe.
 */
public final class SessionlessWebSessionManagerBuilder {
  /** The manager's logger: where build warnings and, at run time, rejections and failures go. */
  static final String LOGGER = "dev.sessionless.webflux.SessionlessWebSessionManager";

  /**
   * The options as set, checked at {@link #build()} by the session engine's rules, the servlet
   * filter's too ({@link SettingsRules}), speaking with this adapter's names.
   */
  private final SessionOptions o = new SessionOptions();
  /** Kept apart from {@link #o}, where they are never null: set-once needs to see "unset". */
  private SessionlessWebSessionManager.BadAttribute badAttribute;
  private SessionlessListener listener;

  SessionlessWebSessionManagerBuilder() {
    o.log = System.getLogger(LOGGER);
    o.initParameters = false; // WebFlux has no web.xml
    o.behindProxy = "use a forwarded-headers transformer";
  }

  private static <T> T once(Object current, String option, T value) {
    BuilderChecks.once(current, option);
    return Objects.requireNonNull(value, option);
  }

  /** Where the keys come from: a fixed {@code KeySet} or a live source (a keyring). Required. */
  public SessionlessWebSessionManagerBuilder keys(KeySource keys) {
    o.keys = once(o.keys, "keys", keys);
    return this;
  }

  /**
   * The token algorithm. If not set: {@link Algorithm#DIR_A256GCM} (AES-256-GCM encryption,
   * compressed with {@code zip: DEF}), so a copied cookie shows nothing of the session; the keys
   * must then hold an A256GCM key, and build refuses keys that can only sign, naming this
   * setting. A signing algorithm ({@code HS256} and the others) keeps tokens signed but readable.
   */
  public SessionlessWebSessionManagerBuilder algorithm(Algorithm algorithm) {
    o.algorithm = once(o.algorithm, "algorithm", algorithm);
    return this;
  }

  /** {@code compress(true)} is {@code compression(DEFLATE)}, {@code false} is {@code NONE}. */
  public SessionlessWebSessionManagerBuilder compress(boolean compress) {
    return compression(compress ? Compression.DEFLATE : Compression.NONE);
  }

  /**
   * How to compress the token's payload; {@code DEFLATE} with the default algorithm, none with
   * an algorithm set, if not set. See {@code SessionlessFilterBuilder.compression} for the
   * rules of a fleet that switches.
   */
  public SessionlessWebSessionManagerBuilder compression(Compression compression) {
    o.compress = once(o.compress, "compress/compression", compression);
    return this;
  }

  /** Whether to read signed tokens whose payload is compressed; off if not set. */
  public SessionlessWebSessionManagerBuilder acceptCompressedSignedTokens(boolean accept) {
    o.acceptCompressedSigned = once(o.acceptCompressedSigned, "acceptCompressedSignedTokens", accept);
    return this;
  }

  /** The issuer ({@code iss}) written and required. Required. */
  public SessionlessWebSessionManagerBuilder issuer(String issuer) {
    o.issuer = once(o.issuer, "issuer", issuer);
    return this;
  }

  /** The audience ({@code aud}) written and required. Required. */
  public SessionlessWebSessionManagerBuilder audience(String audience) {
    o.audience = once(o.audience, "audience", audience);
    return this;
  }

  /** The clock for expiry and renewal; the system UTC clock if not set. */
  public SessionlessWebSessionManagerBuilder clock(Clock clock) {
    o.clock = once(o.clock, "clock", clock);
    return this;
  }

  /**
   * How attribute values become JSON and back; {@link StateMapper#defaults()} (Jackson 3) if not
   * set. A mapper with default typing is refused, and so is a registered type it could read
   * polymorphically.
   */
  public SessionlessWebSessionManagerBuilder stateMapper(StateMapper mapper) {
    o.mapper = once(o.mapper, "stateMapper", mapper);
    return this;
  }

  /**
   * Application classes allowed as attribute values (exactly these classes), besides JDK value
   * types ({@code String}, boxed numbers, {@code Boolean}, {@code Character}, {@code
   * BigInteger}, {@code BigDecimal}, and lists and string-keyed maps of those). May be called
   * more than once.
   */
  public SessionlessWebSessionManagerBuilder attributeTypes(Class<?>... types) {
    Set<Class<?>> add = new LinkedHashSet<>();
    for (Class<?> t : types) {
      add.add(Objects.requireNonNull(t, "type"));
    }
    o.types.addAll(add);
    return this;
  }

  /**
   * The default idle time ({@code WebSession.getMaxIdleTime()}): how far each write moves expiry
   * (sliding expiry); 30 minutes if not set, one second to 400 days.
   */
  public SessionlessWebSessionManagerBuilder maxInactiveInterval(Duration interval) {
    o.maxInactive = once(o.maxInactive, "maxInactiveInterval", interval);
    return this;
  }

  /** The longest a session may live from its creation, however active; 12 hours if not set. */
  public SessionlessWebSessionManagerBuilder absoluteLifetime(Duration lifetime) {
    o.absoluteLifetime = once(o.absoluteLifetime, "absoluteLifetime", lifetime);
    return this;
  }

  /**
   * The fraction of a token's lifetime that must pass before an exchange that changed nothing
   * renews it; 0.5 if not set; greater than 0, at most 1.
   */
  public SessionlessWebSessionManagerBuilder renewalFraction(double fraction) {
    o.renewalFraction = once(o.renewalFraction, "renewalFraction", fraction);
    return this;
  }

  /**
   * The cookie name; {@code SESSIONLESS} if not set. Chunks are {@code name.1}, {@code name.2},
   * .... A {@code __Host-} name (recommended for a site on one host) is written {@code Secure},
   * {@code Path=/} and without {@code Domain}; build refuses settings that contradict it.
   */
  public SessionlessWebSessionManagerBuilder cookieName(String name) {
    o.cookieName = once(o.cookieName, "cookieName", name);
    return this;
  }

  /** The cookie path; the exchange's context path ({@code /} when none) if not set. */
  public SessionlessWebSessionManagerBuilder cookiePath(String path) {
    o.cookiePath = once(o.cookiePath, "cookiePath", path);
    return this;
  }

  /** The cookie domain; none (host-only) if not set. */
  public SessionlessWebSessionManagerBuilder cookieDomain(String domain) {
    o.cookieDomain = once(o.cookieDomain, "cookieDomain", domain);
    return this;
  }

  /** The cookie max-age; a browser-session cookie if not set. */
  public SessionlessWebSessionManagerBuilder cookieMaxAge(Duration maxAge) {
    o.cookieMaxAge = once(o.cookieMaxAge, "cookieMaxAge", maxAge);
    return this;
  }

  /** The cookie's SameSite attribute: {@code Lax} (default), {@code Strict} or {@code None}. */
  public SessionlessWebSessionManagerBuilder cookieSameSite(String sameSite) {
    o.sameSite = once(o.sameSite, "cookieSameSite", sameSite);
    return this;
  }

  /**
   * Whether cookies carry {@code Secure}. {@code true}, the default: always, plain http included
   * (browsers accept {@code Secure} cookies from {@code http://localhost}). {@code false}: only
   * on exchanges whose request is https ({@code ServerHttpRequest.getSslInfo()}, which a
   * forwarded-headers transformer sets behind a proxy), logged once as a WARNING at build. A
   * {@code __Host-} or {@code __Secure-} name, or {@code SameSite=None}, refuses {@code false}.
   */
  public SessionlessWebSessionManagerBuilder cookieSecure(boolean always) {
    o.cookieSecure = once(o.cookieSecure, "cookieSecure", always);
    return this;
  }

  /**
   * How many cookies a token may be split across (1 to 16; 1 if not set). One 4096-byte cookie
   * is what fits the usual 8 KiB request header limits; raise it only with every proxy's and
   * server's limits raised to match (Reactor Netty's {@code maxHeaderSize} is 8 KiB by default).
   */
  public SessionlessWebSessionManagerBuilder maxCookieChunks(int chunks) {
    o.maxChunks = once(o.maxChunks, "maxCookieChunks", chunks);
    return this;
  }

  /**
   * Carries the token in this request and response header instead of cookies (for APIs, as the
   * servlet filter's {@code header(...)}); an empty response header value clears it. Cookie
   * options then do not apply (build refuses them).
   */
  public SessionlessWebSessionManagerBuilder header(String name) {
    o.header = once(o.header, "header", name);
    return this;
  }

  /**
   * The most session state the attributes may build up, in bytes as the token stores it: a
   * {@code getAttributes().put(...)} past it throws {@link SessionTooLargeException} and leaves
   * the session unchanged. If not set: what the cookies can carry.
   */
  public SessionlessWebSessionManagerBuilder maxStateBytes(int bytes) {
    o.maxStateBytes = once(o.maxStateBytes, "maxStateBytes", bytes);
    return this;
  }

  /**
   * What to do when a stored attribute no longer reads back as its recorded class; {@link
   * SessionlessWebSessionManager.BadAttribute#DROP} if not set. Either way the exchange goes on
   * (never a 500), and a WARNING names the attribute and its type, never its value.
   */
  public SessionlessWebSessionManagerBuilder onBadAttribute(SessionlessWebSessionManager.BadAttribute policy) {
    badAttribute = once(badAttribute, "onBadAttribute", policy);
    return this;
  }

  /**
   * Checks every session token against this source; a revoked token starts a fresh session. If
   * it is a {@link RevocationStore}, {@code WebSession.invalidate()} revokes the session there
   * ("logout that holds"), on {@code Schedulers.boundedElastic()}, never on the event loop, and
   * {@link SessionlessWebSessionManager#logOutEverywhere} works. The check itself reads memory
   * (the {@link RevocationSource} contract). None if not set.
   */
  public SessionlessWebSessionManagerBuilder revocation(RevocationSource source) {
    o.revocation = once(o.revocation, "revocation", source);
    return this;
  }

  /**
   * Told of every token verified, rejected or made, every session cookie written and every token
   * refused; {@link SessionlessListener#NONE} if not set. Its exceptions are caught and logged.
   */
  public SessionlessWebSessionManagerBuilder listener(SessionlessListener listener) {
    this.listener = once(this.listener, "listener", listener);
    return this;
  }

  /**
   * Checks the configuration and builds the manager.
   *
   * @throws IllegalStateException if a required option is missing or options contradict
   * @throws IllegalArgumentException if a value is out of range
   */
  public SessionlessWebSessionManager build() {
    o.newSessionOnBadAttribute = badAttribute == SessionlessWebSessionManager.BadAttribute.NEW_SESSION;
    o.listener = listener == null ? SessionlessListener.NONE : listener;
    return new SessionlessWebSessionManager(SettingsRules.of(o));
  }
}
