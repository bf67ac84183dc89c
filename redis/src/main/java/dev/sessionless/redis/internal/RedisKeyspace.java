package dev.sessionless.redis.internal;

import dev.sessionless.core.RevocationStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis side of {@code RedisRevocations}: under a prefix, {@code <prefix>s:<session id>} and
 * {@code <prefix>u:<subject>} keys (values in {@link Entries}' forms) and the channel {@code
 * <prefix>events}. Writes go through two Lua scripts, each of which keeps the later instant when
 * an entry is written twice, sets the key to expire at its until second ({@code SET ... EXAT},
 * Redis 6.2+) and publishes the entry; the full read is {@code SCAN} + {@code MGET}.
 *
 * <p>Every method but {@link #subscribeLoop} does network I/O on the caller's thread and throws
 * Jedis's runtime exception if Redis cannot be reached; none holds a lock while it waits.
 */
public final class RedisKeyspace {
  private static final System.Logger LOG = System.getLogger("dev.sessionless.redis.RedisRevocations");

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
  private final String sessionPrefix;
  private final String subjectPrefix;
  private final String channel;

  /** The keyspace under {@code prefix}, through {@code client} (which the caller closes). */
  public RedisKeyspace(RedisClient client, String prefix) {
    this.client = client;
    this.sessionPrefix = prefix + "s:";
    this.subjectPrefix = prefix + "u:";
    this.channel = prefix + "events";
  }

  /** The channel entries are published on. */
  public String channel() {
    return channel;
  }

  /** Writes a revoked session (kept until the epoch second {@code until}) and publishes it. */
  public void writeSession(String sessionId, long until) {
    client.eval(SESSION_SCRIPT, List.of(sessionPrefix + sessionId, channel),
        List.of(Long.toString(until), Entries.sessionMessage(sessionId, until)));
  }

  /** Writes a subject's not-before second (kept until {@code until}) and publishes it. */
  public void writeSubject(String subject, long notBefore, long until) {
    client.eval(SUBJECT_SCRIPT, List.of(subjectPrefix + subject, channel),
        List.of(Long.toString(notBefore), Long.toString(until), Entries.subjectMessage(subject, notBefore, until)));
  }

  /** Reads every entry under the prefix into {@code local}; malformed ones are logged and skipped. */
  public void readAll(RevocationStore local) {
    scan(sessionPrefix, (id, value) -> Entries.session(id, value, local));
    scan(subjectPrefix, (subject, value) -> Entries.subject(subject, value, local));
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

  /**
   * A subscriber that applies each published entry to {@code local} and runs {@code
   * onSubscribe} whenever the subscription is (re-)established (messages published while it was
   * down are then read from the keys).
   */
  public static JedisPubSub listener(RevocationStore local, Runnable onSubscribe) {
    return new JedisPubSub() {
      @Override
      public void onMessage(String ch, String message) {
        if (!Entries.applyMessage(message, local)) {
          LOG.log(System.Logger.Level.WARNING, "ignored a malformed message on " + ch);
        }
      }

      @Override
      public void onSubscribe(String ch, int count) {
        onSubscribe.run();
      }
    };
  }

  /**
   * Keeps {@code listener} subscribed to the channel until {@code closed} says so or the thread
   * is interrupted, reconnecting with a backoff from 100 ms to 10 s; the body of the
   * subscriber thread.
   */
  public void subscribeLoop(JedisPubSub listener, BooleanSupplier closed) {
    long backoff = 100;
    while (!closed.getAsBoolean()) {
      try {
        client.subscribe(listener, channel); // blocks until unsubscribed or the connection drops
        backoff = 100;
      } catch (RuntimeException e) {
        if (closed.getAsBoolean()) {
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
}
