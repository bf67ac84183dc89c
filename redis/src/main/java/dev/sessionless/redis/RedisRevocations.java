package dev.sessionless.redis;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.redis.internal.Connections;
import dev.sessionless.redis.internal.Entries;
import dev.sessionless.redis.internal.RedisKeyspace;
import dev.sessionless.redis.internal.Staleness;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link RevocationStore} shared by every node through Redis. Each node keeps a local copy in
 * memory and answers {@link #isRevoked} and {@link #notBefore} from it only (one hash look-up,
 * no I/O on the request path). A revocation is written to Redis (into a sorted set scored by
 * the instant the tokens it revokes have expired, trimmed by then, so Redis stays bounded too),
 * applied to this node's copy at once, and published; every node subscribed to the channel
 * applies it within milliseconds. Polling is the fallback: every {@link Builder#pollInterval
 * poll interval}, and whenever the subscription is (re-)established, a node reads what changed
 * since its last read (an index by change number: O(new revocations), no keyspace scan), so a
 * missed message is picked up within one interval. A node reads everything live once, at start
 * (O(live revocations)). The revocation lag is therefore the publish latency while the
 * subscription is up, at most the poll interval otherwise. Works on a single server and on a
 * Redis Cluster ({@link Builder#clusterNodes}): every structure shares one hash tag, so one
 * slot.
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
 * with {@code Retry-After}): a logout that cannot be shared at once is reported, never silently
 * local. The node keeps such revocations and writes them (and so publishes them) at its first
 * successful poll once Redis answers again, when its copy also catches up. Once no read has succeeded for longer than
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
  /** What a node does once its copy is stale: no read from Redis within the stale bound. */
  public enum OnStale {
    /** Keep answering from the last copy (and warn): the default, see the class comment. */
    FAIL_OPEN,
    /** Throw {@code REVOCATION_UNAVAILABLE} on every check until a read from Redis succeeds. */
    FAIL_CLOSED
  }

  private final UnifiedJedis client;
  private final RevocationStore local;
  private final RedisKeyspace keyspace;
  private final ScheduledExecutorService poller;
  private final Thread subscriber;
  private final JedisPubSub listener;
  private final Staleness staleness;
  /** Revocations applied here that Redis did not take; written at the next successful poll. */
  private final ConcurrentLinkedQueue<Runnable> unwritten = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  private RedisRevocations(Builder b) {
    this.staleness = new Staleness(b.clock, b.staleBound, b.onStale == OnStale.FAIL_CLOSED);
    this.client = Connections.connect(b.uri, b.clusterNodes);
    this.local = RevocationStore.inMemory(b.clock);
    this.keyspace = new RedisKeyspace(client, b.prefix);
    try {
      sync(); // a node starts with every live entry, or not at all
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sessionless-redis-poll"));
    long every = b.pollInterval.toMillis();
    poller.scheduleWithFixedDelay(this::pollQuietly, every, every, TimeUnit.MILLISECONDS);
    // Messages published while this node was not subscribed are read from the keys.
    this.listener = RedisKeyspace.listener(local, () -> poller.execute(this::pollQuietly));
    this.subscriber = daemon(() -> keyspace.subscribeLoop(listener, () -> closed), "sessionless-redis-subscriber");
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
    staleness.check();
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
    staleness.check();
    return local.notBefore(subject);
  }

  /**
   * Whether the copy is stale: no read from Redis has succeeded within the stale bound, by
   * the builder's clock (judged at each call, on the read path too, whether or not the poller
   * still runs: an {@code Error} ends a scheduled task for good, and a node that fails closed
   * must not then stay open).
   */
  public boolean isStale() {
    return staleness.isStale();
  }

  /** When the last read from Redis succeeded (by the builder's clock). */
  public Instant lastSync() {
    return staleness.lastSync();
  }

  /**
   * Revokes the session on every node: written to Redis (kept until {@code until}), applied here
   * at once, published to the others.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} (an outage, no rejection; Jedis's
   *     exception as its cause) if Redis cannot be written: the revocation was applied on this
   *     node only, and is written to Redis at this node's first successful poll once Redis
   *     answers (the servlet filter answers {@code 503} with {@code Retry-After})
   */
  @Override
  public void revokeSession(String sessionId, Instant until) {
    local.revokeSession(sessionId, until); // checks the arguments too
    long u = until.getEpochSecond();
    try {
      keyspace.writeSession(sessionId, u);
    } catch (RuntimeException e) {
      unwritten.add(() -> keyspace.writeSession(sessionId, u));
      throw notWritten("the session's revocation", e);
    }
  }

  private static TokenException notWritten(String what, RuntimeException cause) {
    return new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, what + " was applied on this node but "
        + "could not be written to Redis (" + cause.getClass().getSimpleName() + "), so other nodes do not know it "
        + "yet; this node writes it when Redis answers again (its next successful poll), or retry it then", cause);
  }

  /**
   * Logs the subject out everywhere: written to Redis (kept until {@code until}), applied here at
   * once, published to the others.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} (an outage, no rejection; Jedis's
   *     exception as its cause) if Redis cannot be written: the revocation was applied on this
   *     node only, and is written to Redis at this node's first successful poll once Redis
   *     answers
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
      keyspace.writeSubject(subject, nb, u);
    } catch (RuntimeException e) {
      unwritten.add(() -> keyspace.writeSubject(subject, nb, u));
      throw notWritten("the subject's logout", e);
    }
  }

  /** How many successful reads from Redis this node has made (the full one at start, then each poll, also on subscribe). */
  public long syncCount() {
    return staleness.syncCount();
  }

  private void pollQuietly() {
    try {
      sync();
      staleness.pollSucceeded();
      writeUnwritten();
    } catch (RuntimeException e) {
      staleness.pollFailed(e);
    }
  }

  /**
   * Writes the revocations Redis did not take when they were made, oldest first; one that fails
   * again stays for the next poll. Only the poller's thread runs this. Writing twice is safe: the
   * scripts keep the later instant.
   */
  private void writeUnwritten() {
    for (Runnable write = unwritten.peek(); write != null; write = unwritten.peek()) {
      write.run();
      unwritten.poll();
    }
  }

  /** Reads what changed since the last read (everything, the first time) into the local copy. */
  private void sync() {
    keyspace.readChanges(local);
    staleness.synced();
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
    return "RedisRevocations[channel=" + keyspace.channel() + "]";
  }

  /** Configures {@link RedisRevocations}; each option may be set once. Not thread-safe. */
  public static final class Builder {
    private URI uri;
    private List<URI> clusterNodes;
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

    /**
     * A Redis Cluster instead of a single server: the addresses of some of its masters (any one
     * that answers is enough to learn the others), e.g. {@code redis://10.0.0.1:6379}, all with
     * the same credentials. Either this or {@link #uri}.
     */
    public Builder clusterNodes(String... uris) {
      once(this.clusterNodes, "clusterNodes");
      this.clusterNodes = Arrays.stream(Objects.requireNonNull(uris, "uris"))
          .map(u -> URI.create(Objects.requireNonNull(u, "uri"))).toList();
      return this;
    }

    /**
     * The prefix of every structure and of the channel, inside braces (the hash tag: on a
     * cluster every structure shares one slot), e.g. {@code {sessionless:revocation:}expiry};
     * {@code sessionless:revocation:} if not set. No braces in it.
     */
    public Builder keyPrefix(String prefix) {
      once(this.prefix, "keyPrefix");
      this.prefix = Objects.requireNonNull(prefix, "prefix");
      return this;
    }

    /**
     * How often each node reads what changed since its last read, the lag bound when publish/subscribe is down;
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
     * How long without a successful read from Redis before the copy counts as stale (see
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
     * Connects, reads every live entry once, and starts the subscriber and poller threads.
     *
     * @throws IllegalStateException if the URI is missing or options are out of range
     * @throws RuntimeException Jedis's exception if Redis cannot be read at start
     */
    public RedisRevocations build() {
      Connections.check(uri, clusterNodes);
      if (prefix == null) {
        prefix = "sessionless:revocation:";
      } else if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
        throw new IllegalStateException("keyPrefix must not contain braces: the store wraps it in braces itself"
            + " (the hash tag that keeps its structures in one cluster slot), got " + prefix);
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
