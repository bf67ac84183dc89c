package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The load tool's command line: {@code PROFILE[,PROFILE…] [--name=value …]}. */
public final class Options {
  /** The profiles the tool knows. */
  public static final List<String> PROFILES = List.of("peak", "stress", "soak", "flood", "faults", Options.REVOCATION_LAG);
  /** The profile that measures the Redis revocation store's lag and faults under load; runs alone. */
  public static final String REVOCATION_LAG = "revocation-lag";
  /** The systems the tool knows. */
  public static final List<String> SYSTEMS = List.of("sessionless", "session-sticky", "session-nonsticky",
      "spring-session-redis");
  /** The ceiling baseline: sticky in-memory sessions plus an opaque cookie as long as a token. */
  public static final String PADDED = "session-sticky-padded";
  /** Sessionless's token-backed {@code WebSession} on WebFlux and Reactor Netty. */
  public static final String WEBFLUX = "sessionless-webflux";
  /**
   * Systems run only when named: the padded baseline, a measuring aid rather than an alternative,
   * and the WebFlux system (kept out of the default four so the demo's runtime does not grow).
   */
  public static final List<String> EXTRA_SYSTEMS = List.of(PADDED, WEBFLUX);
  /**
   * The root README's demo: the {@code faults} profile alone, with {@link #DEMO_STEP},
   * {@link #DEMO_SYSTEM_WARMUP} and the library's default tokens ({@code dir}, {@code deflate}) as defaults, its files under {@link #DEMO_OUT} and only the side-by-side
   * table and what each system lost on standard output.
   */
  public static final String DEMO = "demo";
  /** The demo's default {@code --step}: each system's time under the faults. */
  static final String DEMO_STEP = "8s";
  /** The demo's default {@code --system-warmup}. */
  static final String DEMO_SYSTEM_WARMUP = "3s";
  /** The demo's default {@code --out}: the build's own directory, not the results kept in git. */
  static final String DEMO_OUT = "load/target/demo";

  public final List<String> profiles;
  /** Whether this is the README's demo ({@link #DEMO}): {@link #profiles} is then {@code faults} alone. */
  public final boolean demo;
  public final List<String> systems;
  public final int maxUsers;
  public final Duration step;
  public final Duration warmup;
  public final Duration think;
  /** How each think time is drawn around {@link #think} ({@code --think-distribution}). */
  public final dev.sessionless.load.ClosedPhase.Think thinkDistribution;
  public final Duration systemWarmup;
  /** The most time to keep warming up, systems in turn, until the JIT settles (zero: not at all). */
  public final Duration jitSettle;
  public final double startRate;
  public final double rateFactor;
  public final int maxSteps;
  public final double soakRate;
  public final Duration soakDuration;
  public final double p99LimitMillis;
  public final double targetRate;
  public final Path out;
  public final int users;
  /** How many fresh JVMs run the command one after the other ({@code --forks}); 1: this one only. */
  public final int forks;
  /** Which fork this JVM is, {@code i/N} ({@code --fork}, set by {@code --forks}); empty when not forked. */
  public final String fork;
  /** Faults: whether the key rotation keeps the old key for verification (false: a broken rotation). */
  public final boolean keepOldKey;
  /** The {@code redis-server} to run, or {@code null} for the launcher's choice (see {@code Cluster.redisExecutable}). */
  public final Path redisServer;
  /** Jetty's per-connection header cache size on every node of every system (Jetty's default: 1024). */
  public final int jettyHeaderCache;
  /** The padded baseline's cookie value length ({@code --padding}). */
  public final int padding;
  /** CPU time the shop spends on each request as its own work, every system alike ({@code --app-cpu}). */
  public final Duration appCpu;
  /** How the Sessionless nodes compress their tokens: {@code NONE} (the default) or a kind. */
  public final dev.sessionless.core.Compression sessionlessCompression;
  /** The Sessionless nodes' token algorithm: {@code HS256} (the default) or {@code DIR_A256GCM}. */
  public final dev.sessionless.core.Algorithm sessionlessAlgorithm;
  /** Who routes the requests ({@code --balancer}): the load client, a real HAProxy, or both in turn. */
  public final Balancer.Mode balancer;
  /** The {@code haproxy} to run ({@code --haproxy}), or {@code null} for {@code Haproxy.executable}'s choice. */
  public final Path haproxy;
  /** {@code revocation-lag}: logouts per second ({@code --logout-rate}). */
  public final double logoutRate;
  /** {@code revocation-lag}: every node store's poll interval ({@code --poll-interval}). */
  public final Duration pollInterval;
  /** {@code revocation-lag}: how long a revoked token is replayed on a node at most ({@code --replay-cap}). */
  public final Duration replayCap;

