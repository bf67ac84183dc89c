package dev.sessionless.session.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.StringJoiner;

/**
 * Checks an adapter's options and turns them into the immutable {@link Settings}: the defaults,
 * the ranges, the cookie rules ({@code __Host-} and {@code __Secure-} prefixes, {@code Secure},
 * {@code SameSite}, the name's characters) and the state budget that fits the carrier. One rule
 * for both adapters; the messages name the options as the builders and properties do.
 */
public final class SettingsRules {

  /**
   * Cookies a token may take unless {@code maxCookieChunks} says otherwise: one. A browser sends
   * all of a site's cookies in one {@code Cookie} line, and the usual limits are 8 KiB: Tomcat's
   * {@code maxHttpHeaderSize} and Jetty's {@code requestHeaderSize} for the whole request head
   * (request line, every header), nginx's {@code large_client_header_buffers 4 8k} for any one
   * line. One full cookie (about 3.8 KB of token) leaves about 4 KB of that for the request line,
   * the other headers (a browser's come to 0.5 to 1.5 KB) and the site's other cookies; two
   * full chunks (about 7.5 KB in the {@code Cookie} line alone) do not fit, and a cookie the
   * server refuses locks the user out (every request a 400 or 431) until they clear it. On the
   * way back a 4 KB {@code Set-Cookie} fits Tomcat's and Jetty's 8 KiB response head, but not
   * nginx's {@code proxy_buffer_size} default of one 4 KiB page: raise that to 8k behind nginx.
   */
  static final int DEFAULT_COOKIE_CHUNKS = 1;

  /**
   * Token characters besides the state's own: the JOSE header and the signature or IV and tag
   * (at most about 190), plus the claims other than the state (about 200 bytes and the issuer,
   * audience and a subject of up to 64), which base64url makes 4/3 longer.
   */
  private static long tokenOverhead(String issuer, String audience) {
    return 190 + (264L + (issuer == null ? 0 : issuer.length()) + (audience == null ? 0 : audience.length())) * 4 / 3;
  }

  /**
   * The token algorithm unless the application sets one: {@code dir} with A256GCM, so a copied
   * cookie shows nothing of the session (its cart, CSRF token, login name), as Rails and ASP.NET
   * Core do by default. A standard JWE that jose4j and Nimbus read. For the benchmark cart (256
   * bytes of state JSON) with {@code zip: DEF}: a 374-byte token against HS256's 581.
   */
  public static final Algorithm DEFAULT_ALGORITHM = Algorithm.DIR_A256GCM;

  /**
   * The compression with the default algorithm: {@code zip: DEF}, the standard kind, which takes
   * the benchmark cart's token from 596 bytes (uncompressed {@code dir}) to 374.
   */
  static final Compression DEFAULT_COMPRESSION = Compression.DEFLATE;

  /**
   * The algorithm tokens are made with: the one set, else {@link #DEFAULT_ALGORITHM}, refused at
   * build when the keys can sign only with others (the fix is one setting, named in the message).
   * A signing algorithm chosen explicitly is said once, at INFO: its tokens are readable.
   */
  private static Algorithm algorithm(SessionOptions b) {
    if (b.algorithm != null) {
      if (!b.algorithm.isEncrypting()) {
        b.log().log(System.Logger.Level.INFO, "algorithm " + b.algorithm.joseName() + ": session tokens are signed,"
            + " not encrypted, so anyone holding a copy of a session cookie can read what the session holds"
            + " (base64url is no protection); leave the algorithm unset for dir (A256GCM encryption), the default");
      }
      return b.algorithm;
    }
    KeySet now;
    try {
      now = b.keys.current();
    } catch (RuntimeException e) {
      return DEFAULT_ALGORITHM; // a source not ready yet: the first request tells
    }
    Instant at = Instant.now(b.clock == null ? Clock.systemUTC() : b.clock);
    if (now.signingKey(DEFAULT_ALGORITHM, at).isPresent()) {
      return DEFAULT_ALGORITHM;
    }
    StringJoiner others = new StringJoiner(", ");
    Algorithm first = null;
    for (Algorithm a : Algorithm.values()) {
      if (now.signingKey(a, at).isPresent()) {
        others.add(a.joseName());
        first = first == null ? a : first;
      }
    }
    if (first != null) {
      throw new IllegalStateException("no algorithm is set, so tokens are dir (A256GCM encryption, the default),"
          + " but the keys hold no A256GCM key that can encrypt now, only keys for " + others + ": add an"
          + " A256GCM key (keyring init makes one by default), or set algorithm(Algorithm." + first.name()
          + ")" + (b.initParameters ? " (init parameter algorithm=" + first.joseName() + ")" : "")
          + " to keep tokens that are signed but readable");
    }
    return DEFAULT_ALGORITHM;
  }

