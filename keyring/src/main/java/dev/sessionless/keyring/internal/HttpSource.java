package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.util.List;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A JWKS fetched over HTTP(S): conditional requests with the last {@code ETag}, freshness from
 * {@code Cache-Control: max-age} (checked again at a random 75–90 % of it, within the configured
 * bounds), exponential back-off with jitter on failure, a stale bound after which the keys are
 * dropped, and a cap on the response size.
 */
public final class HttpSource extends Source {
  /** The settings of one HTTP source. */
  public static final class Options {
    public Duration connectTimeout = Duration.ofSeconds(5);
    public Duration readTimeout = Duration.ofSeconds(10);
    public Duration minRefresh = Duration.ofSeconds(30);
    public Duration maxRefresh = Duration.ofHours(1);
    public Duration defaultRefresh = Duration.ofMinutes(5);
    public Duration minBackoff = Duration.ofSeconds(1);
    public Duration maxStale = Duration.ofHours(24);
    public int maxResponseBytes = 1 << 20;

    Options copy() {
      Options o = new Options();
      o.connectTimeout = connectTimeout;
      o.readTimeout = readTimeout;
      o.minRefresh = minRefresh;
      o.maxRefresh = maxRefresh;
      o.defaultRefresh = defaultRefresh;
      o.minBackoff = minBackoff;
      o.maxStale = maxStale;
      o.maxResponseBytes = maxResponseBytes;
      return o;
    }
  }

  private final URI url;
  private final String description;
  private final Options options;
  private final HttpClient client;
  private String etag;
  private Duration freshFor;

  /** A JWKS at {@code url}. */
  public HttpSource(URI url, Options options) {
    this.url = url;
    this.options = options.copy(); // a snapshot: the builder may be changed and built again
    this.description = "JWKS URL " + redact(url);
    this.client = HttpClient.newBuilder()
        .connectTimeout(options.connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** The URL without user info, query or fragment, which may carry credentials. */
  static String redact(URI url) {
    String port = url.getPort() < 0 ? "" : ":" + url.getPort();
    return url.getScheme() + "://" + url.getHost() + port + (url.getRawPath() == null ? "" : url.getRawPath())
        + (url.getRawQuery() == null ? "" : "?…");
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public boolean checksOnUnknownKey() {
    return true;
  }

  @Override
  protected KeySet load(Instant now) {
    HttpRequest.Builder request = HttpRequest.newBuilder(url)
        .timeout(options.readTimeout)
        .header("Accept", "application/jwk-set+json, application/json")
        .GET();
    if (etag != null) {
      request.header("If-None-Match", etag);
    }
    HttpResponse<byte[]> response;
    java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> exchange =
        client.sendAsync(request.build(), info -> new LimitedBody(options.maxResponseBytes));
    try {
      // One deadline for the whole exchange, body included: a server that sends its headers and
      // then trickles the body cannot hold the refresh thread.
      response = exchange.get(options.readTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      exchange.cancel(true);
      throw new KeyringException(Reason.UNAVAILABLE, description + " did not answer within its timeout");
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof TooLarge) {
        throw new KeyringException(Reason.MALFORMED, description + " sent more than "
            + options.maxResponseBytes + " bytes");
      }
      if (cause instanceof HttpTimeoutException) {
        throw new KeyringException(Reason.UNAVAILABLE, description + " did not answer within its timeout");
      }
      throw new KeyringException(Reason.UNAVAILABLE, description + " could not be fetched ("
          + (cause == null ? "unknown" : cause.getClass().getSimpleName()) + ")");
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new KeyringException(Reason.UNAVAILABLE, description + ": interrupted while fetching");
    }
    int status = response.statusCode();
    if (status == 304 && etag != null) {
      freshFor = maxAge(response).orElse(freshFor);
      return null;
    }
    if (status != 200) {
      throw new KeyringException(Reason.UNAVAILABLE, description + " answered HTTP " + status);
    }
    KeySet keys = KeyContent.parse(new String(response.body(), StandardCharsets.UTF_8), KeyContent.Unlock.none(),
        false, description);
    etag = response.headers().firstValue("ETag").orElse(null);
    freshFor = maxAge(response).orElse(null);
    return keys;
  }

  /** Signals a body over the size cap. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super("response body over the cap", null);
    }
  }

  /** Collects a response body up to a cap, cancelling the exchange as soon as it is exceeded. */
  private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final int max;
    private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    private final java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
    private java.util.concurrent.Flow.Subscription subscription;

    LimitedBody(int max) {
      this.max = max;
    }

    @Override
    public java.util.concurrent.CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<java.nio.ByteBuffer> buffers) {
      for (java.nio.ByteBuffer b : buffers) {
        if (bytes.size() + b.remaining() > max) {
          subscription.cancel();
          result.completeExceptionally(new TooLarge());
          return;
        }
        byte[] chunk = new byte[b.remaining()];
        b.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(bytes.toByteArray());
    }
  }

  /** {@code max-age} in seconds; zero for {@code no-store} or {@code no-cache}. */
  static Optional<Duration> maxAge(HttpResponse<?> response) {
    Optional<String> header = response.headers().firstValue("Cache-Control");
    if (header.isEmpty()) {
      return Optional.empty();
    }
    Duration age = null;
    for (String part : header.get().split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      if (p.equals("no-store") || p.equals("no-cache")) {
        return Optional.of(Duration.ZERO);
      }
      if (p.startsWith("max-age=")) {
        try {
          age = Duration.ofSeconds(Long.parseLong(p.substring(8).replace("\"", "")));
        } catch (NumberFormatException | ArithmeticException e) {
          // ignore a malformed directive, as HTTP caches do
        }
      }
    }
    return Optional.ofNullable(age);
  }

  @Override
  protected Duration nextCheckAfterSuccess() {
    Duration base = freshFor == null ? options.defaultRefresh : freshFor;
    long millis = (long) (base.toMillis() * ThreadLocalRandom.current().nextDouble(0.75, 0.90));
    return clamp(Duration.ofMillis(millis), options.minRefresh, options.maxRefresh);
  }

  @Override
  protected Duration nextCheckAfterFailure(int n) {
    long base = options.minBackoff.toMillis() << Math.min(n - 1, 20);
    long capped = Math.min(base, options.maxRefresh.toMillis());
    long jittered = (long) (capped * ThreadLocalRandom.current().nextDouble(0.5, 1.0));
    return Duration.ofMillis(Math.max(1, jittered));
  }

  @Override
  protected boolean tooStale(Instant lastSuccess, Instant now) {
    return Duration.between(lastSuccess, now).compareTo(options.maxStale) > 0;
  }

  private static Duration clamp(Duration d, Duration min, Duration max) {
    return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
  }
}
