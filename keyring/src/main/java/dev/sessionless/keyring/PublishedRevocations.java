package dev.sessionless.keyring;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

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
 * <p>Thread-safe, and no lock is held while the list is fetched: one {@link #refresh} reads at a
 * time, callers that arrive meanwhile wait for its outcome (parked, never on a monitor, which
 * would pin a virtual thread before JDK 24), and checks answer from the last good list
 * throughout. {@link #close()} stops the poller.
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

  private final RevocationListSource source;
  private final TokenCodec reader;
  private final Clock clock;
  private final OnStale onStale;
  private final ScheduledExecutorService poller;
  /** The refresh in progress, if any: the others wait for it rather than fetch again. */
  private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();
  /** The list in use; swapped whole, so a check never sees one list's entries with another's expiry. */
  private volatile Copy copy;

  private record Copy(RevocationStore store, long expires) {
    boolean expiredAt(Clock clock) {
      return clock.millis() / 1000 > expires;
    }
  }

  private PublishedRevocations(Builder b) {
    this.clock = b.clock;
    this.onStale = b.onStale;
    this.reader = RevocationListFormat.reader(b.keys, b.issuer, b.audience, MAX_BYTES, b.clock);
    this.source = new RevocationListSource(b.url, b.file, b.timeout, MAX_BYTES);
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
   * @throws IllegalArgumentException if the codec has another token type, or an algorithm that
   *     encrypts ({@code dir}/A256GCM): a list is signed
   */
  public static String sign(TokenCodec codec, Map<String, Instant> sessions, Map<String, List<Instant>> subjects,
      Clock clock) {
    return RevocationListFormat.sign(codec, sessions, subjects, clock);
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
    Copy c = copy;
    if (onStale == OnStale.FAIL_CLOSED && c.expiredAt(clock)) {
      throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE,
          "the revocation list expired at " + Instant.ofEpochSecond(c.expires()) + " and no newer one could be"
              + " read from " + describe() + ": check the publisher (this node fails closed by configuration)");
    }
    return c.store();
  }

  /** When the list in use expires (its {@code exp}). */
  public Instant expiresAt() {
    return Instant.ofEpochSecond(copy.expires());
  }

  /**
   * Whether the list in use has expired and no newer one could be read: judged now, from the
   * list's {@code exp}, whether or not the poller still runs (an {@code Error} ends a scheduled
   * task for good, and a node that fails closed must not then stay open).
   */
  public boolean isStale() {
    return copy.expiredAt(clock);
  }

  /**
   * Reads the list now (the poller does this every poll interval). If a read is already in
   * progress (the poller's, or another caller's), waits for it and shares its outcome instead
   * of fetching again. No lock is held while waiting or fetching.
   *
   * @throws KeyringException if it cannot be read, or is refused (not signed by a key of the
   *     set, wrong type, expired, malformed): the last good copy stays in use
   */
  public void refresh() {
    CompletableFuture<Void> mine = new CompletableFuture<>();
    CompletableFuture<Void> running = inFlight.compareAndExchange(null, mine);
    if (running != null) {
      awaitOther(running);
      return;
    }
    Throwable failure = null;
    try {
      RevocationListSource.Fetched list = source.fetchIfChanged();
      if (list != null) {
        RevocationListFormat.Read read = RevocationListFormat.read(reader, list.text(), clock);
        copy = new Copy(read.store(), read.expiresEpochSecond());
        source.accepted(list);
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      inFlight.set(null);
      if (failure == null) {
        mine.complete(null);
      } else {
        mine.completeExceptionally(failure);
      }
    }
  }

  /** Waits (parked, interruptibly) for another caller's refresh and rethrows its failure. */
  private static void awaitOther(CompletableFuture<Void> running) {
    try {
      running.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
          "interrupted while waiting for the revocation list being read", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof KeyringException k) {
        throw new KeyringException(k.reason(), k.getMessage(), k); // this caller's stack, the same reason
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new KeyringException(KeyringException.Reason.INTERNAL, "reading the revocation list failed", cause);
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the revocation list at " + describe() + " was not read: "
          + e.getMessage() + (isStale() ? "; the list in use has EXPIRED (" + onStale + ")" : "; the last list stays in use"));
    }
  }

  private String describe() {
    return source.describe();
  }

  /** Stops the poller. */
  @Override
  public void close() {
    poller.shutdownNow();
  }

  @Override
  public String toString() {
    return "PublishedRevocations[" + describe() + ", expires " + expiresAt() + (isStale() ? ", STALE" : "") + "]";
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
     * @throws KeyringException {@code CONFIGURATION} if the keys hold no key that verifies a
     *     signed list (only {@code dir}/A256GCM keys, which encrypt); another reason if the list
     *     cannot be read or is refused
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
