package dev.sessionless.load.internal;

import dev.sessionless.load.Injector;
import dev.sessionless.load.PhaseResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code revocation-lag} command: runs {@link RevocationProfile} and writes its report, a
 * Markdown file, a JSON file and a chart of the lag's distribution, named as the tool names its
 * other runs ({@code <date>-jdk<N>-<commit>-revocation-lag}).
 */
public final class RevocationRun {
  /** The exit status when a count contradicts the documented behaviour. */
  public static final int CONTRADICTED = 4;
  /** The lag target with publish/subscribe (issue 39). */
  static final double PUSH_TARGET_MILLIS = 100;

  private RevocationRun() {}

  /**
   * Runs every scenario and writes the report under {@code options.out}.
   *
   * @param commit the short commit, for the file names
   * @return 0 when every count agrees with the documentation, {@link #CONTRADICTED} otherwise
   * @throws IOException if the report cannot be written
   */
  public static int run(Options options, String commit, PrintStream out, PrintStream progress) throws IOException {
    return run(options, commit, List.of(RevocationScenario.values()), out, progress);
  }

  /** {@link #run(Options, String, PrintStream, PrintStream)} for the given scenarios only. */
  static int run(Options options, String commit, List<RevocationScenario> scenarios, PrintStream out, PrintStream progress)
      throws IOException {
    String loadBefore = loadAverage();
    RevocationProfile.Settings s = settings(options);
    List<RevocationProfile.Run> runs;
    try (Injector injector = Injector.builder().warmup(options.warmup).progress(progress::println).build()) {
      runs = RevocationProfile.run(injector, s, scenarios, progress::println);
    }
    return write(options, commit, runs, loadBefore + " before, " + loadAverage() + " after", out, progress);
  }

  /** The profile's settings from the command line. */
  static RevocationProfile.Settings settings(Options options) {
    return new RevocationProfile.Settings(options.users, options.logoutRate, options.pollInterval, options.step,
        options.systemWarmup, options.replayCap);
  }

