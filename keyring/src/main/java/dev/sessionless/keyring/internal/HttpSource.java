package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A JWKS fetched over HTTP(S): conditional requests with the last {@code ETag}, freshness from
 * {@code Cache-Control: max-age} minus {@code Age} (checked again at a random 75–90 % of it,
 * within the configured bounds), exponential back-off with jitter on failure, a stale bound
 * after which the keys no longer verify (tokens under them fail as an outage, {@code
 * KEY_SOURCE_UNAVAILABLE}, not as the client's bad token; see {@link Source#state()}), a cap on
 * the response size, and one deadline for the whole exchange.
 *
 * <p>The JDK client's own request timeout stops at the response headers (JDK-8208693, changed
 * only in JDK 26), so a server that sends headers and then stalls would hold the keyring's one
 * refresh thread for ever. Here the body is read by a subscriber that counts bytes, and the
 * refresh thread waits for the whole response at most the read timeout, then cancels it.
 */
public final class HttpSource extends Source {
  /** The settings of the HTTP sources of one keyring; read when the keyring is built. */
  public static final class Options {
    public Duration connectTimeout = Duration.ofSeconds(5);
    public Duration readTimeout = Duration.ofSeconds(10);
    public Duration minRefresh = Duration.ofSeconds(30);
    public Duration maxRefresh = Duration.ofHours(1);
    public Duration defaultRefresh = Duration.ofMinutes(5);
    public Duration minBackoff = Duration.ofSeconds(1);
    public Duration maxStale = Duration.ofHours(24);
    public int maxResponseBytes = 1 << 20;
    public boolean requiredAtStart = true;
  }

  private final URI url;
  private final String description;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final Duration minRefresh;
  private final Duration maxRefresh;
  private final Duration defaultRefresh;
  private final Duration minBackoff;
  private final Duration maxStale;
  private final int maxResponseBytes;
  private final boolean requiredAtStart;
  private final HttpClient client;
  private String etag;
  private Duration freshFor;
  private Map<String, String> skipped = Map.of();

  /** A JWKS at {@code url}, with a copy of {@code options}. */
  public HttpSource(URI url, Options options) {
    this.url = url;
    this.description = "JWKS URL " + redact(url);
    this.connectTimeout = options.connectTimeout;
    this.readTimeout = options.readTimeout;
    this.minRefresh = options.minRefresh;
    this.maxRefresh = options.maxRefresh;
    this.defaultRefresh = options.defaultRefresh;
    this.minBackoff = options.minBackoff;
    this.maxStale = options.maxStale;
    this.maxResponseBytes = options.maxResponseBytes;
    this.requiredAtStart = options.requiredAtStart;
    this.client = HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /**
   * Whether the URL's host is {@code localhost} or a loopback address literal; names are never
   * resolved here.
   */
  public static boolean isLoopback(URI url) {
    String host = url.getHost();
    if (host == null) {
      return false;
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (!literal.matches("[0-9.]+") && !literal.contains(":")) {
      return false; // a name: resolving it would be a lookup, and a name can point anywhere
    }
    try {
      return java.net.InetAddress.getByName(literal).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  /** The URL without user info, query or fragment, which may carry credentials. */
  public static String redact(URI url) {
    String port = url.getPort() < 0 ? "" : ":" + url.getPort();
    return url.getScheme() + "://" + url.getHost() + port + (url.getRawPath() == null ? "" : url.getRawPath())
        + (url.getRawQuery() == null ? "" : "?…");
  }

  @Override
  public String describe() {
    return description;
  }

  /** Keys of the last document that this library cannot use and skipped (RFC 7517 section 5): kid, why. */
  @Override
  protected Map<String, String> skippedKeys() {
    return skipped;
  }

  @Override
  public boolean checksOnUnknownKey() {
    return true;
  }

  @Override
  public boolean mayStartEmpty() {
    return !requiredAtStart;
  }

  @Override
  protected KeySet load(Instant now) {
    HttpRequest.Builder request = HttpRequest.newBuilder(url)
        .timeout(readTimeout)
        .header("Accept", "application/jwk-set+json, application/json")
        .GET();
    if (etag != null) {
      request.header("If-None-Match", etag);
    }
    AtomicReference<LimitedBody> body = new AtomicReference<>();
    CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request.build(), info -> {
      long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
      LimitedBody b = new LimitedBody(info.statusCode() == 200 ? maxResponseBytes : 0, declared);
      body.set(b);
      return b;
    });
    HttpResponse<byte[]> response;
    try {
      response = exchange.get(readTimeout.toMillis() + connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      cancel(exchange, body.get());
      throw new KeyringException(Reason.UNAVAILABLE, description + " did not answer within its read timeout ("
          + readTimeout + ")");
    } catch (InterruptedException e) {
      cancel(exchange, body.get());
      Thread.currentThread().interrupt();
      throw new KeyringException(Reason.UNAVAILABLE, description + ": interrupted while fetching");
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    }
    int status = response.statusCode();
    if (status == 304 && etag != null) {
      freshFor = freshness(response.headers()).orElse(freshFor);
      return null;
    }
    if (status != 200) {
      throw new KeyringException(Reason.UNAVAILABLE, description + " answered HTTP " + status);
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(response.body())).toString();
    } catch (CharacterCodingException e) {
      throw new KeyringException(Reason.MALFORMED, description + " sent a body that is not UTF-8");
    }
    Map<String, String> unusable = new LinkedHashMap<>();
    KeySet keys = KeyContent.parsePublished(text, description, unusable);
    skipped = Collections.unmodifiableMap(unusable);
    etag = response.headers().firstValue("ETag").orElse(null);
    freshFor = freshness(response.headers()).orElse(null);
    return keys;
  }

  /** What one fetch outside a keyring found: the usable keys, and the freshness the response gave (empty without max-age). */
  public record Probe(KeySet keys, Optional<Duration> freshFor) {}

  /**
   * One fetch outside a keyring ({@code keyring rotate --jwks-url}), bounded like a check: the
   * timeouts, the size cap, no redirects.
   *
   * @throws KeyringException as a check fails: {@code UNAVAILABLE}, {@code MALFORMED}
   */
  public Probe probe(Instant now) {
    KeySet keys = load(now);
    return new Probe(keys, Optional.ofNullable(freshFor));
  }

  private static void cancel(CompletableFuture<?> exchange, LimitedBody body) {
    exchange.cancel(true);
    if (body != null) {
      body.cancel();
    }
  }

  private KeyringException failure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof BodyTooLarge) {
        cause = t;
        break;
      }
    }
    if (cause instanceof BodyTooLarge) {
      return new KeyringException(Reason.MALFORMED, description + " sent more than " + maxResponseBytes + " bytes");
    } else if (cause instanceof HttpConnectTimeoutException) {
      return new KeyringException(Reason.UNAVAILABLE, description + " did not accept a connection within the "
          + "connect timeout (" + connectTimeout + ")");
    } else if (cause instanceof HttpTimeoutException) {
      return new KeyringException(Reason.UNAVAILABLE, description + " did not answer within its read timeout ("
          + readTimeout + ")");
    } else if (cause instanceof ConnectException) {
      return new KeyringException(Reason.UNAVAILABLE, description + " refused the connection");
    } else if (cause instanceof IOException) {
      return new KeyringException(Reason.UNAVAILABLE, description + " could not be fetched ("
          + cause.getClass().getSimpleName() + ")");
    }
    return new KeyringException(Reason.UNAVAILABLE, description + " could not be fetched ("
        + (cause == null ? "unknown" : cause.getClass().getSimpleName()) + ")");
  }

