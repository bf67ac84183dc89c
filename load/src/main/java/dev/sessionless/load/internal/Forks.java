package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --forks=N}: the same command in N fresh JVMs, one after the other, and the throughput
 * ratios of the closed ramp summarised per level across them (median, lowest, highest).
 *
 * <p>Why: two JVMs of one configuration compile the same code differently, and on a shared
 * machine their throughput was seen to differ by 20%; a ratio from one JVM is one sample of
 * that. As JMH forks a benchmark, this forks the whole run, with this JVM's options. Each fork
 * writes its own report, as a single run does; the summary names them.
 */
public final class Forks {
  private static final Pattern WROTE = Pattern.compile("^wrote (.+\\.json) and ");
  /** The ratios each fork reports, in the order the summary gives them, with their headings. */
  private static final Map<String, String> RATIOS = ratios();

  private static Map<String, String> ratios() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("paddedOverStickyThroughput", "The ceiling: session-sticky-padded vs session-sticky");
    m.put("sessionlessOverStickyThroughput", "Sessionless vs session-sticky");
    m.put("sessionlessOverSpringSessionThroughput", "Sessionless vs spring-session-redis");
    m.put("sessionlessOverPaddedThroughput", "Sessionless vs session-sticky-padded");
    m.put("paddedOverStickyThroughputViaHaproxy", "The ceiling via HAProxy: session-sticky-padded vs session-sticky");
    m.put("sessionlessOverStickyThroughputViaHaproxy", "Sessionless vs session-sticky, both via HAProxy");
    m.put("sessionlessOverSpringSessionThroughputViaHaproxy", "Sessionless vs spring-session-redis, both via HAProxy");
    m.put("sessionlessOverPaddedThroughputViaHaproxy", "Sessionless vs session-sticky-padded, both via HAProxy");
    for (String system : java.util.stream.Stream.concat(Options.SYSTEMS.stream(), Options.EXTRA_SYSTEMS.stream()).toList()) {
      m.put(Balancer.PROXY_COST + system, system + " through HAProxy vs routed by the client");
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  private Forks() {}

  /**
   * Runs the forks and writes the summary.
   *
   * @param args the command line; its {@code --forks} is replaced by each fork's {@code --fork=i/N}
   * @param forks how many JVMs
   * @param outDir where the summary goes (each fork writes there too)
   * @param out receives the summary
   * @param progress receives every fork's progress lines, prefixed
   * @return the worst fork's exit status: 1 or 2 at once (the rest not run), else 3 if any fork
   *     saw Sessionless lose something, else 0
   * @throws IOException when a fork cannot start or a report cannot be read or written
   */
  public static int run(String[] args, int forks, Path outDir, PrintStream out, PrintStream progress)
      throws IOException {
    List<Path> reports = new ArrayList<>();
    int status = 0;
    for (int f = 1; f <= forks; f++) {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(jvmOptions());
      int first = cmd.size();
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.sessionless.load.LoadTool"));
      Arrays.stream(args).filter(a -> !a.startsWith("--forks=")).forEach(cmd::add);
      cmd.add("--fork=" + f + "/" + forks);
      progress.println("fork " + f + "/" + forks + ": " + String.join(" ", cmd.subList(first + 3, cmd.size())));
      Process p = new ProcessBuilder(cmd).start();
      String prefix = "fork " + f + "/" + forks + ": ";
      Thread pump = new Thread(() -> copy(p.getErrorStream(), progress, prefix), "load-fork-progress");
      pump.start();
      Path report = null;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          Matcher m = WROTE.matcher(line);
          if (m.find()) {
            report = Path.of(m.group(1));
          }
        }
      }
      int code;
      try {
        code = p.waitFor();
        pump.join();
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new LoadException(LoadException.Reason.INJECTOR_FAILED, "interrupted while fork " + f + " ran", e);
      }
      if (code == 1 || code == 2) {
        progress.println(prefix + "failed with status " + code + "; the remaining forks are not run");
        return code;
      }
      if (report == null) {
        progress.println(prefix + "wrote no report");
        return 1;
      }
      status = Math.max(status, code);
      reports.add(report);
    }
    summarise(reports, args, outDir, out);
    return status;
  }

  /**
   * This JVM's options (heap, GC, {@code -XX} flags), so every fork runs as this one would;
   * without agents, debuggers and flight recordings, which would clash between JVMs.
   */
  public static List<String> jvmOptions() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> !a.startsWith("-javaagent") && !a.startsWith("-agentlib") && !a.startsWith("-agentpath")
            && !a.startsWith("-XX:StartFlightRecording"))
        .toList();
  }

  /**
   * JVM options as a report records them: {@code -X} and {@code -XX} options whole, a system
   * property by its name only ({@code -Dname=…}), since a value may be a secret and reports are
   * committed.
   */
  public static List<String> forReport(List<String> options) {
    return options.stream().map(a -> a.startsWith("-D") && a.contains("=") ? a.substring(0, a.indexOf('=') + 1) + "…" : a)
        .toList();
  }

  private static void copy(InputStream in, PrintStream to, String prefix) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        to.println(prefix + line);
      }
    } catch (IOException e) {
      to.println(prefix + "progress lost: " + e.getMessage());
    }
  }

  /** Per ratio kind, per level: every fork's ratio; the median, lowest and highest. */
  static void summarise(List<Path> reports, String[] args, Path outDir, PrintStream out) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    Map<String, Object> json = new LinkedHashMap<>();
    StringBuilder md = new StringBuilder();
    String first = reports.get(0).getFileName().toString().replaceFirst("-fork1of\\d+\\.json$", "");
    String base = first + "-forks";
    json.put("forks", reports.size());
    json.put("reports", reports.stream().map(p -> p.getFileName().toString()).toList());
    md.append("# Load run ").append(base).append("\n\n").append(reports.size())
        .append(" forks (a fresh JVM each, one after the other) of `")
        .append(String.join(" ", Arrays.stream(args).filter(a -> !a.startsWith("--forks=")).toList()))
        .append("`; each fork's own report: ")
        .append(String.join(", ", reports.stream().map(p -> "`" + p.getFileName().toString().replaceFirst("\\.json$", ".md") + "`")
            .toList()))
        .append(".\n\n");
    for (String kind : RATIOS.keySet()) {
      Map<Integer, List<Double>> byLevel = new TreeMap<>();
      for (Path report : reports) {
        for (JsonNode level : mapper.readTree(report.toFile()).path(kind)) {
          byLevel.computeIfAbsent(level.path("users").asInt(), k -> new ArrayList<>()).add(level.path("ratio").asDouble());
        }
      }
      if (byLevel.isEmpty()) {
        continue;
      }
      md.append("## ").append(RATIOS.get(kind)).append(", across forks\n\n")
          .append("| users | median ratio of throughput | lowest | highest | every fork |\n|---|---|---|---|---|\n");
      List<Map<String, Object>> rows = new ArrayList<>();
      byLevel.forEach((users, ratios) -> {
        double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
            : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        rows.add(Map.of("users", users, "median", median, "lowest", sorted[0], "highest", sorted[sorted.length - 1],
            "forks", ratios));
        md.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %.2f | %s |%n", users, median, sorted[0],
            sorted[sorted.length - 1], String.join(" / ", ratios.stream()
                .map(r -> String.format(Locale.ROOT, "%.2f", r)).toList())));
      });
      md.append('\n');
      json.put(kind, rows);
    }
    Files.createDirectories(outDir);
    Path jsonFile = outDir.resolve(base + ".json");
    JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValue(jsonFile.toFile(), json);
    Path mdFile = outDir.resolve(base + ".md");
    Files.writeString(mdFile, md, StandardCharsets.UTF_8);
    out.print(md);
    out.println("wrote " + jsonFile + " and " + mdFile);
  }
}
