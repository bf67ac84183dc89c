package dev.sessionless.keyring;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A revocation list published as a file or at an HTTP(S) URL and polled like the JWKS: a
 * {@link RevocationSource} whose look-ups read an in-memory copy that a background thread
 * replaces when the list changes.
 *
 * <p><b>The list is signed.</b> It is a compact JWS of the token type {@value #TOKEN_TYPE},
 * signed by a key of the key set (the publisher's codec, see {@link #sign}), with the issuer and
 * audience the reader expects, and read with the core's strict decoder: a list signed by any
 * other key, of another type, or altered, is refused and the last good copy kept, so whoever
 * can reach the file or the URL cannot feed a node a forged list (at most an old one, until
 * it expires). The list's own {@code exp} says how long it may be used: the publisher signs it
 * again well before (for example every minute, valid for five).
 *
 * <p><b>Stale lists.</b> Once the copy's {@code exp} has passed and no newer list could be
 * read, the node is stale. {@link OnStale#FAIL_OPEN} (the default) keeps answering from the
 * last copy and logs a warning: the attacker holding a stolen cookie cannot make a node's list
 * go stale (the list travels between the publisher and the node, not through the client), so
 * failing closed would turn a publisher outage into an outage of every session while buying
 * no protection against that attacker. {@link OnStale#FAIL_CLOSED} makes every check throw
 * {@code REVOCATION_UNAVAILABLE} (a server error, never a silent logout) until a list is read.
 *
 * <p>HTTP: conditional requests with the last {@code ETag} (a {@code 304} keeps the copy),
 * timeouts, a cap on the size (1 MiB, as the decoder's), the list required at start. A file is
 * read again when its size or modification time changes.
 *
 * <p>Thread-safe. {@link #close()} stops the poller.
 */
public final class PublishedRevocations implements RevocationSource, AutoCloseable {
  /** The token type ({@code typ}) of a revocation list. */
  public static final String TOKEN_TYPE = "sl-revocations+jwt";
  private static final int MAX_BYTES = 1 << 20;
  private static final System.Logger LOG = System.getLogger(PublishedRevocations.class.getName());

  /** What a node does once its list has expired and no newer one could be read. */
  public enum OnStale {
    /** Keep answering from the last list (and warn): the default, see the class comment. */
    FAIL_OPEN,
    /** Throw {@code REVOCATION_UNAVAILABLE} on every check until a list is read. */
    FAIL_CLOSED
  }

  private final URI url;
  private final Path file;
  private final TokenCodec reader;
  private final Clock clock;
  private final OnStale onStale;
  private final HttpClient http;
  private final Duration timeout;
  private final ScheduledExecutorService poller;
  private volatile RevocationStore copy;
  private volatile long copyExpires;
  private volatile boolean stale;
  private String etag;
  private String fileStamp;

  private PublishedRevocations(Builder b) {
    this.url = b.url;
    this.file = b.file;
    this.clock = b.clock;
    this.onStale = b.onStale;
    this.timeout = b.timeout;
    // Any signing algorithm of the key set: the decoder binds each token's alg to its key's.
    this.reader = TokenCodec.builder().keys(b.keys).issuer(b.issuer).audience(b.audience).tokenType(TOKEN_TYPE)
        .acceptAlgorithms(Algorithm.HS256, Algorithm.HS384, Algorithm.HS512, Algorithm.ES256, Algorithm.EDDSA)
        .timeToLive(Duration.ofMinutes(1)).maxTokenLength(MAX_BYTES).verificationCache(0).clock(b.clock).build();
    this.http = url == null ? null : HttpClient.newBuilder().connectTimeout(b.timeout)
        .followRedirects(HttpClient.Redirect.NEVER).build();
    refresh(); // the list is required at start: a node never starts without one
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sessionless-revocation-list");
      t.setDaemon(true);
      return t;
    });
    long every = b.pollInterval.toMillis();
    poller.scheduleWithFixedDelay(this::refreshQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /** A builder; a {@code url} or a {@code file}, {@code keys}, {@code issuer} and {@code audience} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Signs a list for publishing: revoked sessions (id to the instant until which to keep it)
   * and subjects logged out everywhere (subject to {@code [notBefore, until]}). Entries whose
   * until has passed are left out.
   *
   * @param codec the publisher's codec: built with {@code tokenType(TOKEN_TYPE)}, the readers'
   *     issuer and audience, and a time-to-live that is the list's validity
   * @throws IllegalArgumentException if the codec has another token type
   */
  public static String sign(TokenCodec codec, Map<String, Instant> sessions, Map<String, List<Instant>> subjects,
      Clock clock) {
    if (!codec.tokenType().equals(Optional.of(TOKEN_TYPE))) {
      throw new IllegalArgumentException("sign a revocation list with a codec built with tokenType(\""
          + TOKEN_TYPE + "\"), so that it is never read as another kind of token");
    }
    long now = clock.instant().getEpochSecond();
    Map<String, Long> s = new LinkedHashMap<>();
    sessions.forEach((id, until) -> {
      if (until.getEpochSecond() >= now) {
        s.put(id, until.getEpochSecond());
      }
    });
    Map<String, List<Long>> u = new LinkedHashMap<>();
    subjects.forEach((subject, pair) -> {
      if (pair.size() != 2) {
        throw new IllegalArgumentException("a subject's entry is [notBefore, until]");
      }
      if (pair.get(1).getEpochSecond() >= now) {
        u.put(subject, List.of(pair.get(0).getEpochSecond(), pair.get(1).getEpochSecond()));
      }
    });
    return codec.encode(Claims.builder().claim("s", s).claim("u", u).build());
  }

  @Override
  public boolean isRevoked(String sessionId) {
    return current().isRevoked(sessionId);
  }

  @Override
  public Optional<Instant> notBefore(String subject) {
    return current().notBefore(subject);
  }

  private RevocationStore current() {
    if (stale && onStale == OnStale.FAIL_CLOSED) {
      throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE,
          "the revocation list expired at " + Instant.ofEpochSecond(copyExpires) + " and no newer one could be"
              + " read from " + describe() + ": check the publisher (this node fails closed by configuration)");
    }
    return copy;
  }

  /** When the list in use expires (its {@code exp}). */
  public Instant expiresAt() {
    return Instant.ofEpochSecond(copyExpires);
  }

  /** Whether the list in use has expired and no newer one could be read. */
  public boolean isStale() {
    return stale;
  }

  /**
   * Reads the list now (the poller does this every poll interval).
   *
   * @throws KeyringException if it cannot be read, or is refused (not signed by a key of the
   *     set, wrong type, expired, malformed): the last good copy stays in use
   */
  public synchronized void refresh() {
    try {
      if (url != null) {
        fetch();
      } else {
        readFile();
      }
    } finally {
      stale = copy == null || clock.instant().getEpochSecond() > copyExpires;
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the revocation list at " + describe() + " was not read: "
          + e.getMessage() + (stale ? "; the list in use has EXPIRED (" + onStale + ")" : "; the last list stays in use"));
    }
  }

  private String describe() {
    return url != null ? url.getScheme() + "://" + url.getAuthority() + url.getPath() : file.toString();
  }

  private void fetch() {
    HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(timeout).GET();
    if (etag != null) {
      req.header("If-None-Match", etag);
    }
    try {
      HttpResponse<InputStream> res = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = res.body()) {
        if (res.statusCode() == 304) {
          return;
        }
        if (res.statusCode() != 200) {
          throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
              "the revocation list URL answered " + res.statusCode() + ": check the publisher");
        }
        byte[] body = in.readNBytes(MAX_BYTES + 1);
        if (body.length > MAX_BYTES) {
          throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
              "the revocation list is over " + MAX_BYTES + " bytes: refused");
        }
        String text = new String(body, StandardCharsets.US_ASCII).strip();
        install(text);
        etag = res.headers().firstValue("ETag").orElse(null);
      }
    } catch (IOException e) {
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
          "the revocation list could not be fetched (" + e.getClass().getSimpleName() + "): check the URL", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE, "interrupted while fetching the list", e);
    }
  }

  private void readFile() {
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
            "the revocation list file is over " + MAX_BYTES + " bytes: refused");
      }
      String stamp = size + "@" + Files.getLastModifiedTime(file).toMillis();
      if (stamp.equals(fileStamp)) {
        return;
      }
      String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
      install(text);
      fileStamp = stamp;
    } catch (IOException e) {
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
          "the revocation list file could not be read (" + e.getClass().getSimpleName() + "): check the path", e);
    }
  }

  /** Verifies the list and, if it is good, makes it the copy in use. */
  private void install(String text) {
    SessionToken list;
    try {
      list = reader.decode(text);
    } catch (TokenException e) {
      throw new KeyringException(KeyringException.Reason.MALFORMED, "the revocation list was refused ("
          + e.reason() + "): it must be a " + TOKEN_TYPE + " signed by a key of the key set", e);
    }
    RevocationStore next = RevocationStore.inMemory(clock);
    try {
      Map<?, ?> s = list.claim("s", Map.class).orElse(Map.of());
      for (Map.Entry<?, ?> e : s.entrySet()) {
        next.revokeSession((String) e.getKey(), Instant.ofEpochSecond(((Number) e.getValue()).longValue()));
      }
      Map<?, ?> u = list.claim("u", Map.class).orElse(Map.of());
      for (Map.Entry<?, ?> e : u.entrySet()) {
        List<?> pair = (List<?>) e.getValue();
        next.revokeSubject((String) e.getKey(), Instant.ofEpochSecond(((Number) pair.get(0)).longValue()),
            Instant.ofEpochSecond(((Number) pair.get(1)).longValue()));
      }
    } catch (RuntimeException e) {
      throw new KeyringException(KeyringException.Reason.MALFORMED,
          "the revocation list is signed but malformed (" + e.getClass().getSimpleName() + "): check the publisher", e);
    }
    copy = next;
    copyExpires = list.expiresAt().getEpochSecond();
  }

  /** Stops the poller. */
  @Override
  public void close() {
    poller.shutdownNow();
  }

  @Override
  public String toString() {
    return "PublishedRevocations[" + describe() + ", expires " + expiresAt() + (stale ? ", STALE" : "") + "]";
  }

  /** Configures {@link PublishedRevocations}; each option may be set once. Not thread-safe. */
  public static final class Builder {
    private URI url;
    private Path file;
    private KeySource keys;
    private String issuer;
    private String audience;
    private Duration pollInterval;
    private Duration timeout;
    private OnStale onStale;
    private Clock clock;

    private Builder() {}

    /** The list's HTTP(S) URL. One of {@code url} and {@code file} is required. */
    public Builder url(URI url) {
      BuilderChecks.once(this.url, "url");
      this.url = Objects.requireNonNull(url, "url");
      return this;
    }

    /** The list's file. One of {@code url} and {@code file} is required. */
    public Builder file(Path file) {
      BuilderChecks.once(this.file, "file");
      this.file = Objects.requireNonNull(file, "file");
      return this;
    }

    /** The keys a list must be signed with: the key set (or a live keyring). Required. */
    public Builder keys(KeySource keys) {
      BuilderChecks.once(this.keys, "keys");
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The issuer the list must carry. Required. */
    public Builder issuer(String issuer) {
      BuilderChecks.once(this.issuer, "issuer");
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /** The audience the list must carry. Required. */
    public Builder audience(String audience) {
      BuilderChecks.once(this.audience, "audience");
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /** How often to read the list, the revocation lag bound; 30 seconds if not set, 1 second to 1 hour. */
    public Builder pollInterval(Duration interval) {
      BuilderChecks.once(this.pollInterval, "pollInterval");
      this.pollInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** The connect and whole-request timeout for HTTP; 5 seconds if not set. */
    public Builder timeout(Duration timeout) {
      BuilderChecks.once(this.timeout, "timeout");
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** What to do once the list has expired and no newer one could be read; {@link OnStale#FAIL_OPEN} if not set. */
    public Builder onStale(OnStale policy) {
      BuilderChecks.once(this.onStale, "onStale");
      this.onStale = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The clock; the system UTC clock if not set. */
    public Builder clock(Clock clock) {
      BuilderChecks.once(this.clock, "clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Checks the configuration, reads the list once and starts the poller.
     *
     * @throws IllegalStateException if a required option is missing or options contradict
     * @throws KeyringException if the list cannot be read or is refused
     */
    public PublishedRevocations build() {
      if ((url == null) == (file == null)) {
        throw new IllegalStateException("set exactly one of url and file");
      }
      if (url != null && !"https".equals(url.getScheme())
          && !("http".equals(url.getScheme()) && HttpSource.isLoopback(url))) {
        throw new IllegalStateException("url must be https (plain http only to a loopback host), got " + url);
      }
      if (keys == null || issuer == null || audience == null) {
        throw new IllegalStateException("keys, issuer and audience are required: the list is verified like a token");
      }
      pollInterval = pollInterval == null ? Duration.ofSeconds(30) : pollInterval;
      if (pollInterval.getSeconds() < 1 || pollInterval.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalStateException("pollInterval must be 1 second to 1 hour, got " + pollInterval);
      }
      timeout = timeout == null ? Duration.ofSeconds(5) : timeout;
      onStale = onStale == null ? OnStale.FAIL_OPEN : onStale;
      clock = clock == null ? Clock.systemUTC() : clock;
      return new PublishedRevocations(this);
    }
  }
}
