package dev.sessionless.redis;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.redis.internal.Entries;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A {@link RevocationStore} shared by every node through Redis. Each node keeps a local copy in
 * memory and answers {@link #isRevoked} and {@link #notBefore} from it only (one hash look-up,
 * no I/O on the request path). A revocation is written to Redis (as a key that expires, by a
 * Redis TTL, when the tokens it revokes have expired, so Redis stays bounded too), applied to
 * this node's copy at once, and published; every node subscribed to the channel applies it
 * within milliseconds. Polling is the fallback: every {@link Builder#pollInterval poll
 * interval}, and whenever the subscription is (re-)established, a node reads every entry from
 * Redis, so a missed message is picked up within one interval. The revocation lag is therefore
 * the publish latency while the subscription is up, at most the poll interval otherwise.
 *
 * <pre>{@code
 * RedisRevocations revocations = RedisRevocations.builder()
 *     .uri("redis://redis.internal:6379").pollInterval(Duration.ofSeconds(30)).build();
 * SessionlessFilter filter = SessionlessFilter.builder()...revocation(revocations).build();
 * }</pre>
 *
 * <p><b>When Redis is down</b>, reads keep answering from the local copy (revocations made
 * before the outage still hold), and {@link #revokeSession}/{@link #revokeSubject} apply the
 * revocation here and then throw {@code TokenException} reason {@code REVOCATION_UNAVAILABLE}
 * (an outage, with Jedis's exception as its cause; the servlet filter answers it {@code 503}
 * with {@code Retry-After}): a logout that cannot be shared is reported, never silently local. The
 * copy catches up at the next successful poll. Once no full read has succeeded for longer than
 * the {@linkplain Builder#staleBound stale bound} (5 minutes by default), the copy is
 * <i>stale</i>: with {@link OnStale#FAIL_OPEN} (the default) the node keeps answering from it
 * and warns once; with {@link OnStale#FAIL_CLOSED} every check throws {@code
 * REVOCATION_UNAVAILABLE} (a server error, never a silent logout) until a read succeeds again.
 * The default is open because the one who holds a stolen cookie cannot cut a node off from
 * Redis, so failing closed would turn a Redis outage into an outage of every session without
 * protecting against that attacker; a deployment that prefers refusing to serving possibly
 * revoked sessions for the outage's length says so.
 *
 * <p><b>Security.</b> Redis holds session ids and subjects, never tokens. Whoever can write to
 * the key prefix or publish on the channel can log users out (not in); protect Redis as you
 * protect the application's database. Values read from Redis are checked for shape and size.
 *
 * <p>Thread-safe. {@link #close()} stops the subscriber and poller threads and the connections.
 */
public final class RedisRevocations implements RevocationStore, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RedisRevocations.class.getName());

  /** What a node does once its copy is stale: no full read from Redis within the stale bound. */
  public enum OnStale {
    /** Keep answering from the last copy (and warn): the default, see the class comment. */
    FAIL_OPEN,
    /** Throw {@code REVOCATION_UNAVAILABLE} on every check until a read from Redis succeeds. */
    FAIL_CLOSED
  }

  private static final String SESSION_SCRIPT =
      "local cur = tonumber(redis.call('GET', KEYS[1]) or '0') or 0\n"
      + "local new = tonumber(ARGV[1])\n"
      + "if cur >= new then return 0 end\n"
      + "redis.call('SET', KEYS[1], ARGV[1], 'EXAT', ARGV[1])\n"
      + "redis.call('PUBLISH', KEYS[2], ARGV[2])\n"
      + "return 1";
  private static final String SUBJECT_SCRIPT =
      "local nb = tonumber(ARGV[1])\n"
      + "local til = tonumber(ARGV[2])\n"
      + "local cur = redis.call('GET', KEYS[1])\n"
      + "if cur then\n"
      + "  local a, b = string.match(cur, '^(%d+) (%d+)$')\n"
      + "  if a then nb = math.max(nb, tonumber(a)); til = math.max(til, tonumber(b)) end\n"
      + "end\n"
      + "redis.call('SET', KEYS[1], string.format('%d %d', nb, til), 'EXAT', string.format('%d', til))\n"
      + "redis.call('PUBLISH', KEYS[2], ARGV[3])\n"
      + "return 1";

  private final RedisClient client;
  private final RevocationStore local;
  private final String sessionPrefix;
  private final String subjectPrefix;
  private final String channel;
  private final ScheduledExecutorService poller;
  private final Thread subscriber;
  private final JedisPubSub listener;
  private final AtomicLong syncs = new AtomicLong();
  private final Clock clock;
  private final long staleBoundMillis;
  private final boolean failClosed;
  /** When the last full read from Redis succeeded, by {@link #clock}: staleness is judged from it. */
  private volatile long lastSyncMillis;
  /** Whether the stale state was logged (by whichever thread saw it first), so it is logged once. */
  private final AtomicBoolean staleReported = new AtomicBoolean();
  private volatile boolean closed;

  private RedisRevocations(Builder b) {
    this.clock = b.clock;
    this.staleBoundMillis = b.staleBound.toMillis();
    this.failClosed = b.onStale == OnStale.FAIL_CLOSED;
    this.client = RedisClient.create(b.uri);
    this.local = RevocationStore.inMemory(b.clock);
    this.sessionPrefix = b.prefix + "s:";
    this.subjectPrefix = b.prefix + "u:";
    this.channel = b.prefix + "events";
    try {
      sync(); // a node starts with the whole list, or not at all
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sessionless-redis-poll"));
    long every = b.pollInterval.toMillis();
    poller.scheduleWithFixedDelay(this::pollQuietly, every, every, TimeUnit.MILLISECONDS);
    this.listener = new JedisPubSub() {
      @Override
      public void onMessage(String ch, String message) {
        if (!Entries.applyMessage(message, local)) {
          LOG.log(System.Logger.Level.WARNING, "ignored a malformed message on " + ch);
        }
      }

      @Override
      public void onSubscribe(String ch, int count) {
        // Messages published while this node was not subscribed are read from the keys.
        poller.execute(RedisRevocations.this::pollQuietly);
      }
    };
    this.subscriber = daemon(this::subscribeLoop, "sessionless-redis-subscriber");
    if (b.subscribe) {
      subscriber.start();
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** A builder; {@link Builder#uri} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@inheritDoc}
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the copy is stale and the node fails
   *     closed
   */
  @Override
  public boolean isRevoked(String sessionId) {
    checkFresh();
    return local.isRevoked(sessionId);
  }

  /**
   * {@inheritDoc}
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the copy is stale and the node fails
   *     closed
   */
  @Override
  public Optional<Instant> notBefore(String subject) {
    checkFresh();
    return local.notBefore(subject);
  }

  /**
   * Judges staleness here, on the read path, from the time of the last successful read (one
   * clock read and a comparison), so it holds even if the poller has died: an {@code Error}
   * ends a scheduled task for good, and a node that fails closed must not then stay open.
   */
  private void checkFresh() {
    if (isStale()) {
      reportStale(null);
      if (failClosed) {
        throw unavailable();
      }
    }
  }

  /** Logs, once per stale spell, that the copy went stale; {@code cause} is the poller's last error, if any. */
  private void reportStale(RuntimeException cause) {
    if (staleReported.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.ERROR, "no revocations could be read from Redis since " + lastSync()
          + ", longer than the stale bound: " + (failClosed
              ? "every revocation check now fails with REVOCATION_UNAVAILABLE (FAIL_CLOSED) until a read succeeds"
              : "this node keeps answering from its last copy (FAIL_OPEN)")
          + (cause == null ? "; the poller has not read Redis (see its earlier warnings, or it has stopped)"
              : "; last error " + cause.getClass().getSimpleName()));
    }
  }

  private TokenException unavailable() {
    return new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "no revocations could be read from"
        + " Redis since " + lastSync() + " (stale bound " + Duration.ofMillis(staleBoundMillis) + "): check Redis;"
        + " this node fails closed by configuration");
  }

  /**
   * Whether the copy is stale: no full read from Redis has succeeded within the stale bound, by
   * the builder's clock (judged at each call, whether or not the poller still runs).
   */
  public boolean isStale() {
    return clock.millis() - lastSyncMillis > staleBoundMillis;
  }

  /** When the last full read from Redis succeeded (by the builder's clock). */
  public Instant lastSync() {
    return Instant.ofEpochMilli(lastSyncMillis);
  }

  /**
   * Revokes the session on every node: written to Redis (kept until {@code until}), applied here
   * at once, published to the others.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} (an outage, no rejection; Jedis's
   *     exception as its cause) if Redis cannot be written: the revocation was applied on this
   *     node only, and the caller should retry it (the servlet filter answers {@code 503} with
   *     {@code Retry-After})
   */
  @Override
  public void revokeSession(String sessionId, Instant until) {
    local.revokeSession(sessionId, until); // checks the arguments too
    long u = until.getEpochSecond();
    try {
      client.eval(SESSION_SCRIPT, List.of(sessionPrefix + sessionId, channel),
          List.of(Long.toString(u), Entries.sessionMessage(sessionId, u)));
    } catch (RuntimeException e) {
      throw notWritten("the session's revocation", e);
    }
  }

  private static TokenException notWritten(String what, RuntimeException cause) {
    return new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, what + " was applied on this node but "
        + "could not be written to Redis (" + cause.getClass().getSimpleName() + "), so other nodes do not know it "
        + "yet: retry it once Redis answers", cause);
  }

  /**
   * Logs the subject out everywhere: written to Redis (kept until {@code until}), applied here at
   * once, published to the others.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} (an outage, no rejection; Jedis's
   *     exception as its cause) if Redis cannot be written: the revocation was applied on this
   *     node only, and the caller should retry it
   */
  @Override
  public void revokeSubject(String subject, Instant notBefore, Instant until) {
    if (Objects.requireNonNull(subject, "subject").length() > Entries.MAX_SUBJECT) {
      throw new IllegalArgumentException("a subject must be at most " + Entries.MAX_SUBJECT + " characters");
    }
    local.revokeSubject(subject, notBefore, until);
    long nb = notBefore.getEpochSecond();
    long u = until.getEpochSecond();
    try {
      client.eval(SUBJECT_SCRIPT, List.of(subjectPrefix + subject, channel),
          List.of(Long.toString(nb), Long.toString(u), Entries.subjectMessage(subject, nb, u)));
    } catch (RuntimeException e) {
      throw notWritten("the subject's logout", e);
    }
  }

  /** How many full reads of the list from Redis this node has made (at start, by polling, on subscribe). */
  public long syncCount() {
    return syncs.get();
  }

  private void subscribeLoop() {
    long backoff = 100;
    while (!closed) {
      try {
        client.subscribe(listener, channel); // blocks until unsubscribed or the connection drops
        backoff = 100;
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        LOG.log(System.Logger.Level.WARNING, "the Redis subscription dropped (" + e.getClass().getSimpleName()
            + "); polling carries revocations until it is back");
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException ie) {
          return;
        }
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  private void pollQuietly() {
    try {
      sync();
      if (staleReported.getAndSet(false)) {
        LOG.log(System.Logger.Level.WARNING, "revocations are read from Redis again; the copy is fresh");
      }
    } catch (RuntimeException e) {
      if (isStale()) {
        reportStale(e);
      } else {
        LOG.log(System.Logger.Level.WARNING, "reading revocations from Redis failed (" + e.getClass().getSimpleName()
            + "): this node keeps its copy and tries again at the next poll");
      }
    }
  }

  /** Reads every entry under the prefix into the local copy. */
  private void sync() {
    scan(sessionPrefix, (id, value) -> Entries.session(id, value, local));
    scan(subjectPrefix, (subject, value) -> Entries.subject(subject, value, local));
    lastSyncMillis = clock.millis();
    syncs.incrementAndGet();
  }

  private interface Apply {
    boolean apply(String name, String value);
  }

  private void scan(String prefix, Apply apply) {
    ScanParams params = new ScanParams().match(prefix + "*").count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = client.scan(cursor, params);
      List<String> keys = new ArrayList<>(page.getResult());
      if (!keys.isEmpty()) {
        List<String> values = client.mget(keys.toArray(new String[0]));
        for (int i = 0; i < keys.size(); i++) {
          String v = values.get(i);
          if (v != null && !apply.apply(keys.get(i).substring(prefix.length()), v)) {
            LOG.log(System.Logger.Level.WARNING, "ignored a malformed revocation entry under " + prefix);
          }
        }
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
  }

  /** Stops the subscriber and the poller and closes the connections. */
  @Override
  public void close() {
    closed = true;
    try {
      if (listener.isSubscribed()) {
        listener.unsubscribe();
      }
    } catch (RuntimeException ignored) {
      // the connection is going anyway
    }
    poller.shutdownNow();
    subscriber.interrupt();
    client.close();
  }

  @Override
  public String toString() {
    return "RedisRevocations[channel=" + channel + "]";
  }

  /** Configures {@link RedisRevocations}; each option may be set once. Not thread-safe. */
  public static final class Builder {
    private URI uri;
    private String prefix;
    private Duration pollInterval;
    private Clock clock;
    private Boolean subscribeOption;
    private boolean subscribe;
    private Duration staleBound;
    private OnStale onStale;

    private Builder() {}

    private static void once(Object current, String option) {
      BuilderChecks.once(current, option);
    }

    /** The Redis server, e.g. {@code redis://host:6379} or {@code rediss://user:pass@host:6380/0}. Required. */
    public Builder uri(String uri) {
      once(this.uri, "uri");
      this.uri = URI.create(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    /** The prefix of every key and of the channel; {@code sessionless:revocation:} if not set. */
    public Builder keyPrefix(String prefix) {
      once(this.prefix, "keyPrefix");
      this.prefix = Objects.requireNonNull(prefix, "prefix");
      return this;
    }

    /**
     * How often each node reads the whole list, the lag bound when publish/subscribe is down;
     * 30 seconds if not set; 100 ms to 1 hour.
     */
    public Builder pollInterval(Duration interval) {
      once(this.pollInterval, "pollInterval");
      this.pollInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** The clock deciding when local entries expire; the system UTC clock if not set. */
    public Builder clock(Clock clock) {
      once(this.clock, "clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether to subscribe for pushed revocations; on if not set. Off leaves polling alone (a
     * Redis that forbids SUBSCRIBE, or a test of the fallback).
     */
    public Builder subscribe(boolean subscribe) {
      once(this.subscribeOption, "subscribe");
      this.subscribeOption = subscribe;
      return this;
    }

    /**
     * How long without a successful full read from Redis before the copy counts as stale (see
     * {@link #onStale}); 5 minutes if not set (twice the poll interval if that is longer); longer
     * than the poll interval, at most 1 day.
     */
    public Builder staleBound(Duration bound) {
      once(this.staleBound, "staleBound");
      this.staleBound = Objects.requireNonNull(bound, "bound");
      return this;
    }

    /** What to do once the copy is stale; {@link OnStale#FAIL_OPEN} if not set (see the class comment). */
    public Builder onStale(OnStale policy) {
      once(this.onStale, "onStale");
      this.onStale = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Connects, reads the whole list once, and starts the subscriber and poller threads.
     *
     * @throws IllegalStateException if the URI is missing or options are out of range
     * @throws RuntimeException Jedis's exception if Redis cannot be read at start
     */
    public RedisRevocations build() {
      if (uri == null) {
        throw new IllegalStateException("uri is required, e.g. redis://127.0.0.1:6379");
      }
      String scheme = String.valueOf(uri.getScheme());
      if (!scheme.equals("redis") && !scheme.equals("rediss")) {
        throw new IllegalStateException("uri must be redis:// or rediss://, got " + scheme + "://");
      }
      if (prefix == null) {
        prefix = "sessionless:revocation:";
      }
      if (pollInterval == null) {
        pollInterval = Duration.ofSeconds(30);
      } else if (pollInterval.toMillis() < 100 || pollInterval.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalStateException("pollInterval must be 100 ms to 1 hour, got " + pollInterval);
      }
      if (staleBound == null) {
        staleBound = Duration.ofMinutes(5).compareTo(pollInterval) > 0 ? Duration.ofMinutes(5) : pollInterval.multipliedBy(2);
      } else if (staleBound.compareTo(pollInterval) <= 0 || staleBound.compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalStateException("staleBound must be longer than the poll interval (" + pollInterval
            + ") and at most 1 day, got " + staleBound + ": a healthy node reads Redis once per poll interval");
      }
      onStale = onStale == null ? OnStale.FAIL_OPEN : onStale;
      if (clock == null) {
        clock = Clock.systemUTC();
      }
      subscribe = subscribeOption == null || subscribeOption;
      return new RedisRevocations(this);
    }
  }
}
