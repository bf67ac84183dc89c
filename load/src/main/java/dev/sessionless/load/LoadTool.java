package dev.sessionless.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sessionless.load.internal.Charts;
import dev.sessionless.load.internal.Cluster;
import dev.sessionless.load.internal.Options;
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
 * by date, JDK and commit.
 *
 * <p>Run: {@code mvn -B -ntp -q -pl load -am compile exec:java -Dexec.args="peak,stress"}; see
 * {@code load/README.md} for the options.
 */
public final class LoadTool {
  private static final int NODES = 3;

  private final Options options;
  private final PrintStream out;
  private final PrintStream progress;
  private final Map<String, Object> json = new LinkedHashMap<>();
  private final StringBuilder md = new StringBuilder();
  private final Map<String, UslFit> fits = new LinkedHashMap<>();
  private final Map<String, List<LatencyPoint>> latency = new LinkedHashMap<>();

  private LoadTool(Options options, PrintStream out, PrintStream progress) {
    this.options = options;
    this.out = out;
    this.progress = progress;
  }

  /**
   * Runs the command line and exits with its status: 0 done, 1 failed, 2 bad arguments.
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
   * @return 0 done, 1 failed, 2 bad arguments
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
      new LoadTool(options, out, progress).runAll();
      return 0;
    } catch (LoadException | IOException e) {
      progress.println("load tool failed: " + e.getMessage());
      return 1;
    }
  }

  private void runAll() throws IOException {
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
    String jdk = "jdk" + Runtime.version().feature();
    String commit = commit();
    String base = stamp + "-" + jdk + "-" + commit + "-" + String.join("+", options.profiles);
    json.put("date", stamp);
    json.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
    json.put("cpus", Runtime.getRuntime().availableProcessors());
    json.put("commit", commit);
    json.put("routing", "by the load client: round-robin per request, or sticky per user; 3 Jetty nodes per system"
        + " on loopback, injector in the same JVM");
    md.append("# Load run ").append(base).append("\n\n")
        .append(String.format(Locale.ROOT, "%s, %d CPUs, commit %s. Three embedded Jetty 12 nodes per system on"
            + " loopback, routed by the load client; the injector shares the machine. Indicative figures only.%n%n",
            json.get("jdk"), Runtime.getRuntime().availableProcessors(), commit));
    Map<String, Object> systems = new LinkedHashMap<>();
    json.put("systems", systems);
    try (Injector injector = Injector.builder().warmup(options.warmup).progress(progress::println).build()) {
      for (String system : options.systems) {
        Map<String, Object> result = new LinkedHashMap<>();
        systems.put(system, result);
        md.append("## ").append(system).append("\n\n");
        try (Cluster cluster = Cluster.start(system.equals("sessionless") ? Cluster.Kind.SESSIONLESS : Cluster.Kind.HTTP_SESSION, NODES)) {
          ShopWorkload.Routing routing = system.equals("session-sticky") ? ShopWorkload.Routing.STICKY : ShopWorkload.Routing.ROUND_ROBIN;
          // Untimed: JIT-compile this system's own paths (crypto, JSON, session store) first, so
          // the system measured first is not the one that paid for a cold JVM.
          injector.runClosed(system + " warm-up", new ShopWorkload(cluster.nodes(), routing),
              new ClosedPhase(4, Duration.ZERO, options.systemWarmup));
          for (String profile : options.profiles) {
            ShopWorkload shop = new ShopWorkload(cluster.nodes(), routing);
            List<PhaseResult> steps = switch (profile) {
              case "peak" -> peak(injector, system, shop);
              case "stress" -> stress(injector, system, shop);
              case "soak" -> soak(injector, system, shop, result);
              default -> List.of(injector.runClosed(system + " flood " + options.maxUsers, shop,
                  new ClosedPhase(options.maxUsers, options.think, options.step)));
            };
            result.put(profile, Map.of("steps", steps, "journeysCompleted", shop.journeysCompleted(),
                "cartsLost", shop.cartsLost(), "maxCookieBytes", shop.maxCookieBytes()));
            table(profile, steps, shop);
          }
        }
        finishSystem(system, result);
      }
    }
    comparePeak();
    Files.createDirectories(options.out);
    Path jsonFile = options.out.resolve(base + ".json");
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(jsonFile.toFile(), json);
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
    out.print(md);
    out.println("wrote " + jsonFile + " and " + mdFile);
  }

  private List<PhaseResult> peak(Injector injector, String system, ShopWorkload shop) {
    List<PhaseResult> steps = new ArrayList<>();
    List<Measurement> points = new ArrayList<>();
    for (int users = 1; users <= options.maxUsers; users *= 2) {
      PhaseResult r = injector.runClosed(system + " peak " + users + " users", shop,
          new ClosedPhase(users, options.think, options.step));
      steps.add(r);
      points.add(new Measurement(users, r.achievedRate()));
    }
    if (points.size() >= 3) {
      fits.put(system, Usl.fit(points));
    }
    return steps;
  }

  private List<PhaseResult> stress(Injector injector, String system, ShopWorkload shop) {
    List<PhaseResult> steps = new ArrayList<>();
    List<LatencyPoint> points = new ArrayList<>();
    double rate = options.startRate;
    for (int i = 0; i < options.maxSteps; i++, rate *= options.rateFactor) {
      PhaseResult r = injector.runOpen(String.format(Locale.ROOT, "%s stress %.0f/s", system, rate), shop,
          new OpenPhase(rate, options.step));
      steps.add(r);
      if (!Double.isNaN(r.p99())) {
        points.add(new LatencyPoint(rate, r.p99()));
      }
      if (r.p99() > options.p99LimitMillis || r.errors() > 0 || r.saturated()) {
        md.append(String.format(Locale.ROOT, "Breaking point: %.0f/s (%s).%n%n", rate,
            r.saturated() ? "injector saturated" : r.errors() > 0 ? r.errors() + " errors" : "p99 " + ms(r.p99())));
        break;
      }
    }
    latency.put(system, points);
    return steps;
  }

  private List<PhaseResult> soak(Injector injector, String system, ShopWorkload shop, Map<String, Object> result) {
    long heapBefore = heapAfterGc();
    List<PhaseResult> slices = new ArrayList<>();
    int n = 6;
    Duration slice = options.soakDuration.dividedBy(n).plus(options.warmup);
    for (int i = 0; i < n; i++) {
      slices.add(injector.runOpen(String.format(Locale.ROOT, "%s soak %d/%d", system, i + 1, n), shop,
          new OpenPhase(options.soakRate, slice)));
    }
    long heapAfter = heapAfterGc();
    result.put("soakHeapAfterGcBytes", List.of(heapBefore, heapAfter));
    md.append(String.format(Locale.ROOT, "Soak: heap after GC %.1f MB → %.1f MB; p99 first slice %s, last %s.%n%n",
        heapBefore / 1e6, heapAfter / 1e6, ms(slices.get(0).p99()), ms(slices.get(n - 1).p99())));
    return slices;
  }

  private void finishSystem(String system, Map<String, Object> result) {
    UslFit fit = fits.get(system);
    if (fit != null) {
      result.put("usl", Map.of("lambda", fit.lambda(), "alpha", fit.alpha(), "beta", fit.beta(),
          "lambdaError", fit.lambdaError(), "alphaError", fit.alphaError(), "betaError", fit.betaError(),
          "rSquared", fit.rSquared(), "peakConcurrency", fit.peakConcurrency(), "peakThroughput", fit.peakThroughput(),
          "warnings", fit.warnings()));
      md.append("```\n").append(fit.summary()).append("```\n\n");
    }
    List<LatencyPoint> points = latency.get(system);
    if (fit != null && points != null && !points.isEmpty()) {
      try {
        CapacityPlan plan = CapacityPlan.plan(options.targetRate, options.p99LimitMillis, points, fit, 0.8, true);
        result.put("plan", Map.of("machines", plan.machines(), "perMachineRate", plan.perMachineRate(),
            "assumptions", plan.assumptions()));
        md.append("Capacity plan: ").append(plan.summary()).append('\n');
      } catch (LoadException e) {
        md.append("Capacity plan: none (").append(e.getMessage()).append(")\n\n");
      }
    }
  }

  private void comparePeak() {
    UslFit a = fits.get("sessionless");
    UslFit b = fits.get("session-sticky");
    if (a == null || b == null) {
      return;
    }
    md.append("## Sessionless vs sticky in-memory sessions (closed ramp, same run)\n\n| users | ratio of throughput |\n|---|---|\n");
    List<Map<String, Object>> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(a.points().size(), b.points().size()); i++) {
      double ratio = a.points().get(i).throughput() / b.points().get(i).throughput();
      ratios.add(Map.of("users", a.points().get(i).concurrency(), "ratio", ratio));
      md.append(String.format(Locale.ROOT, "| %.0f | %.2f |%n", a.points().get(i).concurrency(), ratio));
    }
    md.append('\n');
    json.put("sessionlessOverStickyThroughput", ratios);
  }

  private void table(String profile, List<PhaseResult> steps, ShopWorkload shop) {
    md.append("### ").append(profile).append("\n\n")
        .append("| step | target/s | achieved/s | p50 | p90 | p99 | p99.9 | max | errors | late | dropped | injector CPU | saturated |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : steps) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %s | %s | %s | %s | %d | %d | %d | %.2f | %s |%n",
          r.label(), Double.isNaN(r.targetRate()) ? "closed" : String.format(Locale.ROOT, "%.0f", r.targetRate()),
          r.achievedRate(), ms(r.p50()), ms(r.p90()), ms(r.p99()), ms(r.p999()), ms(r.max()), r.errors(), r.late(),
          r.dropped(), r.injectorCpu(), r.saturated() ? "yes: " + String.join("; ", r.notes()) : "no"));
    }
    md.append(String.format(Locale.ROOT, "%nJourneys completed %d, carts lost %d, largest Cookie header %d bytes.%n%n",
        shop.journeysCompleted(), shop.cartsLost(), shop.maxCookieBytes()));
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f ms", v);
  }

  private static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static String commit() {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && s.matches("[0-9a-f]{4,40}") ? s : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