  /**
   * Writes the report of {@code runs} (Markdown, JSON, the lag chart) under {@code options.out}
   * and prints the Markdown to {@code out}.
   *
   * @param load the machine's load average, for the report
   * @return 0 when every count agrees with the documentation, {@link #CONTRADICTED} otherwise
   */
  static int write(Options options, String commit, List<RevocationProfile.Run> runs, String load, PrintStream out,
      PrintStream progress) throws IOException {
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
    String jdk = "jdk" + Runtime.version().feature();
    String base = stamp + "-" + jdk + "-" + commit + "-" + Options.REVOCATION_LAG;
    RevocationProfile.Settings s = settings(options);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("date", stamp);
    json.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
    json.put("cpus", Runtime.getRuntime().availableProcessors());
    json.put("commit", commit);
    json.put("loadAverage", load);
    json.put("settings", Map.of("users", s.users(), "logoutsPerSecond", s.logoutRate(),
        "pollIntervalMillis", s.poll().toMillis(), "lagRunSeconds", s.step().toMillis() / 1000.0,
        "replayFastMillis", RevocationLag.FAST.toMillis(), "replaySlowMillis", RevocationLag.SLOW.toMillis(),
        "replayCapSeconds", s.cap().toMillis() / 1000.0,
        "staleBoundMillis", RevocationScenario.staleBound(s.poll()).toMillis()));
    StringBuilder md = new StringBuilder("# Revocation lag run ").append(base).append("\n\n");
    md.append(String.format(Locale.ROOT, "%s, %d CPUs, commit %s; load average %s (the machine is"
        + " shared: other builds, a benchmark and a fuzzer may run beside it). Three embedded Jetty 12 nodes with the"
        + " Sessionless filter, each with its own `RedisRevocations` store, one `redis-server` on loopback; %d users"
        + " shop round-robin while users log out at %.1f/s (login on one node, `invalidate()` on the next) and each"
        + " revoked cookie is replayed on every node every %d ms (every %d ms after %s), up to %s. Lag: from the"
        + " logout's reply to the send of the first replay the node refused (401). Poll interval %s; the fault runs"
        + " that cut Redis off use a stale bound of %s.%n%n",
        json.get("jdk"), Runtime.getRuntime().availableProcessors(), commit, load, s.users(),
        s.logoutRate(), RevocationLag.FAST.toMillis(), RevocationLag.SLOW.toMillis(),
        FaultsReport.seconds(RevocationLag.FAST_FOR), FaultsReport.seconds(s.cap()), FaultsReport.seconds(s.poll()),
        FaultsReport.seconds(RevocationScenario.staleBound(s.poll()))));
    md.append("## The lag under load\n\n")
        .append("| run | logouts | lag on the other nodes p50 / p99 / max (ms) | lag on the logout's node p99 (ms) |"
            + " replays served after the logout (pairs) | never refused | shop requests/s, p99 (ms) |\n")
        .append("|---|---|---|---|---|---|---|\n");
    List<Map<String, Object>> jsonRuns = new ArrayList<>();
    Map<String, List<Double>> cdf = new LinkedHashMap<>();
    StringBuilder notes = new StringBuilder();
    int contradicted = 0;
    for (RevocationProfile.Run r : runs) {
      List<RevocationLag.Revoked> applied = r.revoked().stream().filter(RevocationChecks.applied(r.scenario(), s, r.seen())).toList();
      long notApplied = r.revoked().size() - applied.size();
      if (notApplied > 0) {
        LagStats ignored = LagStats.of(r.revoked().stream().filter(t -> !applied.contains(t)).toList(), (t, i) -> true);
        notes.append(r.scenario() == RevocationScenario.NODE_STARTS_WHILE_DOWN
            ? String.format(Locale.ROOT, "%s: %d logouts answered 503 by node %d between the cut and its stop are left"
                + " out of the table: applied on that node only and lost with it, as documented (%d replays served"
                + " elsewhere).%n", r.scenario().id(), notApplied, RevocationScenario.NODE, ignored.leaked())
            : String.format(Locale.ROOT, "%s: %d logouts answered 503 at or near the stale bound (from one poll"
            + " interval before it) are left out of the table: past the bound a failing-closed node answers 503 before"
            + " the servlet runs, so nothing is revoked and the client is told to retry. Their tokens stay valid"
            + " (%d replays served after Redis returned).%n", r.scenario().id(), notApplied, ignored.leaked()));
      }
      LagStats others = LagStats.of(applied, (t, i) -> i != t.logoutNode);
      LagStats own = LagStats.of(applied, (t, i) -> i == t.logoutNode);
      LagStats all = LagStats.of(applied, (t, i) -> true);
      PhaseResult shop = r.shop();
      md.append(String.format(Locale.ROOT, "| %s | %d | %s / %s / %s | %s | %d (%d) | %d | %.0f, %.1f |%n",
          r.scenario().id(), applied.size(), ms(others.p50()), ms(others.p99()), ms(others.max()), ms(own.p99()),
          all.leaked(), all.leakingPairs(), all.notRefused(), shop.achievedRate(), shop.p99()));
      if (!r.scenario().fault()) {
        cdf.put(r.scenario().id(), others.lagsMillis());
      }
      Map<String, Object> j = new LinkedHashMap<>();
      j.put("run", r.scenario().id());
      j.put("description", r.scenario().description(s.poll()));
      j.put("seconds", r.seconds());
      j.put("logouts", applied.size());
      j.put("logoutsAnswered503", applied.stream().filter(t -> t.logoutStatus == 503).count());
      j.put("logoutsNotApplied", notApplied);
      j.put("loginsOrLogoutsFailed", r.loginsFailed());
      j.put("otherNodes", others.toMap());
      j.put("logoutNode", own.toMap());
      List<Map<String, Object>> perNode = new ArrayList<>();
      for (int i = 0; i < RevocationProfile.NODES; i++) {
        int node = i;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("node", i);
        n.put("asOtherNode", LagStats.of(applied, (t, k) -> k == node && k != t.logoutNode).toMap());
        perNode.add(n);
      }
      j.put("perNode", perNode);
      List<Map<String, Object>> unrefused = new ArrayList<>();
      for (RevocationLag.Revoked t : applied) {
        if (!t.refusedEverywhere()) {
          unrefused.add(describe(t));
        }
      }
      j.put("tokensNotRefusedEverywhere", unrefused);
      j.put("shop", shop);
      j.put("events", r.events().stream().map(Object::toString).toList());
      List<Map<String, Object>> checks = new ArrayList<>();
      for (RevocationChecks.Check c : r.checks()) {
        checks.add(Map.of("what", c.what(), "documented", c.documented(), "counted", c.counted(), "holds", c.holds()));
        contradicted += c.holds() ? 0 : 1;
      }
      j.put("checks", checks);
      jsonRuns.add(j);
    }
    md.append('\n').append(notes.length() == 0 ? "" : notes + "\n").append(targets(runs, s)).append('\n');
    md.append("Per node, as one of the other nodes (lag p50 / p99 / max in ms, replays served):\n\n")
        .append("| run | node 0 | node 1 | node 2 |\n|---|---|---|---|\n");
    for (RevocationProfile.Run r : runs) {
      md.append("| ").append(r.scenario().id());
      for (int i = 0; i < RevocationProfile.NODES; i++) {
        int node = i;
        LagStats n = LagStats.of(r.revoked().stream().filter(RevocationChecks.applied(r.scenario(), s, r.seen())).toList(),
            (t, k) -> k == node && k != t.logoutNode);
        md.append(" | ").append(ms(n.p50())).append(" / ").append(ms(n.p99())).append(" / ").append(ms(n.max()))
            .append(", ").append(n.leaked());
      }
      md.append(" |\n");
    }
    md.append("\n## What each run counted against the documentation\n\n");
    for (RevocationProfile.Run r : runs) {
      md.append("### ").append(r.scenario().id()).append(": ").append(r.scenario().description(s.poll())).append("\n\n");
      if (!r.events().isEmpty()) {
        md.append("Events: ").append(String.join("; ", r.events().stream().map(Object::toString).toList())).append(".\n\n");
      }
      md.append("| behaviour | documented | counted | holds |\n|---|---|---|---|\n");
      for (RevocationChecks.Check c : r.checks()) {
        md.append("| ").append(c.what()).append(" | ").append(c.documented()).append(" | ").append(c.counted())
            .append(" | ").append(c.holds() ? "yes" : "**NO**").append(" |\n");
      }
      md.append('\n');
    }
    md.append(contradicted == 0 ? "Every count agrees with the documentation.\n\n"
        : contradicted + " counts contradict the documentation (exit status " + CONTRADICTED + ").\n\n");
    json.put("runs", jsonRuns);
    json.put("contradictions", contradicted);
    Files.createDirectories(options.out);
    Path jsonFile = options.out.resolve(base + ".json");
    JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValue(jsonFile.toFile(), json);
    if (!cdf.isEmpty()) {
      Path png = options.out.resolve(base + "-lag.png");
      Charts.cdf("Revocation lag on the other nodes under load (" + jdk + ", " + commit + ")", "lag (ms, log scale)", cdf, png);
      md.append("![revocation lag CDF](").append(png.getFileName()).append(")\n\n");
    }
    Path mdFile = options.out.resolve(base + ".md");
    Files.writeString(mdFile, md, StandardCharsets.UTF_8);
    out.print(md);
    out.println("wrote " + jsonFile + " and " + mdFile);
    if (contradicted > 0) {
      progress.println(contradicted + " counts contradict the documented behaviour of the revocation store (exit status "
          + CONTRADICTED + ")");
    }
    return contradicted == 0 ? 0 : CONTRADICTED;
  }