  /**
   * How long the response stays fresh: {@code max-age} minus {@code Age}; zero for {@code
   * no-store} or {@code no-cache}; empty without {@code max-age}.
   */
  static Optional<Duration> freshness(HttpHeaders headers) {
    List<String> values = headers.allValues("Cache-Control");
    if (values.isEmpty()) {
      return Optional.empty();
    }
    Duration age = null;
    for (String value : values) {
      for (String part : value.split(",")) {
        String p = part.strip().toLowerCase(Locale.ROOT);
        if (p.equals("no-store") || p.equals("no-cache")) {
          return Optional.of(Duration.ZERO);
        }
        if (p.startsWith("max-age=")) {
          try {
            age = Duration.ofSeconds(Long.parseLong(p.substring(8).replace("\"", "").strip()));
          } catch (NumberFormatException | ArithmeticException e) {
            // ignore a malformed directive, as HTTP caches do
          }
        }
      }
    }
    if (age == null || age.isNegative()) {
      return Optional.empty();
    }
    OptionalLong already = headers.firstValueAsLong("Age");
    if (already.isPresent() && already.getAsLong() > 0) {
      age = age.minusSeconds(already.getAsLong());
    }
    return Optional.of(age.isNegative() ? Duration.ZERO : age);
  }

  @Override
  protected Duration nextCheckAfterSuccess() {
    Duration base = freshFor == null ? defaultRefresh : freshFor;
    long millis = (long) (base.toMillis() * ThreadLocalRandom.current().nextDouble(0.75, 0.90));
    return clamp(Duration.ofMillis(millis), minRefresh, maxRefresh);
  }

  @Override
  protected Duration nextCheckAfterFailure(int n) {
    return backoff(minBackoff, maxRefresh, n, ThreadLocalRandom.current().nextDouble(0.5, 1.0));
  }

  /** The n-th back-off: {@code first × 2^(n-1)}, at most {@code max}, times {@code jitter}; at least 1 ms. */
  static Duration backoff(Duration first, Duration max, int n, double jitter) {
    long base = first.toMillis() << Math.min(Math.max(n - 1, 0), 20);
    if (base < 0 || base > max.toMillis()) {
      base = max.toMillis();
    }
    return Duration.ofMillis(Math.max(1, (long) (base * jitter)));
  }

  @Override
  protected boolean tooStale(Instant lastSuccess, Instant now) {
    return Duration.between(lastSuccess, now).compareTo(maxStale) > 0;
  }

  /** Stops the client's threads where the JDK allows it (21+, {@code shutdownNow}); else they end with the client. */
  @Override
  public void close() {
    try {
      HttpClient.class.getMethod("shutdownNow").invoke(client);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // JDK 17-20: no way to stop it; its selector thread ends once the client is unreachable
    }
  }

  private static Duration clamp(Duration d, Duration min, Duration max) {
    return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
  }
}
