package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Carries the token in cookies {@code name}, {@code name.1}, ... {@code name.(n-1)}: a token
 * longer than one cookie may hold ({@value #COOKIE_LIMIT} bytes with name and attributes) is split,
 * up to {@code maxChunks} cookies, and reassembled on the way in. Set-Cookie headers are
 * formatted here so every container writes the same attributes.
 */
public final class CookieCarrier implements Carrier {
  /** The most bytes one Set-Cookie (name, value and attributes) may take. */
  public static final int COOKIE_LIMIT = 4096;
  private static final String EXPIRED = "; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT";

  private final String name;
  /** {@code name=}: what a whole-token cookie's value starts with. */
  private final String namePrefix;
  private final String path;
  private final String domain;
  private final long maxAgeSeconds;
  private final String sameSite;
  private final int maxChunks;
  /** {@code Secure} on every cookie; else only on requests the container sees as secure. */
  private final boolean alwaysSecure;
  /** {@link #chunkCapacity()}, computed once: every request asks for it. */
  private final int capacity;
  /** {@code "; Max-Age=N"}, or empty for a browser-session cookie: computed once. */
  private final String age;
  /** The names of what a request carrying one whole cookie carried: the same for every such request. */
  private final List<String> onlyName;
  /** {@link #isOurs}, made once: every request looks for our cookies. */
  private final CookieHeaders.NameTest ourName = this::isOurs;
  /** The attribute strings last formatted, by cookie path: the same for nearly every request. */
  private volatile Attributes lastAttributes;

  /** A path's cookie attributes, without and with {@code Secure}; "live" adds the Max-Age, if any. */
  private record Attributes(String path, String plain, String secure, String plainLive, String secureLive) {}

  /**
   * A cookie carrier.
   *
   * @param path the cookie path, or {@code null} for the context path
   * @param domain the cookie domain, or {@code null} for none
   * @param maxAgeSeconds the cookie max-age, or negative for a browser-session cookie
   * @param sameSite the SameSite value, or {@code null} to leave it out
   * @param maxChunks 1 to 16; 1 refuses tokens that do not fit one cookie
   * @param alwaysSecure {@code true}: always {@code Secure} (the default); {@code false}: only on
   *     requests the container sees as secure
   */
  public CookieCarrier(String name, String path, String domain, long maxAgeSeconds, String sameSite,
      int maxChunks, boolean alwaysSecure) {
    this.name = name;
    this.namePrefix = name + "=";
    this.path = path;
    this.domain = domain;
    this.maxAgeSeconds = maxAgeSeconds;
    this.sameSite = sameSite;
    this.maxChunks = maxChunks;
    this.alwaysSecure = alwaysSecure;
    // Worst case attributes: long path and domain, Max-Age, Secure, HttpOnly, SameSite.
    int attrs = attributes("/", true).length() + 16 + (path == null ? 256 : path.length())
        + (domain == null ? 0 : domain.length());
    this.capacity = COOKIE_LIMIT - (name.length() + 4) - attrs;
    this.age = maxAgeSeconds < 0 ? "" : "; Max-Age=" + maxAgeSeconds;
    this.onlyName = List.of(name);
  }

  /**
   * Whether cookies written for {@code request} carry {@code Secure}: always, unless the
   * application turned that off, and then only on requests the container sees as secure. Never
   * judged from the {@code Host} header or the server name: a reverse proxy that rewrites {@code
   * Host} to its upstream ({@code proxy_pass http://127.0.0.1:8080}) would otherwise make every
   * production cookie go out without {@code Secure}.
   */
  boolean secure(RequestView request) {
    return alwaysSecure || request.secure();
  }

  String chunkName(int i) {
    return i == 0 ? name : name + "." + i;
  }

  /** The most characters of token one cookie can hold. */
  int chunkCapacity() {
    return capacity;
  }

  /**
   * The most cookies of ours a response clears: a browser keeps at most about 180 cookies per
   * site, and a request carrying more is no browser's.
   */
  static final int MAX_CLEARED = 180;

  /**
   * Whether {@code h[from, to)} names a cookie of ours: the name itself, or a chunk
   * {@code name.N} (N from 1, no leading zero, at most three digits).
   */
  private boolean isOurs(String h, int from, int to) {
    int n = to - from;
    int base = name.length();
    if (n < base || !h.regionMatches(from, name, 0, base)) {
      return false;
    }
    if (n == base) {
      return true;
    }
    if (n < base + 2 || n > base + 4 || h.charAt(from + base) != '.' || h.charAt(from + base + 1) == '0') {
      return false;
    }
    for (int i = from + base + 1; i < to; i++) {
      char c = h.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  @Override
  public int maxTokenLength() {
    return Math.max(256, chunkCapacity() * maxChunks);
  }

  @Override
  public Incoming read(RequestView request, int maxLength) {
    // The Cookie headers as text, not getCookies(): see CookieHeaders
    List<CookieHeaders.Found> ours = CookieHeaders.find(request.requestHeaders("Cookie"), ourName, MAX_CLEARED, name);
    if (ours.isEmpty()) {
      return Incoming.NONE;
    }
    if (ours.size() > 1) {
      return readChunks(ours, maxLength); // chunks, or a duplicate: the general path
    }
    CookieHeaders.Found only = ours.get(0);
    // The usual case: one cookie, the whole token; its value is used as is.
    if (!only.name().equals(name)) {
      return new Incoming(null, List.of(only.name()), TokenException.Reason.MALFORMED);
    }
    if (only.length() > maxLength) {
      return new Incoming(null, onlyName, TokenException.Reason.TOO_LARGE);
    }
    return new Incoming(only.header(), only.start(), only.end(), onlyName, null); // not copied
  }

  private Incoming readChunks(List<CookieHeaders.Found> ours, int maxLength) {
    Map<String, String> found = new LinkedHashMap<>();
    for (CookieHeaders.Found c : ours) {
      found.putIfAbsent(c.name(), c.value());
    }
    List<String> names = new ArrayList<>(found.keySet());
    int parts = 0;
    long total = 0;
    while (found.containsKey(chunkName(parts)) && parts <= 16) {
      total += found.get(chunkName(parts)).length();
      parts++;
    }
    if (parts == 0) {
      return new Incoming(null, names, TokenException.Reason.MALFORMED);
    }
    if (parts > maxChunks || total > maxLength) {
      return new Incoming(null, names, TokenException.Reason.TOO_LARGE);
    }
    StringBuilder sb = new StringBuilder((int) total);
    for (int i = 0; i < parts; i++) {
      sb.append(found.get(chunkName(i)));
    }
    return new Incoming(sb.toString(), names, null);
  }

  private Attributes attributes(RequestView request) {
    String p = cookiePath(request);
    Attributes a = lastAttributes;
    if (a == null || !a.path().equals(p)) {
      String plain = attributes(p, false);
      String secure = attributes(p, true);
      a = new Attributes(p, plain, secure, plain + age, secure + age);
      lastAttributes = a;
    }
    return a;
  }

  private String attributes(String p, boolean secure) {
    StringBuilder sb = new StringBuilder();
    sb.append("; Path=").append(p);
    if (domain != null) {
      sb.append("; Domain=").append(domain);
    }
    if (secure) {
      sb.append("; Secure");
    }
    sb.append("; HttpOnly");
    if (sameSite != null) {
      sb.append("; SameSite=").append(sameSite);
    }
    return sb.toString();
  }

  private String cookiePath(RequestView request) {
    if (path != null) {
      return path;
    }
    String cp = request.contextPath();
    return cp == null || cp.isEmpty() ? "/" : cp;
  }

  @Override
  public List<String> write(RequestView request, ResponseView response, Token token,
      Incoming incoming, List<String> previous) {
    Attributes a = attributes(request);
    boolean secure = secure(request);
    String attrs = secure ? a.secure() : a.plain();
    List<String> headers = new ArrayList<>(2);
    int written = 0;
    if (token != null) {
      // The usual token fits one cookie: made straight into its Set-Cookie value.
      String live = secure ? a.secureLive() : a.plainLive();
      String single = token.within(namePrefix, live);
      int length = single.length() - namePrefix.length() - live.length();
      int cap = chunkCapacity();
      if (length <= cap) {
        headers.add(single);
        written = 1;
      } else {
        int n = (length + cap - 1) / cap;
        if (n > maxChunks) {
          throw new IllegalStateException("the session token is " + length
              + " characters, more than " + maxChunks + " cookie(s) of " + cap + " can carry"
              + (maxChunks == 1 ? " (splitting is off: maxCookieChunks is 1)" : "")
              + ": store less in the session, or raise maxCookieChunks (at most 16)");
        }
        String text = single.substring(namePrefix.length(), namePrefix.length() + length);
        for (int i = 0; i < n; i++) {
          String part = text.substring(i * cap, Math.min(length, (i + 1) * cap));
          headers.add(chunkName(i) + "=" + part + live);
        }
        written = n;
      }
    }
    // Clear every cookie of ours the request carried (however many chunks: a browser keeps them
    // all) and every chunk this response wrote earlier, unless written again now.
    Set<String> stale = null; // the usual write replaces exactly the cookie that came in: none
    for (int i = written; i < previousParts(previous); i++) {
      (stale == null ? stale = new LinkedHashSet<>() : stale).add(chunkName(i));
    }
    for (String n : incoming.cookies) {
      if (n.equals(name) ? written == 0 : n.length() > name.length() + 1
          && Integer.parseInt(n.substring(name.length() + 1)) >= written) {
        (stale == null ? stale = new LinkedHashSet<>() : stale).add(n);
      }
    }
    if (stale != null) {
      for (String n : stale) {
        headers.add(n + "=" + attrs + EXPIRED);
      }
    }
    install(response, headers, previous);
    return headers;
  }

  private int previousParts(List<String> previous) {
    int n = 0;
    for (String h : previous) {
      if (!h.contains("Max-Age=0;")) {
        n++;
      }
    }
    return n;
  }

  /** Adds {@code headers}, first removing {@code previous} from the response's Set-Cookie headers. */
  private static void install(ResponseView response, List<String> headers, List<String> previous) {
    if (headers.isEmpty()) {
      return;
    }
    if (previous.isEmpty()) {
      for (String h : headers) {
        response.addResponseHeader("Set-Cookie", h);
      }
      return;
    }
    List<String> others = new ArrayList<>();
    Collection<String> all = response.responseHeaders("Set-Cookie");
    List<String> toDrop = new ArrayList<>(previous);
    for (String h : all) {
      if (!toDrop.remove(h)) {
        others.add(h);
      }
    }
    response.setResponseHeader("Set-Cookie", headers.get(0));
    for (int i = 1; i < headers.size(); i++) {
      response.addResponseHeader("Set-Cookie", headers.get(i));
    }
    for (String h : others) {
      response.addResponseHeader("Set-Cookie", h);
    }
  }

  @Override
  public boolean present(ResponseView response, List<String> written) {
    if (written.size() == 1 && written.get(0).equals(response.responseHeader("Set-Cookie"))) {
      return true; // the usual case, one cookie and the first: no list of every Set-Cookie built
    }
    Collection<String> all = response.responseHeaders("Set-Cookie");
    return written.isEmpty() || all.containsAll(written);
  }

  @Override
  public boolean isCookie() {
    return true;
  }
}
