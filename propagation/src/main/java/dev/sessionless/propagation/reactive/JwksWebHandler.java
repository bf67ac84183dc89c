package dev.sessionless.propagation.reactive;

import dev.sessionless.core.KeySource;
import dev.sessionless.propagation.JwksServlet;
import dev.sessionless.propagation.internal.Answer;
import dev.sessionless.propagation.internal.JwksDocument;
import java.time.Duration;
import java.util.Objects;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * Publishes an issuer's public keys as a JWKS on Spring WebFlux, exactly as {@link JwksServlet}
 * does on servlets (the same code makes the document): every key of the source's current set,
 * public parts only, a symmetric key refused (at {@link Builder#build()}, and with {@code 503}
 * and an ERROR log should a live source gain one), {@code application/jwk-set+json}, a strong
 * {@code ETag}, {@code Cache-Control: public, max-age}, {@code 304} for a matching {@code
 * If-None-Match}, {@code GET} and {@code HEAD} only. The source is asked at each request, so a
 * keyring's rotation shows up without a restart.
 *
 * <pre>{@code
 * JwksWebHandler jwks = JwksWebHandler.builder().keys(issuerKeys).build();
 * WebFilter endpoint = jwks.at("/.well-known/jwks.json");   // ahead of every other filter
 * }</pre>
 *
 * <p>{@link #at(String)} serves it as a {@code WebFilter} for one path, ahead of the application's
 * other filters (Spring Security's included): the keys are public, and the application's rules
 * stay exactly as it wrote them. The handler itself serves whatever exchange it is given (a
 * {@code RouterFunction} can route to it with {@code request -> ...}). Reading the current
 * key set is a memory read: nothing blocks the event loop. Thread-safe.
 */
public final class JwksWebHandler implements WebHandler {
  private static final System.Logger LOG = System.getLogger(JwksWebHandler.class.getName());

  private final JwksDocument.Current documents;
  private final String cacheControl;

  private JwksWebHandler(Builder b) {
    this.documents = new JwksDocument.Current(b.keys);
    this.cacheControl = JwksDocument.cacheControl(b.maxAge);
  }

  /** A builder; {@code keys} is required. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange) {
    ServerHttpResponse response = exchange.getResponse();
    HttpMethod method = exchange.getRequest().getMethod();
    if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
      response.setStatusCode(HttpStatus.METHOD_NOT_ALLOWED);
      response.getHeaders().set(HttpHeaders.ALLOW, "GET, HEAD");
      return response.setComplete();
    }
    JwksDocument d;
    try {
      d = documents.get();
    } catch (RuntimeException e) {
      // A broken deployment, not the caller's fault: say so without details, and log it.
      LOG.log(System.Logger.Level.ERROR, "the JWKS endpoint cannot publish the current key set", e);
      return Responses.write(response, Answer.unavailable("the key set cannot be published now"));
    }
    HttpHeaders h = response.getHeaders();
    h.set(HttpHeaders.ETAG, d.etag());
    h.set(HttpHeaders.CACHE_CONTROL, cacheControl);
    if (d.matches(exchange.getRequest().getHeaders().getOrEmpty(HttpHeaders.IF_NONE_MATCH))) {
      response.setStatusCode(HttpStatus.NOT_MODIFIED);
      return response.setComplete();
    }
    h.set(HttpHeaders.CONTENT_TYPE, JwksDocument.MEDIA_TYPE);
    h.setContentLength(d.length());
    return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(d.body())));
  }

  /**
   * A {@code WebFilter} that answers requests for {@code path} (within the application, starting
   * with {@code /}, no wildcard) with this handler and passes every other request on untouched.
   *
   * @throws IllegalArgumentException if {@code path} does not start with {@code /} or holds a wildcard
   */
  public WebFilter at(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.contains("*")) {
      throw new IllegalArgumentException("the JWKS path must start with / and hold no wildcard, got " + path);
    }
    return new WebFilter() {
      @Override
      public Mono<Void> filter(ServerWebExchange exchange, org.springframework.web.server.WebFilterChain chain) {
        return path.equals(exchange.getRequest().getPath().pathWithinApplication().value())
            ? handle(exchange) : chain.filter(exchange);
      }

      @Override
      public String toString() {
        return "JwksWebHandler.at[" + path + "]";
      }
    };
  }

  /** Shows the cache policy only. */
  @Override
  public String toString() {
    return "JwksWebHandler[" + cacheControl + "]";
  }

  /** Builds a {@link JwksWebHandler}, checking the key set at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private KeySource keys;
    private Duration maxAge = Duration.ofMinutes(5);

    private Builder() {}

    /** The issuer's keys: a fixed set or a live source such as a keyring. Required. */
    public Builder keys(KeySource keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * How long verifiers may cache the document ({@code Cache-Control: max-age}); 5 minutes if
     * not set. Keep it shorter than the lead time between publishing a key and signing with it.
     *
     * @throws IllegalArgumentException unless whole seconds from 0 to one day
     */
    public Builder maxAge(Duration maxAge) {
      JwksDocument.cacheControl(maxAge);
      this.maxAge = maxAge;
      return this;
    }

    /**
     * Checks the configuration and the current key set, and builds the handler.
     *
     * @throws IllegalStateException if no keys were given, or the key set holds a symmetric
     *     (HMAC or AES) key, which cannot be published
     */
    public JwksWebHandler build() {
      if (keys == null) {
        throw new IllegalStateException("keys are required: the issuer's key set or keyring");
      }
      JwksDocument.publish(keys.current());
      return new JwksWebHandler(this);
    }
  }
}