  private Options(Map<String, String> o, List<String> profiles, boolean demo) {
    this.profiles = profiles;
    this.demo = demo;
    this.systems = List.of(o.getOrDefault("systems", String.join(",", SYSTEMS)).split(","));
    for (String s : systems) {
      if (!SYSTEMS.contains(s) && !EXTRA_SYSTEMS.contains(s)) {
        throw bad("unknown system '" + s + "'; choose from " + SYSTEMS + " or " + EXTRA_SYSTEMS);
      }
    }
    this.maxUsers = integer(o, "max-users", 64);
    this.step = duration(o, "step", demo ? DEMO_STEP : "5s");
    this.warmup = duration(o, "warmup", "1s");
    this.think = duration(o, "think", "0ms");
    String thinkDistribution = o.getOrDefault("think-distribution", "exponential");
    this.thinkDistribution = switch (thinkDistribution) {
      case "exponential" -> dev.sessionless.load.ClosedPhase.Think.EXPONENTIAL;
      case "fixed" -> dev.sessionless.load.ClosedPhase.Think.FIXED;
      default -> throw bad("--think-distribution must be exponential or fixed, got '" + thinkDistribution + "'");
    };
    this.systemWarmup = duration(o, "system-warmup", demo ? DEMO_SYSTEM_WARMUP : "10s");
    this.jitSettle = duration(o, "jit-settle", "120s");
    this.startRate = number(o, "start-rate", 200);
    this.rateFactor = number(o, "rate-factor", 1.5);
    this.maxSteps = integer(o, "max-steps", 8);
    this.soakRate = number(o, "rate", 300);
    this.soakDuration = duration(o, "duration", "60s");
    this.p99LimitMillis = number(o, "p99-limit", 200);
    this.targetRate = number(o, "target-rate", 1500);
    this.out = Path.of(o.getOrDefault("out", demo ? DEMO_OUT : "benchmarks/results"));
    this.users = integer(o, "users", 12);
    this.forks = integer(o, "forks", 1);
    this.fork = o.getOrDefault("fork", "");
    if (demo && (forks != 1 || !fork.isEmpty())) {
      throw bad("demo runs in this JVM alone: --forks is for comparing speed (peak)");
    }
    if (!fork.isEmpty() && !fork.matches("[1-9][0-9]*/[1-9][0-9]*")) {
      throw bad("--fork is set by --forks, as i/N; got '" + fork + "'");
    }
    String rotation = o.getOrDefault("rotation", "keep-old");
    if (!rotation.equals("keep-old") && !rotation.equals("drop-old")) {
      throw bad("--rotation must be keep-old or drop-old, got '" + rotation + "'");
    }
    this.keepOldKey = rotation.equals("keep-old");
    this.redisServer = o.containsKey("redis-server") ? Path.of(o.get("redis-server")) : null;
    this.jettyHeaderCache = integer(o, "jetty-header-cache", 0);
    this.padding = integer(o, "padding", Cluster.DEFAULT_PADDING);
    if (padding < 1 || padding > 4000) {
      throw bad("--padding must be 1 to 4000 characters, got " + padding);
    }
    this.appCpu = duration(o, "app-cpu", "0ms");
    if (appCpu.isNegative() || appCpu.compareTo(Duration.ofSeconds(1)) > 0) {
      throw bad("--app-cpu must be 0 to 1s of CPU a request, got " + appCpu.toNanos() / 1000 + "us");
    }
    if (jettyHeaderCache < 0) {
      throw bad("--jetty-header-cache must be 0 (off) or more, got " + jettyHeaderCache);
    }
    try {
      this.sessionlessCompression = dev.sessionless.core.Compression.fromName(
          o.getOrDefault("sessionless-compression", demo ? "deflate" : "none"));
    } catch (IllegalArgumentException e) {
      throw bad("--sessionless-" + e.getMessage());
    }
    // The demo shows the library's default tokens (the cookie a user gets); measurements keep HS256.
    String alg = o.getOrDefault("sessionless-algorithm", demo ? "dir" : "hs256");
    this.sessionlessAlgorithm = switch (alg) {
      case "hs256" -> dev.sessionless.core.Algorithm.HS256;
      case "dir" -> dev.sessionless.core.Algorithm.DIR_A256GCM;
      default -> throw bad("--sessionless-algorithm must be hs256 or dir, got '" + alg + "'");
    };
    String balancerName = o.getOrDefault("balancer", "client");
    this.balancer = Balancer.Mode.parse(balancerName)
        .orElseThrow(() -> bad("--balancer must be client, haproxy or both, got '" + balancerName + "'"));
    this.haproxy = o.containsKey("haproxy") ? Path.of(o.get("haproxy")) : null;
    this.logoutRate = number(o, "logout-rate", 5);
    this.pollInterval = duration(o, "poll-interval", "1s");
    this.replayCap = duration(o, "replay-cap", "15s");
    if (logoutRate <= 0 || logoutRate > 200 || pollInterval.toMillis() < 100 || pollInterval.toMinutes() > 1
        || replayCap.compareTo(pollInterval.multipliedBy(4)) < 0) {
      throw bad("--logout-rate must be above 0 and at most 200/s, --poll-interval 100ms to 1m, --replay-cap at least"
          + " four poll intervals");
    }
    if (profiles.contains(REVOCATION_LAG) && profiles.size() > 1) {
      throw bad(REVOCATION_LAG + " runs alone: it starts its own nodes and Redis");
    }
    if (forks < 1 || users < 1 || maxUsers < 1 || maxSteps < 1 || startRate <= 0 || rateFactor <= 1 || soakRate <= 0
        || p99LimitMillis <= 0 || targetRate <= 0 || step.compareTo(warmup) <= 0 || systemWarmup.isZero()) {
      throw bad("out of range: forks, users, max-users, max-steps >= 1; rates, p99-limit > 0; rate-factor > 1; step longer than warmup");
    }
  }

