package dev.sessionless.spring.boot.security;

import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.security.web.server.savedrequest.ServerRequestCache;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * The reactive twin of {@link SessionlessRequestCache}: remembers the page a user asked for
 * before logging in as its URL (path and query, within the application) in the exchange's {@code
 * WebSession}, under the same attribute and by the same rule ({@value
 * SessionlessRequestCache#MAX_URL_LENGTH} characters at most, else the path alone, else nothing;
 * a stored value that is not a local URL is ignored). The requests saved are the ones the servlet
 * side saves: {@code GET}, not a favicon, not an XHR, a WebSocket upgrade, or a JSON, multipart or
 * event-stream request. The redirect after login carries the {@code continue} parameter, like
 * Spring Security's, and the request that follows it clears the saved URL and goes on without
 * the parameter.
 *
 * <p>A saved request is replayed as a {@code GET} of its URL only: no headers, cookies or form
 * parameters are kept.
 *
 * <p>Thread-safe.
 */
public final class SessionlessServerRequestCache implements ServerRequestCache {
  /** The session attribute holding the saved URL (the servlet side's too). */
  public static final String ATTRIBUTE = SessionlessRequestCache.ATTRIBUTE;
  private static final List<MediaType> NOT_SAVED = List.of(MediaType.APPLICATION_JSON,
      MediaType.MULTIPART_FORM_DATA, MediaType.TEXT_EVENT_STREAM);

  /** A cache saving the requests Spring Security's default would save. */
  public SessionlessServerRequestCache() {}

  /** Saves the exchange's URL if it is one worth returning to (see the class comment). */
  @Override
  public Mono<Void> saveRequest(ServerWebExchange exchange) {
    if (!worthSaving(exchange.getRequest())) {
      return Mono.empty();
    }
    String url = SavedUrls.bounded(pathInApplication(exchange.getRequest()));
    return exchange.getSession().doOnNext(session -> {
      if (url == null) {
        session.getAttributes().remove(ATTRIBUTE);
      } else {
        session.getAttributes().put(ATTRIBUTE, url);
      }
    }).then();
  }

  /** The saved URL with the {@code continue} parameter; empty when none is saved. */
  @Override
  public Mono<URI> getRedirectUri(ServerWebExchange exchange) {
    return exchange.getSession().mapNotNull(session -> {
      String url = SavedUrls.valid(session.getAttribute(ATTRIBUTE));
      try {
        return url == null ? null : URI.create(SavedUrls.withContinue(url));
      } catch (IllegalArgumentException e) {
        return null;
      }
    });
  }

  /**
   * When this request is the one the saved URL leads back to (it carries {@code continue}),
   * clears the saved URL and answers the request without that parameter; else empty.
   */
  @Override
  public Mono<ServerHttpRequest> removeMatchingRequest(ServerWebExchange exchange) {
    ServerHttpRequest request = exchange.getRequest();
    if (!SavedUrls.carriesContinue(request.getURI().getRawQuery())) {
      return Mono.empty();
    }
    String current = SavedUrls.withoutContinue(pathInApplication(request));
    return exchange.getSession().mapNotNull(session -> {
      if (!current.equals(SavedUrls.valid(session.getAttribute(ATTRIBUTE)))) {
        return null;
      }
      session.getAttributes().remove(ATTRIBUTE);
      URI stripped = UriComponentsBuilder.fromUri(request.getURI()).replaceQueryParam(SavedUrls.CONTINUE).build(true)
          .toUri();
      return request.mutate().uri(stripped).build();
    });
  }

  private static String pathInApplication(ServerHttpRequest request) {
    String query = request.getURI().getRawQuery();
    return request.getPath().pathWithinApplication().value() + (query == null ? "" : "?" + query);
  }

  /** The servlet side's rule ({@link SessionlessRequestCache}), on a reactive request. */
  static boolean worthSaving(ServerHttpRequest request) {
    if (!HttpMethod.GET.equals(request.getMethod())) {
      return false;
    }
    String path = request.getPath().pathWithinApplication().value();
    if (path.startsWith("/favicon.") && path.indexOf('/', 1) < 0) {
      return false;
    }
    HttpHeaders headers = request.getHeaders();
    if ("XMLHttpRequest".equals(headers.getFirst("X-Requested-With"))
        || "websocket".equals(headers.getFirst(HttpHeaders.UPGRADE))) {
      return false;
    }
    List<MediaType> accepted;
    try {
      accepted = headers.getAccept();
    } catch (InvalidMediaTypeException e) {
      return true;
    }
    for (MediaType a : accepted) {
      if (MediaType.ALL.equals(a)) {
        continue;
      }
      for (MediaType notSaved : NOT_SAVED) {
        if (notSaved.isCompatibleWith(a)) {
          return false;
        }
      }
    }
    return true;
  }
}
