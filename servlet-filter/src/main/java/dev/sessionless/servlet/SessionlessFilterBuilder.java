package dev.sessionless.servlet;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionTooLargeException;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.session.internal.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Configures a {@link SessionlessFilter}; made by {@link SessionlessFilter#builder()}. {@link
 * #keys}, {@link #issuer} and {@link #audience} are required; every option may be set once. Not
 * thread-safe.
 *
 * <p>The options it shares with {@code TokenCodec.Builder} are kept here, not handed on as they
 * come: the filter's defaults (the algorithm, the compression, the token length) are decided at
 * {@link #build()} from what was set, which a codec builder cannot be asked.
 */
public final class SessionlessFilterBuilder {
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
  SessionlessFilter.BadAttribute badAttribute;
  Boolean cookieSecure;
  Compression compress;
  Boolean acceptCompressedSigned;
  RevocationSource revocation;
  SessionlessListener listener = SessionlessListener.NONE;
  private boolean listenerSet;

  SessionlessFilterBuilder() {}

  private static void once(Object current, String option) {
    BuilderChecks.once(current, option);
  }

  /** Where the keys come from: a fixed {@code KeySet} or a live source. Required. */
  public SessionlessFilterBuilder keys(KeySource keys) {
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
  public SessionlessFilterBuilder algorithm(Algorithm algorithm) {
    once(this.algorithm, "algorithm");
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    return this;
  }

  /**
   * Whether to DEFLATE the token's payload ({@code "zip":"DEF"}): shorter cookies for larger
   * sessions, at the cost of compressing on every write and inflating on every
   * verification-cache miss. If not set: {@code DEF} with the default algorithm, off with
   * one set. {@code compress(true)} is {@code compression(DEFLATE)}: see {@link
   * #compression(Compression)}.
   */
  public SessionlessFilterBuilder compress(boolean compress) {
    return compression(compress ? Compression.DEFLATE : Compression.NONE);
  }

  /**
   * How to compress the token's payload: {@code compression(DEFLATE)} is {@code
   * compress(true)}; {@link Compression#DEFLATE_WITH_DICTIONARY} ({@code
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
  public SessionlessFilterBuilder compression(Compression compression) {
    Objects.requireNonNull(compression, "compression");
    once(this.compress, "compress/compression");
    this.compress = compression;
    return this;
  }

  /**
   * Whether to read signed tokens compressed by {@link #compression(Compression)}
   * ({@code zip} on a JWS). Off if not set: such a token is then refused as {@code
   * UNSUPPORTED_HEADER} and the request goes on with a new session. On, and not to be turned
   * off, when this filter writes them.
   */
  public SessionlessFilterBuilder acceptCompressedSignedTokens(boolean accept) {
    once(this.acceptCompressedSigned, "acceptCompressedSignedTokens");
    this.acceptCompressedSigned = accept;
    return this;
  }

  /** The issuer ({@code iss}) written and required. Required. */
  public SessionlessFilterBuilder issuer(String issuer) {
    once(this.issuer, "issuer");
    this.issuer = Objects.requireNonNull(issuer, "issuer");
    return this;
  }

  /** The audience ({@code aud}) written and required. Required. */
  public SessionlessFilterBuilder audience(String audience) {
    once(this.audience, "audience");
    this.audience = Objects.requireNonNull(audience, "audience");
    return this;
  }

  /** The clock; the system UTC clock if not set. */
  public SessionlessFilterBuilder clock(Clock clock) {
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
  public SessionlessFilterBuilder stateMapper(StateMapper mapper) {
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
  public SessionlessFilterBuilder attributeTypes(Class<?>... types) {
    for (Class<?> t : types) {
      this.types.add(Objects.requireNonNull(t, "type"));
    }
    return this;
  }

  /** The default {@code maxInactiveInterval}, how far each write moves expiry; 30 minutes if not set. */
  public SessionlessFilterBuilder maxInactiveInterval(Duration interval) {
    once(this.maxInactive, "maxInactiveInterval");
    this.maxInactive = Objects.requireNonNull(interval, "interval");
    return this;
  }

  /** The longest a session may live from its creation, however active; 12 hours if not set. */
  public SessionlessFilterBuilder absoluteLifetime(Duration lifetime) {
    once(this.absoluteLifetime, "absoluteLifetime");
    this.absoluteLifetime = Objects.requireNonNull(lifetime, "lifetime");
    return this;
  }

  /**
   * The fraction of a token's lifetime that must pass before a read-only request renews it;
   * 0.5 if not set; greater than 0, at most 1.
   */
  public SessionlessFilterBuilder renewalFraction(double fraction) {
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
  public SessionlessFilterBuilder cookieName(String name) {
    once(this.cookieName, "cookieName");
    this.cookieName = Objects.requireNonNull(name, "name");
    return this;
  }

  /** The cookie path; the context path if not set. */
  public SessionlessFilterBuilder cookiePath(String path) {
    once(this.cookiePath, "cookiePath");
    this.cookiePath = Objects.requireNonNull(path, "path");
    return this;
  }

  /** The cookie domain; none (host-only) if not set. */
  public SessionlessFilterBuilder cookieDomain(String domain) {
    once(this.cookieDomain, "cookieDomain");
    this.cookieDomain = Objects.requireNonNull(domain, "domain");
    return this;
  }

  /** The cookie max-age; a browser-session cookie if not set. */
  public SessionlessFilterBuilder cookieMaxAge(Duration maxAge) {
    once(this.cookieMaxAge, "cookieMaxAge");
    this.cookieMaxAge = Objects.requireNonNull(maxAge, "maxAge");
    return this;
  }

  /** The cookie's SameSite attribute: {@code Lax} (default), {@code Strict} or {@code None}. */
  public SessionlessFilterBuilder cookieSameSite(String sameSite) {
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
  public SessionlessFilterBuilder cookieSecure(boolean always) {
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
  public SessionlessFilterBuilder maxCookieChunks(int chunks) {
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
  public SessionlessFilterBuilder maxStateBytes(int bytes) {
    once(this.maxStateBytes, "maxStateBytes");
    this.maxStateBytes = bytes;
    return this;
  }

  /**
   * What to do when a stored attribute no longer reads back as its recorded class (the class
   * was renamed or changed between deploys, or is no longer registered); {@link
   * SessionlessFilter.BadAttribute#DROP} if not set. Either way the request goes on (never a
   * 500), a WARNING names the attribute and its type (never its value), and the next token no
   * longer carries it.
   */
  public SessionlessFilterBuilder onBadAttribute(SessionlessFilter.BadAttribute policy) {
    once(this.badAttribute, "onBadAttribute");
    this.badAttribute = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * Carries the token in this request and response header instead of cookies (for APIs);
   * an empty response header value clears it.
   */
  public SessionlessFilterBuilder header(String name) {
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
  public SessionlessFilterBuilder revocation(RevocationSource source) {
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
  public SessionlessFilterBuilder listener(SessionlessListener listener) {
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
