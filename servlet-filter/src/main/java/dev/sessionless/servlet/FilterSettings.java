package dev.sessionless.servlet;

import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.servlet.internal.AttributeCodec;
import dev.sessionless.servlet.internal.Carrier;
import dev.sessionless.servlet.internal.CookieCarrier;
import dev.sessionless.servlet.internal.FilterLog;
import dev.sessionless.servlet.internal.HeaderCarrier;
import dev.sessionless.servlet.internal.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;

/** Checks a builder's options and turns them into the filter's immutable {@link Settings}. */
final class FilterSettings {
  private static final System.Logger LOG = System.getLogger(FilterLog.LOGGER);

  private FilterSettings() {}

  private static boolean prefixed(String name, String prefix) {
    return name.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  /** The cookie path: {@code /} for a {@code __Host-} cookie, which allows nothing else. */
  private static String cookiePath(SessionlessFilter.Builder b, String name) {
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

  /** {@code true}: always Secure; {@code false}: on secure requests; {@code null}: unless loopback http. */
  private static Boolean secure(SessionlessFilter.Builder b, String name, String sameSite) {
    String needs = prefixed(name, "__Host-") ? "a __Host- cookie name"
        : prefixed(name, "__Secure-") ? "a __Secure- cookie name"
        : sameSite.equals("None") ? "SameSite=None" : null;
    if (needs != null) {
      if (Boolean.FALSE.equals(b.cookieSecure)) {
        throw new IllegalArgumentException(needs + " needs Secure cookies (browsers drop the cookie otherwise):"
            + " remove cookieSecure(false)");
      }
      return true;
    }
    if (Boolean.FALSE.equals(b.cookieSecure)) {
      LOG.log(System.Logger.Level.WARNING, "cookieSecure(false): session cookies go out without Secure on every"
          + " request the container does not see as https, on any host; behind a TLS-terminating proxy make"
          + " the container trust X-Forwarded-Proto, or leave cookieSecure unset");
    }
    return b.cookieSecure;
  }

  /**
   * The settings {@code b} describes.
   *
   * @throws IllegalStateException if a required option is missing or options contradict
   * @throws IllegalArgumentException if a value is out of range
   */
  static Settings of(SessionlessFilter.Builder b) {
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
    int chunks = b.maxChunks == null ? 4 : b.maxChunks;
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
    TokenCodec.Builder codec = TokenCodec.builder().keys(b.keys).clock(c).stateMapper(m)
        .timeToLive(inactive).maxTokenLength(carrier.maxTokenLength()).listener(b.listener);
    if (b.algorithm != null) {
      codec.algorithm(b.algorithm);
    }
    if (b.issuer != null) {
      codec.issuer(b.issuer);
    }
    if (b.audience != null) {
      codec.audience(b.audience);
    }
    if (b.revocation != null) {
      codec.revocation(b.revocation);
    }
    if (b.compress != null) {
      codec.compression(b.compress);
    }
    if (b.acceptCompressedSigned != null) {
      codec.acceptCompressedSignedTokens(b.acceptCompressedSigned); // the codec refuses a contradiction
    }
    return new Settings(codec.build(), new AttributeCodec(m, b.types), carrier, c,
        (int) inactive.getSeconds(), absolute.getSeconds(), fraction,
        b.badAttribute == SessionlessFilter.BadAttribute.NEW_SESSION,
        b.revocation instanceof RevocationStore ? (RevocationStore) b.revocation : null, b.listener);
  }
}