  /** The targets against the lag runs: push p99 under 100 ms, polling p99 under the interval. */
  static String targets(List<RevocationProfile.Run> runs, RevocationProfile.Settings s) {
    StringBuilder t = new StringBuilder();
    for (RevocationProfile.Run r : runs) {
      if (r.scenario().fault()) {
        continue;
      }
      double target = r.scenario() == RevocationScenario.PUSH ? PUSH_TARGET_MILLIS : s.poll().toMillis();
      double p99 = LagStats.of(r.revoked(), (x, i) -> i != x.logoutNode).p99();
      t.append(String.format(Locale.ROOT, "Target for %s: p99 under %.0f ms on the other nodes: %s.%n", r.scenario().id(),
          target, Double.isNaN(p99) ? "nothing measured" : p99 < target ? "met (" + ms(p99) + " ms)"
              : "missed by " + ms(p99 - target) + " ms (" + ms(p99) + " ms)"));
    }
    return t.toString();
  }

  /** One token for the JSON report: who logged out where, when, and what each node did with it. */
  private static Map<String, Object> describe(RevocationLag.Revoked t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("user", t.user);
    m.put("loginNode", t.loginNode);
    m.put("logoutNode", t.logoutNode);
    m.put("logoutStatus", t.logoutStatus);
    m.put("revokedAtSeconds", LagStats.round(t.revokedAt));
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (RevocationLag.PerNode n : t.nodes) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("lagMillis", n.lagNanos < 0 ? null : LagStats.round(n.lagNanos / 1e6));
      x.put("served", n.leaked.get());
      x.put("lastServedAtSeconds", n.lastLeakAt < 0 ? null : LagStats.round(n.lastLeakAt));
      x.put("answered503", n.unavailable.get());
      x.put("noReply", n.unreachable.get());
      nodes.add(x);
    }
    m.put("nodes", nodes);
    return m;
  }

  static String ms(double v) {
    return Double.isNaN(v) ? "–" : v < 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.0f", v);
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
