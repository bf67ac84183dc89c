package dev.sessionless.webflux.internal;

import dev.sessionless.session.internal.CookieCarrier;
import java.util.List;

/**
 * The cookie options checked as the servlet filter checks them ({@code __Host-} and {@code
 * __Secure-} names, {@code SameSite}, {@code Secure}), made into the shared engine's {@link
 * CookieCarrier}, which writes the cookies exactly as the filter does.
 */
final class CookieOptions {
  private CookieOptions() {}

  static CookieCarrier carrier(WebSettings.Options o, int chunks, System.Logger log) {
    String name = o.cookieName == null ? "SESSIONLESS" : o.cookieName;
    if (name.isEmpty() || !name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
      throw new IllegalArgumentException("cookieName must be a cookie token, got '" + name + "'");
    }
    String site = o.sameSite == null ? "Lax" : o.sameSite;
    if (!List.of("Lax", "Strict", "None").contains(site)) {
      throw new IllegalArgumentException("cookieSameSite must be Lax, Strict or None, got " + site);
    }
    if (chunks < 1 || chunks > 16) {
      throw new IllegalArgumentException("maxCookieChunks must be 1 to 16, got " + chunks);
    }
    boolean host = prefixed(name, "__Host-");
    String path = o.cookiePath;
    if (host) {
      if (o.cookieDomain != null) {
        throw new IllegalArgumentException("a __Host- cookie must not have a domain: remove cookieDomain("
            + o.cookieDomain + "), or use another cookie name");
      }
      if (path != null && !path.equals("/")) {
        throw new IllegalArgumentException("a __Host- cookie must have Path=/, got cookiePath(" + path
            + "): remove it, or use another cookie name");
      }
      path = "/";
    }
    String needsSecure = host ? "a __Host- cookie name" : prefixed(name, "__Secure-") ? "a __Secure- cookie name"
        : site.equals("None") ? "SameSite=None" : null;
    boolean always = !Boolean.FALSE.equals(o.cookieSecure);
    if (!always) {
      if (needsSecure != null) {
        throw new IllegalArgumentException(needsSecure + " needs Secure cookies (browsers drop the cookie"
            + " otherwise): remove cookieSecure(false)");
      }
      log.log(System.Logger.Level.WARNING, "cookieSecure(false): session cookies go out without Secure on"
          + " every exchange that is not https, so a browser sends the session in clear over plain http (a"
          + " stolen cookie is a stolen login); browsers accept Secure cookies on http://localhost, so"
          + " development needs no such setting. Behind a TLS-terminating proxy use a forwarded-headers"
          + " transformer, or leave cookieSecure unset");
    }
    return new CookieCarrier(name, path, o.cookieDomain, o.cookieMaxAge == null ? -1 : o.cookieMaxAge.getSeconds(),
        site, chunks, always);
  }

  private static boolean prefixed(String name, String prefix) {
    return name.regionMatches(true, 0, prefix, 0, prefix.length());
  }
}