  /**
   * Parses the arguments.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} with the usage
   */
  public static Options parse(String... args) {
    if (args.length == 0 || args[0].startsWith("--")) {
      throw bad("name a profile first");
    }
    List<String> profiles = new ArrayList<>();
    boolean demo = args[0].equals(DEMO);
    for (String p : demo ? new String[] {"faults"} : args[0].split(",")) {
      if (p.equals(DEMO)) {
        throw bad("demo runs alone: it is the faults profile with its own defaults");
      }
      if (!PROFILES.contains(p)) {
        throw bad("unknown profile '" + p + "'");
      }
      profiles.add(p);
    }
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      int eq = a.indexOf('=');
      if (!a.startsWith("--") || eq < 0) {
        throw bad("expected --name=value, got '" + a + "'");
      }
      o.put(a.substring(2, eq), a.substring(eq + 1));
    }
    Options options = new Options(o, List.copyOf(profiles), demo);
    for (String k : o.keySet()) {
      if (!List.of("systems", "max-users", "step", "warmup", "jit-settle", "think", "think-distribution",
          "start-rate", "rate-factor",
          "max-steps", "rate", "duration", "p99-limit", "target-rate", "out", "system-warmup", "users", "forks", "fork", "redis-server",
          "rotation", "jetty-header-cache", "padding", "sessionless-compression", "sessionless-algorithm", "app-cpu",
          "balancer", "haproxy", "logout-rate", "poll-interval", "replay-cap").contains(k)) {
        throw bad("unknown option --" + k);
      }
    }
    return options;
  }

  /** The usage text. */
  public static String usage() {
    return String.join(System.lineSeparator(),
        "usage: LoadTool PROFILE[,PROFILE...] [--name=value ...]   or   LoadTool demo [--name=value ...]",
        "  demo:     the README's demo: faults on every system, --step=" + DEMO_STEP + " --system-warmup="
            + DEMO_SYSTEM_WARMUP + " --out=" + DEMO_OUT,
        "            --sessionless-algorithm=dir --sessionless-compression=deflate (the library's default tokens),",
        "            printing only the side-by-side table and what each system lost",
        "  profiles: peak (closed ramp 1, 2, 4 ... max-users; USL fit), stress (open rate ramp until p99 > limit,",
        "            errors or a saturated injector), soak (steady open rate for --duration), flood (max-users at once),",
        "            faults (--users users for --step while a node is killed and restarted and the key rotates;",
        "            exit status 3 if Sessionless lost a session)",
        "  --systems=" + String.join(",", SYSTEMS),
        "                                                          (default all; spring-session-redis needs redis-server)",
        "                                                          or session-sticky-padded: sticky sessions plus an",
        "                                                          opaque --padding=" + Cluster.DEFAULT_PADDING
            + "-character cookie renewed every reply,",
        "                                                          the ceiling for any session carried in a cookie;",
        "                                                          or sessionless-webflux: Sessionless's WebSession",
        "                                                          on WebFlux, three Reactor Netty nodes, round-robin",
        "                                                          (the --sessionless-* options apply to it too)",
        "  --redis-server=PATH                                     default: redis-server on the PATH, else the",
        "                                                          Redis 6.2 binary this jar carries",
        "  --balancer=client                                       client: the load client picks the node; haproxy:",
        "                                                          a real HAProxy on loopback does (round-robin, or",
        "                                                          sticky by cookie for session-sticky); both: each",
        "                                                          system both ways, rows side by side",
        "  --haproxy=PATH                                          default: haproxy on the PATH, else /usr/sbin/haproxy",
        "  --jetty-header-cache=0                                  every node's Jetty header cache (Jetty's own default",
        "                                                          1024 re-caches a changed session cookie every request)",
        "  --sessionless-algorithm=hs256                           hs256 (signed tokens) or dir (encrypted, A256GCM)",
        "  --sessionless-compression=none                          none, deflate or deflate-with-dictionary (shorter",
        "                                                          cookies; with hs256, compressed signed tokens)",
        "  --app-cpu=0ms                                           CPU time the shop spends on every request as its",
        "                                                          own work, every system alike (e.g. 200us; 0: a shop",
        "                                                          that does next to nothing, the session's worst case)",
        "  --system-warmup=10s                                     untimed warm-up of each system before its profiles",
        "  --jit-settle=120s                                       then at most this long warming the systems in turn",
        "                                                          until the JIT compiles < 2% of a round (0s: skip;",
        "                                                          faults alone never waits: it counts losses)",
        "  --max-users=64 --step=5s --warmup=1s --think=0ms       steps (warmup: the discarded start of each step)",
        "  --think-distribution=exponential                        each think time random with --think as its mean",
        "                                                          (truncated at 10x), or fixed: exactly --think",
        "  --start-rate=200 --rate-factor=1.5 --max-steps=8        stress",
        "  --rate=300 --duration=60s                               soak",
        "  --users=12 --rotation=keep-old                          faults (drop-old: a broken rotation that drops",
        "                                                          the old key at once, to see the check fail)",
        "  revocation-lag: Sessionless on three nodes with RedisRevocations stores on one redis-server, --users users",
        "            shopping while users log out at --logout-rate and each revoked cookie is replayed on every node:",
        "            the lag to the first refusal, with publish/subscribe and polling alone, then Redis restarted, cut",
        "            off past the stale bound (fail-open, fail-closed) and a node starting while it is cut off;",
        "            exit status 4 if a count contradicts the documented behaviour; runs alone",
        "  --logout-rate=5 --poll-interval=1s --replay-cap=15s     revocation-lag (--step: each lag run's length)",
        "  --p99-limit=200 --target-rate=1500                      capacity plan (peak and stress together)",
        "  --out=benchmarks/results                                where JSON, Markdown and PNG go",
        "  --forks=1                                               run it all in N fresh JVMs, one after the other,",
        "                                                          and summarise the peak ratios across them");
  }

  private static LoadException bad(String what) {
    return new LoadException(LoadException.Reason.INVALID_INPUT, what + System.lineSeparator() + usage());
  }

  private static int integer(Map<String, String> o, String k, int d) {
    try {
      return o.containsKey(k) ? Integer.parseInt(o.get(k)) : d;
    } catch (NumberFormatException e) {
      throw bad("--" + k + " must be a whole number");
    }
  }

  private static double number(Map<String, String> o, String k, double d) {
    try {
      return o.containsKey(k) ? Double.parseDouble(o.get(k)) : d;
    } catch (NumberFormatException e) {
      throw bad("--" + k + " must be a number");
    }
  }

  private static Duration duration(Map<String, String> o, String k, String d) {
    String v = o.getOrDefault(k, d).strip().toLowerCase(Locale.ROOT);
    try {
      if (v.endsWith("us")) {
        return Duration.ofNanos(Math.multiplyExact(Long.parseLong(v.substring(0, v.length() - 2)), 1000L));
      } else if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      } else if (v.endsWith("s")) {
        return Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
      } else if (v.endsWith("m")) {
        return Duration.ofSeconds(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 60));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // fall through to the error below
    }
    throw bad("--" + k + " must be a duration such as 200us, 500ms, 5s or 2m, got '" + v + "'");
  }
}
