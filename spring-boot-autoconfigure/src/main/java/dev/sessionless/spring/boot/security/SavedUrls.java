package dev.sessionless.spring.boot.security;

import java.util.List;

/**
 * The rule for a saved request kept as its URL (path and query, relative to the application),
 * shared by the servlet ({@link SessionlessRequestCache}) and reactive ({@link
 * SessionlessServerRequestCache}) caches: how long a URL may be, what a stored one must look
 * like to be used, and the {@code continue} parameter that marks the request leading back to it.
 */
final class SavedUrls {
  /** The query parameter the redirect after login carries, as in Spring Security. */
  static final String CONTINUE = "continue";

  private SavedUrls() {}

  /**
   * {@code url} if it is at most {@link SessionlessRequestCache#MAX_URL_LENGTH} characters, else
   * its path alone if that is, else {@code null} (the client chooses the URL, and it would
   * otherwise grow the session, the cookie with it, without bound).
   */
  static String bounded(String url) {
    if (url.length() <= SessionlessRequestCache.MAX_URL_LENGTH) {
      return url;
    }
    int q = url.indexOf('?');
    return q >= 0 && q <= SessionlessRequestCache.MAX_URL_LENGTH ? url.substring(0, q) : null;
  }

  /** The stored URL; a value of another shape (not ours, or not a local path) counts as none. */
  static String valid(Object stored) {
    return stored instanceof String s && s.length() <= SessionlessRequestCache.MAX_URL_LENGTH && s.startsWith("/")
        && !s.startsWith("//") ? s : null;
  }

  /** {@code url} with the {@code continue} parameter added. */
  static String withContinue(String url) {
    return url + (url.indexOf('?') < 0 ? "?" : "&") + CONTINUE;
  }

  /** Whether the raw query string carries the {@code continue} parameter. */
  static boolean carriesContinue(String query) {
    return query != null && List.of(query.split("&")).contains(CONTINUE);
  }

  /** {@code url} without its {@code continue} parameter. */
  static String withoutContinue(String url) {
    int q = url.indexOf('?');
    if (q < 0) {
      return url;
    }
    StringBuilder kept = new StringBuilder();
    for (String part : url.substring(q + 1).split("&")) {
      if (!part.equals(CONTINUE)) {
        kept.append(kept.length() == 0 ? "" : "&").append(part);
      }
    }
    return url.substring(0, q) + (kept.length() == 0 ? "" : "?" + kept);
  }
}
