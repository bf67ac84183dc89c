package dev.sessionless.load;

import tools.jackson.databind.SerializationFeature;
import dev.sessionless.load.internal.Balancer;
import dev.sessionless.load.internal.Charts;
import dev.sessionless.load.internal.Cluster;
import dev.sessionless.load.internal.Host;
import dev.sessionless.load.internal.Faults;
import dev.sessionless.load.internal.FaultsReport;
import dev.sessionless.load.internal.Forks;
import dev.sessionless.load.internal.Haproxy;
import dev.sessionless.load.internal.JitSettling;
import dev.sessionless.load.internal.Options;
import dev.sessionless.load.internal.PeakRatios;
import dev.sessionless.load.internal.ReportText;
import dev.sessionless.load.internal.ShopWorkload;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one command: runs the chosen profiles against the chosen systems (each on three embedded
 * Jetty nodes, routed by the load client) and writes JSON, a Markdown table and PNG charts named
 * by date, JDK and commit. The {@code faults} profile is the cluster demo with its baselines: it
 * kills and restarts a node and rotates the key under load, and the command exits with status 3
 * when Sessionless lost a session in any profile.
 *
 * <p>Run: {@code mvn -B -ntp -q -pl load -am package -DskipTests && java -jar load/target/load.jar demo}
 * (the root README's demo) or {@code … load.jar peak,stress}; see {@code load/README.md} for the options.
 */
public final class LoadTool {
  private static final int NODES = 3;
  /** The ceiling baseline's name. */
  private static final String PADDED = Options.PADDED;
  /** How long each system runs in a JIT-settling round. */
  private static final Duration SETTLING_SLICE = Duration.ofSeconds(3);

  private final Options options;
  private final PrintStream out;
  private final PrintStream progress;
  private final Map<String, Object> json = new LinkedHashMap<>();
  private final StringBuilder md = new StringBuilder();
  private final Map<String, UslFit> fits = new LinkedHashMap<>();
  private final Map<String, List<LatencyPoint>> latency = new LinkedHashMap<>();
  private final Map<String, Map<String, List<PhaseResult>>> tables = new LinkedHashMap<>();
  private final Map<String, Map<String, ShopWorkload>> workloads = new LinkedHashMap<>();
  /** Per "profile system": a line to print before that table (breaking point, soak drift). */
  private final Map<String, String> breaking = new LinkedHashMap<>();
  /** The systems that run: the chosen ones, less Spring Session when there is no redis-server. */
  private final List<String> systems = new ArrayList<>();
  /** Per system: the faults run's step and its events. */
  private final Map<String, Faults.Outcome<PhaseResult>> faults = new LinkedHashMap<>();
  /** Per run through the proxy ({@link Balancer#VIA}): its HAProxy. */
  private final Map<String, Haproxy> proxies = new LinkedHashMap<>();

  private LoadTool(Options options, PrintStream out, PrintStream progress) {
    this.options = options;
    this.out = out;
    this.progress = progress;
  }

  /**
   * Runs the command line and exits with its status: 0 done, 1 failed, 2 bad arguments, 3
   * Sessionless lost a session or a cart.
   *
   * @param args {@code PROFILE[,PROFILE…] [--name=value …]}
   */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the command line, printing results to {@code out} and progress lines to
   * {@code progress}.
   *
   * @return 0 done, 1 failed, 2 bad arguments, 3 Sessionless lost a session or a cart
   */
  public static int run(String[] args, PrintStream out, PrintStream progress) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (LoadException e) {
      progress.println(e.getMessage());
      return 2;
    }
    try {
      if (options.profiles.contains(Options.REVOCATION_LAG)) {
        return dev.sessionless.load.internal.RevocationRun.run(options, Host.commit(), out, progress);
      }
      if (options.forks > 1) {
        return Forks.run(args, options.forks, options.out, out, progress);
      }
      LoadTool tool = new LoadTool(options, out, progress);
      tool.runAll();
      return tool.sessionlessLost(progress) ? 3 : 0;
    } catch (LoadException | IOException e) {
      progress.println("load tool failed: " + e.getMessage());
      return 1;
    }
  }

  private void runAll() throws IOException {
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
    String jdk = "jdk" + Runtime.version().feature();
    String commit = Host.commit();
    String base = stamp + "-" + jdk + "-" + commit + "-" + String.join("+", options.profiles)
        + (options.fork.isEmpty() ? "" : "-fork" + options.fork.replace("/", "of"));
    json.put("date", stamp);
    json.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
    json.put("cpus", Runtime.getRuntime().availableProcessors());
    json.put("commit", commit);
    json.put("jvmOptions", Forks.forReport(ManagementFactory.getRuntimeMXBean().getInputArguments()));
    if (!options.fork.isEmpty()) {
      json.put("fork", options.fork);
    }
    String nodes = options.systems.contains(Options.WEBFLUX) ? " (Reactor Netty for " + Options.WEBFLUX + ")" : "";
    json.put("routing", Balancer.routing(options.balancer) + "; 3 Jetty nodes per system" + nodes
        + " on loopback, injector in the same JVM");
    md.append("# Load run ").append(base).append("\n\n")
        .append(String.format(Locale.ROOT, "%s, %d CPUs, commit %s. Three embedded Jetty 12 nodes per system%s on"
            + " loopback, %s; the injector shares the machine. Sessionless tokens: %s."
            + " Indicative figures only.%n%n", json.get("jdk"), Runtime.getRuntime().availableProcessors(), commit, nodes,
            Balancer.routing(options.balancer), ReportText.tokens(options)));
    json.put("sessionlessTokens", ReportText.tokens(options));
    if (!options.think.isZero()) {
      md.append(ReportText.thinkLine(options)).append("\n\n");
      json.put("thinkTime", Map.of("millis", options.think.toMillis(),
          "distribution", options.thinkDistribution.name().toLowerCase(Locale.ROOT)));
    }
    if (!options.appCpu.isZero()) {
      md.append(ReportText.appCpuLine(options)).append("\n\n");
      json.put("appCpuMicros", options.appCpu.toNanos() / 1000);
    }
    Map<String, Object> results = new LinkedHashMap<>();
    json.put("systems", results);
    Balancer.requireHaproxy(options);
    systems.addAll(Balancer.runs(options.systems, options.balancer));
    if (options.systems.contains("spring-session-redis") && Host.redisExecutable(options.redisServer).isEmpty()) {
      String why = "spring-session-redis skipped: " + Host.redisMissing(options.redisServer);
      progress.println(why);
      md.append(why).append(".\n\n");
      json.put("skipped", Map.of("spring-session-redis", why));
      systems.removeIf(run -> Balancer.system(run).equals("spring-session-redis"));
    }
    if (options.demo) {
      progress.println(FaultsReport.intro(systems));
    }
    Map<String, Cluster> clusters = new LinkedHashMap<>();
    // The demo says what each system is doing instead of a progress line a second.
    try (Injector injector = Injector.builder().warmup(options.warmup).progress(options.demo ? null : progress::println)
        .build()) {
      for (String system : systems) {
        clusters.put(system, Balancer.system(system).equals(PADDED)
            ? Cluster.startPadded(NODES, options.jettyHeaderCache, options.padding).appCpu(options.appCpu)
            : Cluster.start(kind(Balancer.system(system)), NODES, options.redisServer, options.jettyHeaderCache,
                options.sessionlessAlgorithm, options.sessionlessCompression).appCpu(options.appCpu));
        results.put(system, new LinkedHashMap<String, Object>());
        if (Balancer.proxied(system)) {
          proxies.put(system, Balancer.proxy(system, clusters.get(system), options, base));
        }
      }
      // Untimed: JIT-compile every system's paths (crypto, JSON, session store) before any is
      // measured, so the system measured first does not pay for a cold JVM.
      for (String system : systems) {
        if (options.demo) {
          progress.println(FaultsReport.name(system) + ": warming up for " + FaultsReport.seconds(options.systemWarmup)
              + " (not counted)");
        }
        injector.runClosed(system + " warm-up", shop(clusters, system), new ClosedPhase(4, Duration.ZERO, options.systemWarmup));
      }
      // Then the systems in turn until the JIT is quiet: they share this JVM, so shared code
      // recompiles when the traffic switches system, and that must happen before the steps.
      // Only for profiles that measure speed: faults counts losses, and its demo stays short.
      Duration settle = options.profiles.stream().allMatch("faults"::equals) ? Duration.ZERO : options.jitSettle;
      Duration slice = settle.compareTo(SETTLING_SLICE) < 0 ? settle : SETTLING_SLICE;
      JitSettling.Outcome settling = JitSettling.run(settle, () -> {
        for (String system : systems) {
          injector.runClosed(system + " JIT settling", shop(clusters, system), new ClosedPhase(4, Duration.ZERO, slice));
        }
      }, JitSettling.jvmCompileMillis(), System::nanoTime, progress::println);
      json.put("warmup", Map.of("perSystemSeconds", options.systemWarmup.toMillis() / 1000.0,
          "jitSettling", settling.describe()));
      md.append("Warm-up: ").append(options.systemWarmup.toMillis() / 1000.0).append(" s per system, then ")
          .append(settling.describe()).append(".\n\n");
      for (String profile : options.profiles) {
        Map<String, ShopWorkload> shops = new LinkedHashMap<>();
        systems.forEach(system -> shops.put(system, shop(clusters, system)));
        Map<String, List<PhaseResult>> steps = switch (profile) {
          case "peak" -> peak(injector, shops);
          case "stress" -> stress(injector, shops);
          case "soak" -> soak(injector, shops, results);
          case "faults" -> faults(Faults.underLoad(injector, shops, clusters, options,
              options.demo ? progress::println : null));
          default -> flood(injector, shops);
        };
        for (String system : systems) {
          ShopWorkload shop = shops.get(system);
          @SuppressWarnings("unchecked")
          Map<String, Object> result = (Map<String, Object>) results.get(system);
          Map<String, Object> entry = new LinkedHashMap<>(Map.of("steps", steps.get(system),
              "journeysCompleted", shop.journeysCompleted(), "cartsLost", shop.cartsLost(),
              "sessionsLost", shop.sessionsLost(), "maxCookieBytes", shop.maxCookieBytes()));
          if (profile.equals("faults")) {
            entry.put("events", faults.get(system).events().stream().map(Faults.Event::toString).toList());
          }
          result.put(profile, entry);
        }
        tables.put(profile, steps);
        workloads.put(profile, shops);
      }
    } finally {
      proxies.values().forEach(Haproxy::close);
      clusters.values().forEach(Cluster::close);
    }
    if (!faults.isEmpty()) {
      md.append(FaultsReport.markdown(faults, workloads.get("faults"), options, NODES));
    }
    for (String system : systems) {
      md.append("## ").append(system).append("\n\n");
      for (String profile : options.profiles) {
        String note = breaking.get(profile + " " + system);
        if (note != null) {
          md.append(note);
        }
        ReportText.table(md, profile, tables.get(profile).get(system), workloads.get(profile).get(system));
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> result = (Map<String, Object>) results.get(system);
      ReportText.systemSummary(md, result, Balancer.system(system), fits.get(system), latency.get(system), options);
    }
    PeakRatios.write(Balancer.fits(fits, false), options.padding, md, json, false);
    PeakRatios.write(Balancer.fits(fits, true), options.padding, md, json, true);
    Balancer.proxyCost(fits, md, json);
    Files.createDirectories(options.out);
    Path jsonFile = options.out.resolve(base + ".json");
    tools.jackson.databind.json.JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
        .writeValue(jsonFile.toFile(), json);
    if (!fits.isEmpty()) {
      Path png = options.out.resolve(base + "-usl.png");
      Charts.usl("Throughput vs concurrency, fitted USL (" + jdk + ", " + commit + ")", fits, png);
      md.append("![throughput vs concurrency](").append(png.getFileName()).append(")\n\n");
    }
    if (!latency.isEmpty()) {
      Map<String, double[][]> series = new LinkedHashMap<>();
      latency.forEach((k, v) -> series.put(k, new double[][] {
          v.stream().mapToDouble(LatencyPoint::rate).toArray(), v.stream().mapToDouble(LatencyPoint::p99Millis).toArray()}));
      Path png = options.out.resolve(base + "-latency.png");
      Charts.latency("p99 vs arrival rate (" + jdk + ", " + commit + ")", series, png);
      md.append("![p99 vs rate](").append(png.getFileName()).append(")\n\n");
    }
    Path mdFile = options.out.resolve(base + ".md");
    Files.writeString(mdFile, md, StandardCharsets.UTF_8);
    if (options.demo) {
      out.print(FaultsReport.text(faults, workloads.get("faults"), options, NODES));
      out.println(System.lineSeparator() + "The full report: " + mdFile + " (and " + jsonFile.getFileName() + ").");
    } else {
      out.print(md);
      out.println("wrote " + jsonFile + " and " + mdFile);
    }
  }

  private static Cluster.Kind kind(String system) {
    return switch (system) {
      case "sessionless" -> Cluster.Kind.SESSIONLESS;
      case Options.WEBFLUX -> Cluster.Kind.SESSIONLESS_WEBFLUX;
      case "spring-session-redis" -> Cluster.Kind.SPRING_SESSION_REDIS;
      default -> Cluster.Kind.HTTP_SESSION;
    };
  }

  /** A run's workload: to its nodes, routed by the client, or to its HAProxy, which routes. */
  private ShopWorkload shop(Map<String, Cluster> clusters, String system) {
    if (Balancer.proxied(system)) {
      return new ShopWorkload(List.of(proxies.get(system).uri()), ShopWorkload.Routing.ROUND_ROBIN);
    }
    Cluster cluster = clusters.get(system);
    return new ShopWorkload(cluster.nodes(),
        Balancer.sticky(system) ? ShopWorkload.Routing.STICKY : ShopWorkload.Routing.ROUND_ROBIN, cluster::isUp);
  }

  /** Keeps the faults run's outcomes for its report; its steps, per system. */
  private Map<String, List<PhaseResult>> faults(Map<String, Faults.Outcome<PhaseResult>> outcomes) {
    faults.putAll(outcomes);
    Map<String, List<PhaseResult>> steps = new LinkedHashMap<>();
    outcomes.forEach((system, o) -> steps.put(system, List.of(o.result())));
    return steps;
  }

  /** Whether Sessionless lost a session or a cart in any profile; says so on {@code progress}. */
  private boolean sessionlessLost(PrintStream progress) {
    long lost = 0;
    for (Map<String, ShopWorkload> shops : workloads.values()) {
      for (Map.Entry<String, ShopWorkload> e : shops.entrySet()) {
        if (List.of("sessionless", Options.WEBFLUX).contains(Balancer.system(e.getKey()))) {
          lost += e.getValue().sessionsLost() + e.getValue().cartsLost();
        }
      }
    }
    if (lost > 0) {
      progress.println("Sessionless lost " + lost + " sessions or carts: that is a bug (exit status 3)");
    }
    return lost > 0;
  }

  /** The closed ramp, systems interleaved at every level so drift on the machine hits all alike. */
  private Map<String, List<PhaseResult>> peak(Injector injector, Map<String, ShopWorkload> shops) {
    Map<String, List<PhaseResult>> steps = new LinkedHashMap<>();
    Map<String, List<Measurement>> points = new LinkedHashMap<>();
    for (int users = 1; users <= options.maxUsers; users *= 2) {
      for (Map.Entry<String, ShopWorkload> e : shops.entrySet()) {
        PhaseResult r = injector.runClosed(e.getKey() + " peak " + users + " users", e.getValue(),
            new ClosedPhase(users, options.think, options.step, options.thinkDistribution));
        steps.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(r);
        points.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new Measurement(users, r.achievedRate()));
      }
    }
    points.forEach((system, p) -> {
      if (p.size() >= 3) {
        fits.put(system, Usl.fit(p));
      }
    });
    return steps;
  }

  /** The open rate ramp, systems interleaved at every rate; each stops at its own breaking point. */
  private Map<String, List<PhaseResult>> stress(Injector injector, Map<String, ShopWorkload> shops) {
    Map<String, List<PhaseResult>> steps = new LinkedHashMap<>();
    List<String> running = new ArrayList<>(shops.keySet());
    double rate = options.startRate;
    for (int i = 0; i < options.maxSteps && !running.isEmpty(); i++, rate *= options.rateFactor) {
      for (String system : List.copyOf(running)) {
        PhaseResult r = injector.runOpen(String.format(Locale.ROOT, "%s stress %.0f/s", system, rate), shops.get(system),
            new OpenPhase(rate, options.step));
        steps.computeIfAbsent(system, k -> new ArrayList<>()).add(r);
        if (!Double.isNaN(r.p99())) {
          latency.computeIfAbsent(system, k -> new ArrayList<>()).add(new LatencyPoint(rate, r.p99()));
        }
        if (r.p99() > options.p99LimitMillis || r.errors() > 0 || r.saturated()) {
          breaking.put("stress " + system, String.format(Locale.ROOT, "Breaking point: %.0f/s (%s).%n%n", rate,
              r.saturated() ? "injector saturated" : r.errors() > 0 ? r.errors() + " errors" : "p99 " + ReportText.ms(r.p99())));
          running.remove(system);
        }
      }
    }
    return steps;
  }

  private Map<String, List<PhaseResult>> soak(Injector injector, Map<String, ShopWorkload> shops, Map<String, Object> results) {
    Map<String, List<PhaseResult>> steps = new LinkedHashMap<>();
    int n = 6;
    Duration slice = options.soakDuration.dividedBy(n).plus(options.warmup);
    for (Map.Entry<String, ShopWorkload> e : shops.entrySet()) {
      long heapBefore = Host.heapAfterGc();
      List<PhaseResult> slices = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        slices.add(injector.runOpen(String.format(Locale.ROOT, "%s soak %d/%d", e.getKey(), i + 1, n), e.getValue(),
            new OpenPhase(options.soakRate, slice)));
      }
      long heapAfter = Host.heapAfterGc();
      @SuppressWarnings("unchecked")
      Map<String, Object> result = (Map<String, Object>) results.get(e.getKey());
      result.put("soakHeapAfterGcBytes", List.of(heapBefore, heapAfter));
      breaking.put("soak " + e.getKey(), String.format(Locale.ROOT,
          "Soak: heap after GC %.1f MB → %.1f MB (whole JVM); p99 first slice %s, last %s.%n%n",
          heapBefore / 1e6, heapAfter / 1e6, ReportText.ms(slices.get(0).p99()), ReportText.ms(slices.get(n - 1).p99())));
      steps.put(e.getKey(), slices);
    }
    return steps;
  }

  private Map<String, List<PhaseResult>> flood(Injector injector, Map<String, ShopWorkload> shops) {
    Map<String, List<PhaseResult>> steps = new LinkedHashMap<>();
    shops.forEach((system, shop) -> steps.put(system, List.of(injector.runClosed(system + " flood " + options.maxUsers,
        shop, new ClosedPhase(options.maxUsers, options.think, options.step, options.thinkDistribution)))));
    return steps;
  }
}
