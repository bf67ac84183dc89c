package dev.sessionless.webflux.internal;

import dev.sessionless.core.TokenException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The session cookie's rules, as the servlet filter's cookie carrier has them: the token in
 * {@code name}, split over {@code name.1} ... when it is longer than one 4096-byte cookie holds
 * (up to {@code maxChunks}), {@code HttpOnly}, {@code SameSite}, {@code Secure} unless turned off,
 * and every stale chunk of ours cleared. Immutable.
 */
final class CookieRules {
  /** The most bytes one Set-Cookie (name, value and attributes) may take. */
  static final int COOKIE_LIMIT = 4096;
  /** A request carrying more cookies of ours than this is no browser's: refused, not read. */
  static final int MAX_OURS = 180;

  /** What a request carried: the token (joined chunks), the names of our cookies, or a refusal. */
  record Incoming(String token, List<String> names, TokenException.Reason problem) {
    static final Incoming NONE = new Incoming(null, List.of(), null);

    boolean present() {
      return token != null || problem != null || !names.isEmpty();
    }
  }

  private final String name;
  private final String path;
  private final String domain;
  private final Duration maxAge;
  private final String sameSite;
  private final int maxChunks;
  private final boolean alwaysSecure;
  private final int capacity;

  private CookieRules(String name, String path, String domain, Duration maxAge, String sameSite, int maxChunks,
      boolean alwaysSecure) {
    this.name = name;
    this.path = path;
    this.domain = domain;
    this.maxAge = maxAge;
    this.sameSite = sameSite;
    this.maxChunks = maxChunks;
    this.alwaysSecure = alwaysSecure;
    // The worst attributes this cookie can get: a long path when none is set, Max-Age and Expires.
    String worstPath = path != null ? path : "/".repeat(256);
    int attributes = cookie(name, "", worstPath, true, Duration.ofDays(40_000)).toString().length();
    this.capacity = COOKIE_LIMIT - attributes - 16;
  }

  static CookieRules of(WebSettings.Options o, System.Logger log) {
    String name = o.cookieName == null ? "SESSIONLESS" : o.cookieName;
    if (name.isEmpty() || !name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
      throw new IllegalArgumentException("cookieName must be a cookie token, got '" + name + "'");
    }
    String site = o.sameSite == null ? "Lax" : o.sameSite;
    if (!List.of("Lax", "Strict", "None").contains(site)) {
      throw new IllegalArgumentException("cookieSameSite must be Lax, Strict or None, got " + site);
    }
    int chunks = o.maxChunks == null ? 1 : o.maxChunks;
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
    return new CookieRules(name, path, o.cookieDomain, o.cookieMaxAge, site, chunks, always);
  }

  private static boolean prefixed(String name, String prefix) {
    return name.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  int maxChunks() {
    return maxChunks;
  }

  /** The longest token the cookies can carry. */
  int maxTokenLength() {
    return Math.max(256, capacity * maxChunks);
  }

  private String chunkName(int i) {
    return i == 0 ? name : name + "." + i;
  }

  /** The chunk number of a cookie of ours ({@code name} is 0, {@code name.N} is N), or -1. */
  private int chunkOf(String cookie) {
    if (cookie.equals(name)) {
      return 0;
    }
    int base = name.length();
    int n = cookie.length();
    if (n < base + 2 || n > base + 4 || !cookie.startsWith(name) || cookie.charAt(base) != '.'
        || cookie.charAt(base + 1) == '0') {
      return -1;
    }
    int v = 0;
    for (int i = base + 1; i < n; i++) {
      char c = cookie.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** Reads the token the request's cookies carry; the first cookie of a name counts. */
  Incoming read(ServerHttpRequest request) {
    Map<Integer, String> parts = new TreeMap<>();
    List<String> names = new ArrayList<>(1);
    for (Map.Entry<String, List<HttpCookie>> e : request.getCookies().entrySet()) {
      int chunk = chunkOf(e.getKey());
      if (chunk < 0 || e.getValue().isEmpty()) {
        continue;
      }
      if (names.size() >= MAX_OURS) {
        return new Incoming(null, names, TokenException.Reason.TOO_LARGE);
      }
      names.add(e.getKey());
      parts.put(chunk, e.getValue().get(0).getValue());
    }
    if (names.isEmpty()) {
      return Incoming.NONE;
    }
    StringBuilder token = new StringBuilder();
    int count = 0;
    while (parts.containsKey(count) && count <= 16) {
      token.append(parts.get(count));
      count++;
    }
    if (count == 0) {
      return new Incoming(null, names, TokenException.Reason.MALFORMED);
    }
    if (count > maxChunks || token.length() > maxTokenLength()) {
      return new Incoming(null, names, TokenException.Reason.TOO_LARGE);
    }
    return new Incoming(token.toString(), names, null);
  }

  /**
   * The cookies to set for {@code token} (or to clear ours when {@code null}), clearing every
   * cookie of ours the request carried that is not written again.
   *
   * @throws IllegalStateException if the token needs more cookies than {@code maxChunks}: a
   *     failure on this side (the state budget let through a state that does not fit)
   */
  List<ResponseCookie> write(ServerHttpRequest request, String token, Incoming incoming) {
    boolean secure = alwaysSecure || request.getSslInfo() != null;
    String p = path != null ? path : contextPath(request);
    List<ResponseCookie> out = new ArrayList<>(2);
    int written = 0;
    if (token != null) {
      int n = (token.length() + capacity - 1) / capacity;
      if (n > maxChunks) {
        throw new IllegalStateException("the session token is " + token.length() + " characters, more than "
            + maxChunks + " cookie(s) of " + capacity + " can carry" + (maxChunks == 1
                ? " (splitting is off: maxCookieChunks is 1)" : "")
            + ": store less in the session, or raise maxCookieChunks (at most 16)");
      }
      for (int i = 0; i < n; i++) {
        out.add(cookie(chunkName(i), token.substring(i * capacity, Math.min(token.length(), (i + 1) * capacity)),
            p, secure, maxAge));
      }
      written = n;
    }
    for (String old : incoming.names()) {
      if (chunkOf(old) >= written) {
        out.add(cookie(old, "", p, secure, Duration.ZERO));
      }
    }
    return out;
  }

  private static String contextPath(ServerHttpRequest request) {
    String cp = request.getPath().contextPath().value();
    return cp.isEmpty() ? "/" : cp;
  }

  private ResponseCookie cookie(String cookieName, String value, String cookiePath, boolean secure, Duration age) {
    ResponseCookie.ResponseCookieBuilder b = ResponseCookie.from(cookieName, value).path(cookiePath)
        .httpOnly(true).secure(secure).sameSite(sameSite);
    if (domain != null) {
      b.domain(domain);
    }
    if (age != null) {
      b.maxAge(age);
    }
    return b.build();
  }
}
