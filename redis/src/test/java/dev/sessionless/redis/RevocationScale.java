package dev.sessionless.redis;

import dev.sessionless.core.RevocationStore;
import dev.sessionless.redis.internal.RedisKeyspace;
import dev.sessionless.testing.RedisServer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;

/**
 * The figures an operator sizes the Redis store by (redis/README.md, "Numbers for an
 * operator"), against a real {@code redis-server} on loopback: for 10 k, 100 k and 1 M live
 * revoked sessions (22-character ids, as the session module makes them), the memory of the
 * structures in Redis ({@code MEMORY USAGE ... SAMPLES 0}), the heap a node's copy retains, the
 * time and bytes a node's full read at start costs, the cost of an incremental read of 1,000 new
 * entries, and Redis's CPU per write and per read script ({@code INFO commandstats}); then 100 k
 * subjects' "log out everywhere" entries. The sessions are loaded in bulk in the store's layout;
 * 10,000 writes through the store time the write path. Not a test and not JMH: one fill, printed figures,
 * indicative on a shared machine.
 *
 * <pre>
 * mvn -B -ntp -q -pl redis -am test-compile -Dsurefire.failIfNoSpecifiedTests=false
 * mvn -B -ntp -q -pl redis dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * nice -n 19 java -Xmx2g -cp redis/target/test-classes:redis/target/classes:$(cat /tmp/cp.txt) \
 *     dev.sessionless.redis.RevocationScale [largest, default 1000000]
 * </pre>
 */
public final class RevocationScale {
  private static final String PREFIX = "scale:";
  private static final int WRITERS = 4;

  private RevocationScale() {}

  /**
   * Runs the measurement and prints it.
   *
   * @param args optionally the largest number of live revocations (default 1,000,000)
   */
  public static void main(String[] args) throws Exception {
    int largest = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    try (RedisServer redis = RedisServer.start();
        // MEMORY USAGE ... SAMPLES 0 walks a million members: more than Jedis's 2 s on a loaded machine
        RedisClient raw = RedisClient.builder().hostAndPort("127.0.0.1", redis.port())
            .clientConfig(DefaultJedisClientConfig.builder().socketTimeoutMillis(300_000).build()).build()) {
      System.out.printf("Redis %s, JVM %s, %d cores; live revoked sessions, 22-char ids%n",
          field(raw.info("server"), "redis_version"), Runtime.version(), Runtime.getRuntime().availableProcessors());
      Instant until = Instant.now().plus(Duration.ofHours(2));
      Random random = new Random(1);
      resetStat(raw);
      double cpu0 = cpuSeconds(raw);
      long t0 = System.nanoTime();
      storeWrites(redis.uri(), "writes:", ids(10_000, random), until);
      double fillSeconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("10,000 revocations written through the store (%d writers): %.0f writes/s,"
          + " Redis %.1f µs per write script (wall, commandstats), %.1f µs CPU per write (INFO cpu)%n", WRITERS,
          10_000 / fillSeconds, usecPerCall(raw.info("commandstats")), (cpuSeconds(raw) - cpu0) * 1e6 / 10_000);
      int filled = 0;
      for (int n = 10_000; n <= largest; n *= 10) {
        bulkLoad(raw, ids(n - filled, random), until, filled);
        filled = n;
        long mem = 0;
        for (String k : List.of("expiry", "changes", "meta", "notbefore")) {
          Long m = raw.memoryUsage("{" + PREFIX + "}" + k, 0);
          mem += m == null ? 0 : m;
        }
        System.out.printf("%n%,d live: Redis holds %.1f MB (%.0f bytes per entry, %.1f MB per 100 k)%n",
            n, mem / 1e6, (double) mem / n, mem * 100_000.0 / n / 1e6);
        fullAndIncremental(raw, redis.uri(), n, until);
      }
      subjects(raw, redis.uri(), until);
    }
  }

