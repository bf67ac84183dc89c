package dev.sessionless.redis.internal;

import dev.sessionless.core.RevocationStore;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The Redis side of {@code RedisRevocations}: four structures whose names share the hash tag
 * {@code {<prefix>}}, so on a Redis Cluster they live in one slot (one master) and a script may
 * touch them all, and the channel {@code {<prefix>}events}:
 * <ul>
 *   <li>{@code expiry}, a sorted set: member {@code s<session id>} or {@code u<subject>}, score
 *       the until second. Trimmed with {@code ZREMRANGEBYSCORE} by Redis's clock.</li>
 *   <li>{@code notbefore}, a hash: subject to its not-before second (one field per subject, the
 *       "log out all devices" epoch: one write per user, none per token).</li>
 *   <li>{@code changes}, a sorted set: the same members, scored by the sequence number of their
 *       last change. A node reads the members scored above the last number it has seen: a full
 *       read starts at 0 and costs O(live revocations); a poll costs O(revocations since).</li>
 *   <li>{@code meta}, a hash: {@code seq} (the last sequence number) and {@code gen} (a random
 *       generation, set by the first write: when Redis loses its data it changes, and every node
 *       reads from 0 again instead of waiting for the new numbers to pass its old ones).</li>
 * </ul>
 * Every structure expires (a Redis TTL) at the latest until second it holds, so an abandoned
 * prefix leaves nothing behind. No command here walks the keyspace ({@code SCAN}, {@code KEYS}).
 * Writes and reads are Lua scripts, sent as {@code EVALSHA} (with {@code EVAL} once when the
 * server does not have the script yet), which keep the later instant when an entry is written
 * twice and publish the merged entry ({@link Entries}' message form).
 *
 * <p>Every method but {@link #subscribeLoop} does network I/O on the caller's thread and throws
 * Jedis's runtime exception if Redis cannot be reached; none holds a lock while it waits.
 */
public final class RedisKeyspace {
  private static final System.Logger LOG = System.getLogger("dev.sessionless.redis.RedisRevocations");

  /**
   * Members read per round trip of a full or incremental read: about 4 ms of Redis's time on a
   * loaded machine (redis/README.md), so a node's start never blocks Redis for long.
   */
  public static final int PAGE = 1_000;
  /** Expired members a write removes at most (each write adds one, so trimming keeps up). */
  private static final int TRIM = 100;

  // KEYS: expiry, notbefore, changes, meta. ARGV: kind ('s'|'u'), name, until, notBefore, channel, generation.
  private static final Script WRITE = new Script(
      "redis.replicate_commands()\n"
      + "local exp, nb, chg, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4]\n"
      + "local kind, name = ARGV[1], ARGV[2]\n"
      + "local member = kind .. name\n"
      + "local til = tonumber(ARGV[3])\n"
      + "local changed = false\n"
      + "local cur = redis.call('ZSCORE', exp, member)\n"
      + "if cur and tonumber(cur) >= til then til = tonumber(cur) else redis.call('ZADD', exp, til, member); changed = true end\n"
      + "local n = 0\n"
      + "if kind == 'u' then\n"
      + "  n = tonumber(ARGV[4])\n"
      + "  local c = tonumber(redis.call('HGET', nb, name) or '-1')\n"
      + "  if c >= n then n = c else redis.call('HSET', nb, name, ARGV[4]); changed = true end\n"
      + "end\n"
      + "if not changed then return 0 end\n"
      + "redis.call('HSETNX', meta, 'gen', ARGV[6])\n"
      + "local seq = redis.call('HINCRBY', meta, 'seq', 1)\n"
      + "redis.call('ZADD', chg, seq, member)\n"
      + "local now = redis.call('TIME')[1]\n"
      + "local gone = redis.call('ZRANGEBYSCORE', exp, '-inf', '(' .. now, 'LIMIT', 0, " + TRIM + ")\n"
      + "for _, g in ipairs(gone) do\n"
      + "  redis.call('ZREM', chg, g); redis.call('ZREM', exp, g)\n"
      + "  if string.sub(g, 1, 1) == 'u' then redis.call('HDEL', nb, string.sub(g, 2)) end\n"
      + "end\n"
      + "local last = redis.call('ZRANGE', exp, -1, -1, 'WITHSCORES')\n"
      + "if last[2] then\n"
      + "  local at = string.format('%d', tonumber(last[2]) + 1)\n"
      + "  for _, k in ipairs(KEYS) do redis.call('EXPIREAT', k, at) end\n"
      + "end\n"
      + "local msg\n"
      + "if kind == 's' then msg = string.format('s %d %s', til, name)\n"
      + "else msg = string.format('u %d %d %s', n, til, name) end\n"
      + "redis.call('PUBLISH', ARGV[5], msg)\n"
      + "return seq");

  // KEYS as above. ARGV: the generation the node knows, the last sequence number it read, page size.
  // Returns {generation, member, seq, until, notBefore-or-empty, ...}.
  private static final Script READ = new Script(
      "local exp, nb, chg, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4]\n"
      + "local gen = redis.call('HGET', meta, 'gen') or ''\n"
      + "local after = ARGV[2]\n"
      + "if gen ~= ARGV[1] then after = '0' end\n"
      + "local page = redis.call('ZRANGEBYSCORE', chg, '(' .. after, '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))\n"
      + "local out = {gen}\n"
      + "for i = 1, #page, 2 do\n"
      + "  local m = page[i]\n"
      + "  local n = ''\n"
      + "  if string.sub(m, 1, 1) == 'u' then n = redis.call('HGET', nb, string.sub(m, 2)) or '' end\n"
      + "  out[#out + 1] = m; out[#out + 1] = page[i + 1]\n"
      + "  out[#out + 1] = redis.call('ZSCORE', exp, m) or ''; out[#out + 1] = n\n"
      + "end\n"
      + "return out");

  private final UnifiedJedis client;
  private final List<String> keys;
  private final String channel;
  /** The generation of Redis's data this node's cursor belongs to; "" before the first read. */
  private volatile String generation = "";
  /** The last sequence number read; only the reading thread (start, then the poller) moves it. */
  private volatile long cursor;

  /**
   * The structures under {@code prefix} (wrapped in braces: the hash tag), through {@code
   * client}, a single-server or cluster client, which the caller closes.
   */
  public RedisKeyspace(UnifiedJedis client, String prefix) {
    this.client = client;
    String tag = "{" + prefix + "}";
    this.keys = List.of(tag + "expiry", tag + "notbefore", tag + "changes", tag + "meta");
    this.channel = tag + "events";
  }

  /** The channel entries are published on. */
  public String channel() {
    return channel;
  }

  /** The names of the four structures: expiry, notbefore, changes, meta. */
  public List<String> keys() {
    return keys;
  }

  /** Writes a revoked session (kept until the epoch second {@code until}) and publishes it. */
  public void writeSession(String sessionId, long until) {
    WRITE.run(client, keys, List.of("s", sessionId, Long.toString(until), "0", channel, newGeneration()));
  }

  /** Writes a subject's not-before second (kept until {@code until}) and publishes it. */
  public void writeSubject(String subject, long notBefore, long until) {
    WRITE.run(client, keys, List.of("u", subject, Long.toString(until), Long.toString(notBefore), channel,
        newGeneration()));
  }

  private static String newGeneration() {
    return Long.toHexString(ThreadLocalRandom.current().nextLong() | 1L << 63);
  }

  /**
   * Reads every change since the last read into {@code local}, page by page: everything live on
   * the first call or after Redis lost its data (a new generation), only what changed since
   * otherwise. Malformed entries are logged and skipped. Called by one thread at a time.
   *
   * @return how many entries were read
   */
  public long readChanges(RevocationStore local) {
    long read = 0;
    while (true) {
      List<?> reply = (List<?>) READ.run(client, keys, List.of(generation, Long.toString(cursor), Integer.toString(PAGE)));
      String gen = String.valueOf(reply.get(0));
      if (!gen.equals(generation)) {
        generation = gen;
        cursor = 0; // Redis's data is not the one this cursor counted (or this is the first read)
      }
      int entries = (reply.size() - 1) / 4;
      for (int i = 1; i + 3 < reply.size(); i += 4) {
        String member = String.valueOf(reply.get(i));
        cursor = Math.max(cursor, Entries.seconds(String.valueOf(reply.get(i + 1))));
        if (!Entries.stored(member, String.valueOf(reply.get(i + 2)), String.valueOf(reply.get(i + 3)), local)) {
          LOG.log(System.Logger.Level.WARNING, "ignored a malformed revocation entry in " + keys.get(0));
        }
      }
      read += entries;
      if (entries < PAGE) {
        return read;
      }
    }
  }

  /** The last sequence number this node has read (0 before any). */
  public long cursor() {
    return cursor;
  }

  /**
   * A subscriber that applies each published entry to {@code local} and runs {@code
   * onSubscribe} whenever the subscription is (re-)established (messages published while it was
   * down are then read by an incremental read).
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
   * is interrupted, reconnecting with a backoff from 100 ms to 10 s; the body of the subscriber
   * thread. On a cluster the client subscribes on any master that answers: a {@code PUBLISH}
   * reaches subscribers on every node of the cluster.
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

  /** A Lua script sent by its digest, and in full once if the server does not have it. */
  private static final class Script {
    private final String source;
    private final String sha;

    Script(String source) {
      this.source = source;
      this.sha = sha1(source);
    }

    Object run(UnifiedJedis client, List<String> keys, List<String> args) {
      try {
        return client.evalsha(sha, keys, args);
      } catch (JedisNoScriptException e) {
        return client.eval(source, keys, args);
      }
    }

    private static String sha1(String s) {
      try {
        byte[] d = java.security.MessageDigest.getInstance("SHA-1")
            .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(d);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-1 is required of every JDK", e);
      }
    }
  }
}
