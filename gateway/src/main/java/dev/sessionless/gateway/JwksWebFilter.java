package dev.sessionless.gateway;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Serves the gateway's public keys as a JWKS (RFC 7517) at one path, ahead of every other web
 * filter (Spring Security's chain included: public keys need no login, and the application's
 * security rules stay as written). The document is made once per key set: every key's public part
 * only, a strong {@code ETag}, {@code Cache-Control: public, max-age=N}, {@code 304} on a matching
 * {@code If-None-Match}; {@code GET} and {@code HEAD}, other methods {@code 405}. A key set holding
 * a symmetric key is never published: {@code 503}, logged at ERROR. Thread-safe.
 */
final class JwksWebFilter implements WebFilter, Ordered {
  private static final System.Logger LOG = System.getLogger(JwksWebFilter.class.getName());
  private static final MediaType JWK_SET = MediaType.parseMediaType("application/jwk-set+json");

  private final KeySource keys;
  private final String path;
  private final String cacheControl;
  private volatile Document document;

  private record Document(KeySet set, byte[] body, String etag) {}

  /**
   * @throws IllegalArgumentException if {@code path} does not start with {@code /} or {@code
   *     maxAge} is not whole seconds from 0 to a day
   */
  JwksWebFilter(KeySource keys, String path, Duration maxAge) {
    this.keys = Objects.requireNonNull(keys, "keys");
    if (path == null || !path.startsWith("/") || path.contains("*")) {
      throw new IllegalArgumentException("sessionless.propagation.send.jwks.path must be a path starting with /"
          + " (no wildcard), e.g. /.well-known/jwks.json");
    }
    if (maxAge.isNegative() || maxAge.compareTo(Duration.ofDays(1)) > 0 || maxAge.getNano() != 0) {
      throw new IllegalArgumentException("sessionless.propagation.send.jwks.max-age must be whole seconds, 0 to 1 day");
    }
    this.path = path;
    this.cacheControl = "public, max-age=" + maxAge.getSeconds();
  }

  /** Ahead of everything, Spring Security's chain ({@code -100}) included. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 40;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!path.equals(exchange.getRequest().getPath().pathWithinApplication().value())) {
      return chain.filter(exchange);
    }
    HttpMethod method = exchange.getRequest().getMethod();
    ServerHttpResponse response = exchange.getResponse();
    if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
      response.getHeaders().setAllow(java.util.Set.of(HttpMethod.GET, HttpMethod.HEAD));
      return SessionlessInternalTokenGatewayFilterFactory.answer(exchange, HttpStatus.METHOD_NOT_ALLOWED,
          "GET or HEAD");
    }
    Document d;
    try {
      d = current();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "the JWKS endpoint cannot publish the current key set", e);
      return SessionlessInternalTokenGatewayFilterFactory.answer(exchange, HttpStatus.SERVICE_UNAVAILABLE,
          "the key set cannot be published now");
    }
    HttpHeaders h = response.getHeaders();
    h.setETag(d.etag());
    h.setCacheControl(cacheControl);
    if (matches(exchange.getRequest().getHeaders(), d.etag())) {
      response.setStatusCode(HttpStatus.NOT_MODIFIED);
      return response.setComplete();
    }
    h.setContentType(JWK_SET);
    h.setContentLength(d.body().length);
    if (method == HttpMethod.HEAD) {
      return response.setComplete();
    }
    return response.writeWith(Mono.just(response.bufferFactory().wrap(d.body())));
  }

  private Document current() {
    KeySet set = keys.current();
    Document d = document;
    if (d != null && d.set() == set) {
      return d;
    }
    for (TokenKey k : set.keys()) {
      if (k.algorithm().isSymmetric()) {
        throw new IllegalStateException("the key set holds the symmetric key '" + k.kid()
            + "', whose secret would have to be published: sign internal tokens with ES256 or EdDSA keys");
      }
    }
    byte[] body = set.toPublicJwks().getBytes(StandardCharsets.UTF_8);
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
      d = new Document(set, body, '"' + Base64.getUrlEncoder().withoutPadding().encodeToString(hash) + '"');
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    document = d;
    return d;
  }

  /** Weak comparison (RFC 9110 13.1.2), or {@code *}. */
  private static boolean matches(HttpHeaders headers, String etag) {
    List<String> tags;
    try {
      tags = headers.getIfNoneMatch();
    } catch (IllegalArgumentException malformed) {
      return false; // a malformed field matches nothing: the document is sent
    }
    for (String tag : tags) {
      String t = tag.startsWith("W/") ? tag.substring(2) : tag;
      if (t.equals("*") || t.equals(etag)) {
        return true;
      }
    }
    return false;
  }

  /** The path and caching; never keys. */
  @Override
  public String toString() {
    return "JwksWebFilter[" + path + ", " + cacheControl + "]";
  }
}