  private SettingsRules() {}

  private static boolean prefixed(String name, String prefix) {
    return name.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  /** The cookie path: {@code /} for a {@code __Host-} cookie, which allows nothing else. */
  private static String cookiePath(SessionOptions b, String name) {
    if (!prefixed(name, "__Host-")) {
      return b.cookiePath;
    }
    if (b.cookieDomain != null) {
      throw new IllegalArgumentException("a __Host- cookie must not have a domain: remove cookieDomain("
          + b.cookieDomain + "), or use another cookie name");
    }
    if (b.cookiePath != null && !b.cookiePath.equals("/")) {
      throw new IllegalArgumentException("a __Host- cookie must have Path=/, got cookiePath(" + b.cookiePath
          + "): remove it, or use another cookie name");
    }
    return "/";
  }

  /**
   * {@code true}: always Secure (the default); {@code false}, only when the application said so:
   * Secure on the requests the container sees as secure, with one WARNING at build saying what
   * that costs.
   */
  private static boolean secure(SessionOptions b, String name, String sameSite) {
    String needs = prefixed(name, "__Host-") ? "a __Host- cookie name"
        : prefixed(name, "__Secure-") ? "a __Secure- cookie name"
        : sameSite.equals("None") ? "SameSite=None" : null;
    if (!Boolean.FALSE.equals(b.cookieSecure)) {
      return true;
    }
    if (needs != null) {
      throw new IllegalArgumentException(needs + " needs Secure cookies (browsers drop the cookie otherwise):"
          + " remove cookieSecure(false)");
    }
    b.log().log(System.Logger.Level.WARNING, "cookieSecure(false): session cookies go out without Secure on every"
        + " request the container does not see as https, so a browser sends the session in clear over any"
        + " plain-http link (a stolen cookie is a stolen login); browsers accept Secure cookies on"
        + " http://localhost, so development needs no such setting. Behind a TLS-terminating proxy "
        + b.behindProxy + ", or leave cookieSecure unset");
    return false;
  }

  /**
   * The settings {@code b} describes.
   *
   * @throws IllegalStateException if a required option is missing or options contradict
   * @throws IllegalArgumentException if a value is out of range
   */
  public static Settings of(SessionOptions b) {
    if (b.keys == null) {
      throw new IllegalStateException("keys are required");
    }
    Clock c = b.clock == null ? Clock.systemUTC() : b.clock;
    // The default mapper's factory recycles buffers through a shared pool, not per thread: each
    // worker thread would otherwise keep a webapp-loaded BufferRecycler after undeploy (RedeployLeakTest).
    StateMapper m = b.mapper == null ? StateMapper.defaults() : b.mapper;
    Duration inactive = b.maxInactive == null ? Duration.ofMinutes(30) : b.maxInactive;
    // Every token the filter writes lives at most the absolute lifetime, so bounding that by the
    // codec's own limit means no write can ask for a lifetime the codec refuses (a 500 mid-request).
    if (inactive.getSeconds() < 1 || inactive.compareTo(TokenCodec.MAX_TIME_TO_LIVE) > 0) {
      throw new IllegalArgumentException("maxInactiveInterval must be from one second to "
          + TokenCodec.MAX_TIME_TO_LIVE.toDays() + " days, got " + inactive);
    }
    Duration absolute = b.absoluteLifetime == null ? Duration.ofHours(12) : b.absoluteLifetime;
    if (absolute.getSeconds() < 1 || absolute.compareTo(TokenCodec.MAX_TIME_TO_LIVE) > 0) {
      throw new IllegalArgumentException("absoluteLifetime must be from one second to "
          + TokenCodec.MAX_TIME_TO_LIVE.toDays() + " days, got " + absolute);
    }
    double fraction = b.renewalFraction == null ? 0.5 : b.renewalFraction;
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("renewalFraction must be in (0, 1], got " + fraction);
    }
    int chunks = b.maxChunks == null ? DEFAULT_COOKIE_CHUNKS : b.maxChunks;
    if (chunks < 1 || chunks > 16) {
      throw new IllegalArgumentException("maxCookieChunks must be 1 to 16, got " + chunks);
    }
    Carrier carrier;
    if (b.header != null) {
      if (b.cookieName != null || b.cookiePath != null || b.cookieDomain != null || b.cookieMaxAge != null
          || b.sameSite != null || b.maxChunks != null || b.cookieSecure != null) {
        throw new IllegalStateException("header(...) carries the token in a header: cookie options do not apply");
      }
      if (b.header.isEmpty()) {
        throw new IllegalArgumentException("header name must not be empty");
      }
      carrier = new HeaderCarrier(b.header);
    } else {
      String name = b.cookieName == null ? "SESSIONLESS" : b.cookieName;
      if (name.isEmpty() || !name.chars().allMatch(ch -> ch > 32 && ch < 127 && "()<>@,;:\\\"/[]?={}".indexOf(ch) < 0)) {
        throw new IllegalArgumentException("cookieName must be a cookie token, got '" + name + "'");
      }
      String site = b.sameSite == null ? "Lax" : b.sameSite;
      if (!Arrays.asList("Lax", "Strict", "None").contains(site)) {
        throw new IllegalArgumentException("cookieSameSite must be Lax, Strict or None, got " + site);
      }
      carrier = new CookieCarrier(name, cookiePath(b, name), b.cookieDomain,
          b.cookieMaxAge == null ? -1 : b.cookieMaxAge.getSeconds(), site, chunks, secure(b, name, site));
    }
    Algorithm algorithm = algorithm(b);
    TokenCodec.Builder codec = TokenCodec.builder().keys(b.keys).clock(c).stateMapper(m)
        .timeToLive(inactive).maxTokenLength(carrier.maxTokenLength()).listener(b.listener)
        .algorithm(algorithm);
    if (b.issuer != null) {
      codec.issuer(b.issuer);
    }
    if (b.audience != null) {
      codec.audience(b.audience);
    }
    if (b.revocation != null) {
      codec.revocation(b.revocation);
    }
    Compression compression = b.compress != null ? b.compress
        : b.algorithm == null && algorithm == DEFAULT_ALGORITHM ? DEFAULT_COMPRESSION : null;
    if (compression != null) {
      codec.compression(compression);
    }
    if (b.acceptCompressedSigned != null) {
      codec.acceptCompressedSignedTokens(b.acceptCompressedSigned); // the codec refuses a contradiction
    }
    TokenCodec built = codec.build();
    boolean compressed = compression != null && compression != Compression.NONE;
    long fits = Math.max(256, (carrier.maxTokenLength() - tokenOverhead(b.issuer, b.audience)) * 3 / 4);
    String advice;
    long budget;
    if (b.maxStateBytes != null) {
      if (b.maxStateBytes < 1) {
        throw new IllegalArgumentException("maxStateBytes must be positive, got " + b.maxStateBytes);
      }
      budget = b.maxStateBytes;
      advice = "maxStateBytes";
    } else {
      budget = fits;
      advice = "what " + (b.header != null ? "the " + b.header + " header"
          : chunks == 1 ? "one cookie" : chunks + " cookies (maxCookieChunks)") + " can carry"
          + (compressed ? ", after compression" : "");
    }
    return new Settings(built, new AttributeCodec(m, b.types), carrier, c,
        (int) inactive.getSeconds(), absolute.getSeconds(), fraction,
        b.newSessionOnBadAttribute,
        b.revocation instanceof RevocationStore ? (RevocationStore) b.revocation : null, b.listener,
        new StateBudget(budget, compressed, advice + (b.initParameters ? "; maxStateBytes is the init parameter"
            + " max-state-bytes" : "")), b.log());
  }
}
