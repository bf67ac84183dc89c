package dev.sessionless.spring.boot.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.Collections;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.web.savedrequest.RequestCache;
import org.springframework.security.web.savedrequest.SavedRequest;
import org.springframework.security.web.savedrequest.SimpleSavedRequest;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.UrlUtils;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Remembers the page a user asked for before logging in as its URL (path and query, relative to
 * the context path) in the token session, and sends the user back there after login. Only the
 * requests Spring Security's own default would save are saved: {@code GET}, not a favicon, not
 * an XHR, a WebSocket upgrade, or a JSON, multipart or event-stream request. The redirect carries
 * the {@code continue} parameter, like Spring Security's, and the request that follows it clears
 * the saved URL.
 *
 * <p>A saved request is replayed as a {@code GET} of its URL only: unlike Spring Security's
 * session cache, no headers, cookies or form parameters are kept. The URL is bounded ({@value
 * #MAX_URL_LENGTH} characters; a longer one is kept as its path, or not kept), since the client
 * chooses it; a stored value that is not such a URL is ignored.
 *
 * <p>Thread-safe.
 */
public final class SessionlessRequestCache implements RequestCache {
  /** The session attribute holding the saved URL. */
  public static final String ATTRIBUTE = "sessionless.security.saved-request";
  /**
   * The longest URL (path and query) saved: a longer one is saved as its path alone, or not at
   * all if that is longer too.
   */
  public static final int MAX_URL_LENGTH = 1024;

  private final RequestMatcher matcher;

  /** A cache saving the requests Spring Security's default would save. */
  public SessionlessRequestCache() {
    MediaTypeRequestMatcher json = mediaType(MediaType.APPLICATION_JSON);
    MediaTypeRequestMatcher multipart = mediaType(MediaType.MULTIPART_FORM_DATA);
    MediaTypeRequestMatcher events = mediaType(MediaType.TEXT_EVENT_STREAM);
    this.matcher = new AndRequestMatcher(List.of(
        PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, "/**"),
        new NegatedRequestMatcher(PathPatternRequestMatcher.withDefaults().matcher("/favicon.*")),
        new NegatedRequestMatcher(json),
        new NegatedRequestMatcher(new RequestHeaderRequestMatcher("X-Requested-With", "XMLHttpRequest")),
        new NegatedRequestMatcher(multipart),
        new NegatedRequestMatcher(events),
        new NegatedRequestMatcher(new RequestHeaderRequestMatcher("Upgrade", "websocket"))));
  }

  private static MediaTypeRequestMatcher mediaType(MediaType type) {
    MediaTypeRequestMatcher m = new MediaTypeRequestMatcher(type);
    m.setIgnoredMediaTypes(Collections.singleton(MediaType.ALL));
    return m;
  }

  /**
   * Saves the request's URL if it is one worth returning to: the whole URL if it is at most
   * {@value #MAX_URL_LENGTH} characters, else its path alone if that is, else nothing (the
   * client chooses the URL, and it would otherwise grow the session, the cookie with it, without
   * bound).
   */
  @Override
  public void saveRequest(HttpServletRequest request, HttpServletResponse response) {
    if (!matcher.matches(request)) {
      return;
    }
    String url = SavedUrls.bounded(UrlUtils.buildRequestUrl(request));
    if (url == null) {
      HttpSession session = request.getSession(false);
      if (session != null && session.getAttribute(ATTRIBUTE) != null) {
        session.removeAttribute(ATTRIBUTE);
      }
      return;
    }
    request.getSession().setAttribute(ATTRIBUTE, url);
  }

  /** The saved request, as its URL with the {@code continue} parameter, or {@code null}. */
  @Override
  public SavedRequest getRequest(HttpServletRequest request, HttpServletResponse response) {
    String url = saved(request);
    if (url == null) {
      return null;
    }
    return new SimpleSavedRequest(SavedUrls.withContinue(url));
  }

  /**
   * Clears the saved URL when this request is the one it leads back to (it carries {@code
   * continue}); the request itself goes on unchanged, so this answers {@code null}.
   */
  @Override
  public HttpServletRequest getMatchingRequest(HttpServletRequest request, HttpServletResponse response) {
    if (!SavedUrls.carriesContinue(request.getQueryString())) {
      return null;
    }
    String url = saved(request);
    if (url != null && url.equals(SavedUrls.withoutContinue(UrlUtils.buildRequestUrl(request)))) {
      removeRequest(request, response);
    }
    return null;
  }

  /** Forgets the saved URL. */
  @Override
  public void removeRequest(HttpServletRequest request, HttpServletResponse response) {
    HttpSession session = request.getSession(false);
    if (session != null && session.getAttribute(ATTRIBUTE) != null) {
      session.removeAttribute(ATTRIBUTE);
    }
  }

  /** The saved URL; a stored value of another shape (not ours) counts as none. */
  private static String saved(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    return session == null ? null : SavedUrls.valid(session.getAttribute(ATTRIBUTE));
  }
}