  private static void fullAndIncremental(RedisClient raw, String uri, int n, Instant until) throws Exception {
    MemoryMXBean heap = ManagementFactory.getMemoryMXBean();
    long before = usedAfterGc(heap);
    resetStat(raw);
    double cpu0 = cpuSeconds(raw);
    long out0 = Long.parseLong(field(raw.info("stats"), "total_net_output_bytes"));
    long t0 = System.nanoTime();
    RevocationStore copy = RevocationStore.inMemory(Clock.systemUTC());
    RedisKeyspace keyspace;
    try (RedisClient client = RedisClient.builder().fromURI(uri)
        .clientConfig(DefaultJedisClientConfig.builder().socketTimeoutMillis(300_000).build()).build()) {
      keyspace = new RedisKeyspace(client, PREFIX);
      long read = keyspace.readChanges(copy);
      double ms = (System.nanoTime() - t0) / 1e6;
      long bytes = Long.parseLong(field(raw.info("stats"), "total_net_output_bytes")) - out0;
      double readUs = usecPerCall(raw.info("commandstats"));
      double cpu = cpuSeconds(raw) - cpu0;
      long retained = usedAfterGc(heap) - before;
      System.out.printf("  full read at start: %,d entries in %.0f ms, %.1f MB from Redis (%.0f bytes per entry),"
          + " %d pages of %,d, Redis %.0f µs per page (wall), %.2f µs CPU per entry (INFO cpu)%n", read, ms,
          bytes / 1e6, (double) bytes / read, (read + RedisKeyspace.PAGE - 1) / RedisKeyspace.PAGE, RedisKeyspace.PAGE,
          readUs, cpu * 1e6 / read);
      System.out.printf("  node heap for the copy: %.1f MB (%.0f bytes per entry, %.1f MB per 100 k)%n",
          retained / 1e6, (double) retained / n, retained * 100_000.0 / n / 1e6);

      for (int i = 0; i < 1000; i++) {
        keyspace.writeSession("inc-" + n + "-" + i, until.getEpochSecond()); // the store's write, without its start
      }
      long out1 = Long.parseLong(field(raw.info("stats"), "total_net_output_bytes"));
      long t1 = System.nanoTime();
      long inc = keyspace.readChanges(copy);
      double incMs = (System.nanoTime() - t1) / 1e6;
      long incBytes = Long.parseLong(field(raw.info("stats"), "total_net_output_bytes")) - out1;
      System.out.printf("  incremental read after 1,000 new: %,d entries in %.1f ms, %.0f KB%n", inc, incMs, incBytes / 1e3);
      if (copy.isRevoked("nothing")) {
        throw new AssertionError(); // keeps the copy reachable until here
      }
    }
  }

  private static void subjects(RedisClient raw, String uri, Instant until) throws Exception {
    String prefix = "subjects:";
    try (RedisRevocations store = RedisRevocations.builder().uri(uri).keyPrefix(prefix).subscribe(false).build()) {
      Instant now = Instant.now();
      for (int i = 0; i < 100_000; i++) {
        store.revokeSubject("user-" + i + "@example.com", now, until);
      }
    }
    long mem = 0;
    for (String k : List.of("expiry", "changes", "meta", "notbefore")) {
      Long m = raw.memoryUsage("{" + prefix + "}" + k, 0);
      mem += m == null ? 0 : m;
    }
    System.out.printf("%n100,000 subjects logged out everywhere (~22-char subjects): Redis holds %.1f MB"
        + " (%.0f bytes per subject)%n", mem / 1e6, mem / 100_000.0);
  }

  private static String[] ids(int count, Random random) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String[] ids = new String[count];
    byte[] b = new byte[16];
    for (int i = 0; i < count; i++) {
      random.nextBytes(b);
      ids[i] = b64.encodeToString(b);
    }
    return ids;
  }

  /**
   * Loads revoked sessions straight into the layout the store writes ({@code expiry} and {@code
   * changes}, 1,000 members per {@code ZADD}, and {@code meta}'s sequence number): the write
   * script costs tens of µs per call on this loaded machine, and a million calls would measure
   * the machine, not the read. The write path is timed apart, by {@link #storeWrites}.
   */
  private static void bulkLoad(RedisClient raw, String[] ids, Instant until, int seqFrom) {
    String tag = "{" + PREFIX + "}";
    for (int from = 0; from < ids.length; from += 1000) {
      java.util.Map<String, Double> expiry = new java.util.HashMap<>();
      java.util.Map<String, Double> changes = new java.util.HashMap<>();
      for (int i = from; i < Math.min(ids.length, from + 1000); i++) {
        expiry.put("s" + ids[i], (double) until.getEpochSecond());
        changes.put("s" + ids[i], (double) (seqFrom + i + 1));
      }
      raw.zadd(tag + "expiry", expiry);
      raw.zadd(tag + "changes", changes);
    }
    raw.hset(tag + "meta", "seq", Long.toString(seqFrom + ids.length));
    raw.hsetnx(tag + "meta", "gen", "5ca1e");
  }

  /** Writes the revoked sessions through the store, from {@link #WRITERS} threads. */
  private static void storeWrites(String uri, String prefix, String[] ids, Instant until) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int from = w;
        done.add(pool.submit(() -> {
          try (RedisRevocations store = RedisRevocations.builder().uri(uri).keyPrefix(prefix).subscribe(false)
              .pollInterval(Duration.ofHours(1)).staleBound(Duration.ofDays(1)).build()) {
            for (int i = from; i < ids.length; i += WRITERS) {
              store.revokeSession(ids[i], until);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Redis's own CPU time so far, user plus system, from {@code INFO cpu}. */
  private static double cpuSeconds(RedisClient raw) {
    String cpu = raw.info("cpu");
    return Double.parseDouble(field(cpu, "used_cpu_user")) + Double.parseDouble(field(cpu, "used_cpu_sys"));
  }

  private static void resetStat(RedisClient raw) {
    raw.sendCommand(redis.clients.jedis.Protocol.Command.CONFIG, "RESETSTAT");
  }

  /** Redis's {@code usec_per_call} of EVALSHA (the store's scripts). */
  private static double usecPerCall(String commandstats) {
    Matcher m = Pattern.compile("cmdstat_evalsha:calls=\\d+,usec=\\d+,usec_per_call=([0-9.]+)").matcher(commandstats);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  private static String field(String info, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ":(\\S+)").matcher(info);
    return m.find() ? m.group(1) : "?";
  }

  private static long usedAfterGc(MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
