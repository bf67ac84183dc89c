package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole tool for a few seconds, end to end, so it never rots. No figures are claimed. */
class LoadToolSmokeTest {
  @Test
  void peakAndStressRunEndToEndAndWriteEveryOutput(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak,stress", "--systems=sessionless,session-nonsticky",
        "--max-users=4", "--step=700ms", "--system-warmup=300ms", "--jit-settle=300ms", "--warmup=200ms",
        "--start-rate=50", "--max-steps=2",
        "--out=" + dir}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.toList();
    }
    assertTrue(files.stream().anyMatch(f -> f.toString().endsWith("-usl.png")), files.toString());
    assertTrue(files.stream().anyMatch(f -> f.toString().endsWith("-latency.png")), files.toString());
    Path json = files.stream().filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    JsonNode sessionless = root.path("systems").path("sessionless");
    assertEquals(3, sessionless.path("peak").path("steps").size(), root.toPrettyString()); // 1, 2, 4 users
    assertEquals(0, sessionless.path("peak").path("cartsLost").asLong());
    assertTrue(sessionless.path("usl").has("alpha"), root.toPrettyString());
    assertTrue(root.path("systems").path("session-nonsticky").path("peak").path("cartsLost").asLong() > 0);
    String md = Files.readString(files.stream().filter(f -> f.toString().endsWith(".md")).findFirst().orElseThrow());
    assertTrue(md.contains("| step | target/s | achieved/s | p50 |"), md);
    // a baseline's plan says where "machines share nothing" does not make it right
    assertTrue(md.contains("  - for this system: a user's requests reach machines that do not hold its session"), md);
    assertEquals(1, md.split("  - for this system: ", -1).length - 1, "Sessionless's plan has no caveat: " + md);
    // one settling round (300 ms of each system) fits the limit; the report says what it found
    String settling = root.path("warmup").path("jitSettling").asText();
    assertTrue(settling.contains("after 1 warm-up round ("), root.path("warmup").toPrettyString());
    assertTrue(md.contains("Warm-up: 0.3 s per system, then " + settling), md);
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("JIT settling: round 1"),
        progress.toString(StandardCharsets.UTF_8));
  }

  @Test
  void forksRunTheCommandInFreshJvmsAndSummariseTheRatiosAcrossThem(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak", "--systems=sessionless,session-sticky", "--forks=2",
        "--max-users=4", "--step=600ms", "--warmup=100ms", "--system-warmup=200ms", "--jit-settle=0s",
        "--out=" + dir}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8));
    String log = progress.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, log);
    assertTrue(log.contains("fork 1/2: ") && log.contains("fork 2/2: "), log);
    List<String> names;
    try (Stream<Path> s = Files.list(dir)) {
      names = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertTrue(names.stream().anyMatch(n -> n.endsWith("-peak-fork1of2.json")), names.toString());
    assertTrue(names.stream().anyMatch(n -> n.endsWith("-peak-fork2of2.json")), names.toString());
    Path summary = dir.resolve(names.stream().filter(n -> n.endsWith("-peak-forks.json")).findFirst().orElseThrow());
    JsonNode root = new ObjectMapper().readTree(summary.toFile());
    assertEquals(2, root.path("forks").asInt());
    JsonNode levels = root.path("sessionlessOverStickyThroughput");
    assertEquals(3, levels.size(), root.toPrettyString()); // 1, 2 and 4 users (a ratio needs the USL fit's three)
    for (JsonNode level : levels) {
      assertEquals(2, level.path("forks").size(), level.toString());
      double a = level.path("forks").get(0).asDouble();
      double b = level.path("forks").get(1).asDouble();
      assertEquals((a + b) / 2, level.path("median").asDouble(), 1e-9, level.toString());
      assertEquals(Math.min(a, b), level.path("lowest").asDouble(), 1e-9, level.toString());
      assertTrue(a > 0 && b > 0, level.toString());
    }
    // every fork ran with this JVM's options (agents and flight recordings left out), such as
    // the headless flag this module's surefire configuration gives it
    assertTrue(dev.sessionless.load.internal.Forks.jvmOptions().contains("-Djava.awt.headless=true"));
    JsonNode fork = new ObjectMapper().readTree(dir.resolve(names.stream()
        .filter(n -> n.endsWith("-peak-fork2of2.json")).findFirst().orElseThrow()).toFile());
    assertEquals(dev.sessionless.load.internal.Forks.forReport(dev.sessionless.load.internal.Forks.jvmOptions()),
        new ObjectMapper().convertValue(fork.path("jvmOptions"), List.class), fork.path("jvmOptions").toString());
    // a report names a system property but never shows its value (it may be a secret)
    assertTrue(fork.path("jvmOptions").toString().contains("\"-Djava.awt.headless=…\""), fork.path("jvmOptions").toString());
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("## Sessionless vs session-sticky, across forks"), printed);
    assertTrue(printed.contains("-peak-fork1of2.md"), printed);
  }

  @Test
  void aForkLabelThatIsNotIOfNIsRefused() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, LoadTool.run(new String[] {"peak", "--fork=3"}, System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--fork is set by --forks, as i/N"), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void soakAndFloodRunEndToEnd(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"soak,flood", "--systems=sessionless", "--system-warmup=300ms", "--jit-settle=0s",
        "--max-users=4", "--step=600ms", "--warmup=100ms", "--rate=50", "--duration=1200ms", "--out=" + dir},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    Path json;
    try (Stream<Path> s = Files.list(dir)) {
      json = s.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    JsonNode sessionless = new ObjectMapper().readTree(json.toFile()).path("systems").path("sessionless");
    assertEquals(6, sessionless.path("soak").path("steps").size(), sessionless.toPrettyString());
    assertEquals(2, sessionless.path("soakHeapAfterGcBytes").size(), sessionless.toPrettyString());
    assertEquals(1, sessionless.path("flood").path("steps").size(), sessionless.toPrettyString());
    assertEquals(0, sessionless.path("flood").path("cartsLost").asLong());
  }

  @Test
  void withoutRedisServerTheToolSaysHowToInstallItAndRunsTheOthers(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"flood", "--systems=sessionless,spring-session-redis", "--max-users=2",
        "--step=500ms", "--warmup=100ms", "--system-warmup=200ms", "--jit-settle=0s", "--redis-server=" + dir.resolve("no-redis-here"),
        "--out=" + dir}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("apt-get install redis-server"), progress.toString(StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("## sessionless") && !printed.contains("## spring-session-redis"), printed);
  }

  @Test
  void badArgumentsExitWithTwoAndTheUsage() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"marathon"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown profile 'marathon'"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: LoadTool"));
  }

  @Test
  void sessionlessTokensAreSignedAndPlainUnlessAskedAndUnknownSettingsAreRefused() {
    assertEquals(dev.sessionless.core.Compression.NONE,
        dev.sessionless.load.internal.Options.parse("peak").sessionlessCompression);
    assertEquals(dev.sessionless.core.Algorithm.HS256,
        dev.sessionless.load.internal.Options.parse("peak").sessionlessAlgorithm);
    assertEquals(dev.sessionless.core.Algorithm.DIR_A256GCM,
        dev.sessionless.load.internal.Options.parse("peak", "--sessionless-algorithm=dir").sessionlessAlgorithm);
    ByteArrayOutputStream badAlg = new ByteArrayOutputStream();
    assertEquals(2, LoadTool.run(new String[] {"peak", "--sessionless-algorithm=rs256"}, System.out,
        new PrintStream(badAlg, true, StandardCharsets.UTF_8)));
    assertTrue(badAlg.toString(StandardCharsets.UTF_8).contains("--sessionless-algorithm must be hs256 or dir"),
        badAlg.toString(StandardCharsets.UTF_8));
    assertEquals(dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY, dev.sessionless.load.internal.Options
        .parse("peak", "--sessionless-compression=deflate-with-dictionary").sessionlessCompression);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak", "--sessionless-compression=gzip"}, System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--sessionless-compression must be none, deflate"),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * A ramp whose users think says so in the report, and plans no capacity from it: until the
   * system saturates, its throughput is set by the think time, not by the system.
   */
  @Test
  void aThinkTimeRampIsLabelledAndPlansNoCapacity(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak,stress", "--systems=sessionless", "--think=50ms",
        "--max-users=4", "--step=700ms", "--system-warmup=300ms", "--jit-settle=0s", "--warmup=200ms",
        "--start-rate=50", "--max-steps=1", "--out=" + dir}, new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    Path json = report(dir, ".json");
    Path mdFile = report(dir, ".md");
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertEquals(50, root.path("thinkTime").path("millis").asLong(), root.toPrettyString());
    assertEquals("exponential", root.path("thinkTime").path("distribution").asText(), root.toPrettyString());
    JsonNode sessionless = root.path("systems").path("sessionless");
    assertTrue(sessionless.path("usl").has("alpha"), root.toPrettyString());
    assertEquals(dev.sessionless.load.internal.ReportText.THINK_FIT_NOTE, sessionless.path("plan").path("skipped").asText(), root.toPrettyString());
    String md = Files.readString(mdFile);
    assertTrue(md.contains("negative exponential with a mean of 50 ms"), md);
    assertTrue(md.contains(dev.sessionless.load.internal.ReportText.THINK_FIT_NOTE), md);
    assertTrue(md.contains("Capacity plan: none (the ramp had think time"), md);
  }

  /**
   * The padded baseline runs beside the others only when named, and the report puts its ratio
   * to plain sticky sessions (the ceiling) before Sessionless's ratio to it.
   */
  @Test
  void thePaddedBaselineRunsWhenNamedAndTheReportGivesTheCeiling(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak", "--systems=sessionless,session-sticky,session-sticky-padded",
        "--padding=300", "--max-users=4", "--step=600ms", "--system-warmup=300ms", "--jit-settle=0s",
        "--warmup=100ms", "--out=" + dir}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    Path json = report(dir, ".json");
    Path mdFile = report(dir, ".md");
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertEquals(3, root.path("paddedOverStickyThroughput").size(), root.toPrettyString());
    assertEquals(3, root.path("sessionlessOverPaddedThroughput").size(), root.toPrettyString());
    JsonNode padded = root.path("systems").path("session-sticky-padded").path("peak");
    assertEquals(0, padded.path("sessionsLost").asLong(), padded.toPrettyString());
    // JSESSIONID and a 300-character PAD: the cookie was carried back
    assertTrue(padded.path("maxCookieBytes").asLong() > 300, padded.toPrettyString());
    String md = Files.readString(mdFile);
    assertTrue(md.indexOf("## The ceiling: session-sticky-padded vs session-sticky") >= 0, md);
    assertTrue(md.indexOf("## The ceiling:") < md.indexOf("## Sessionless vs session-sticky-padded"), md);
    assertTrue(md.contains("opaque 300-character cookie"), md);
    assertEquals(dev.sessionless.load.internal.Options.SYSTEMS,
        dev.sessionless.load.internal.Options.parse("peak").systems); // not run unless named
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, LoadTool.run(new String[] {"peak", "--padding=0"}, System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--padding must be 1 to 4000"), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void thinkTimesAreExponentialUnlessFixedIsAskedForAndOtherDistributionsAreRefused() {
    assertEquals(ClosedPhase.Think.EXPONENTIAL, dev.sessionless.load.internal.Options.parse("peak").thinkDistribution);
    assertEquals(ClosedPhase.Think.FIXED, dev.sessionless.load.internal.Options
        .parse("peak", "--think=1s", "--think-distribution=fixed").thinkDistribution);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak", "--think-distribution=gaussian"}, System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--think-distribution must be exponential or fixed"),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(dev.sessionless.load.internal.ReportText.thinkLine(dev.sessionless.load.internal.Options.parse("peak", "--think=1s"))
        .contains("negative exponential with a mean of 1000 ms"));
    assertEquals("0.95", dev.sessionless.load.internal.ReportText.rate(0.951));
    assertEquals("66.9", dev.sessionless.load.internal.ReportText.rate(66.94));
    assertEquals("1234", dev.sessionless.load.internal.ReportText.rate(1234.4));
  }

  @Test
  void jettyHeaderCacheIsOffUnlessAskedForAndANegativeSizeIsRefused() {
    assertEquals(0, dev.sessionless.load.internal.Options.parse("peak").jettyHeaderCache);
    assertEquals(1024, dev.sessionless.load.internal.Options.parse("peak", "--jetty-header-cache=1024").jettyHeaderCache);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"peak", "--jetty-header-cache=-1"}, System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--jetty-header-cache must be 0"), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * {@code --app-cpu} makes every system's shop spend that much CPU on each request: with 2 ms a
   * request and 2 users, no system can serve 1,000 requests a second (2 requests in flight, each
   * needing 2 ms of a thread's CPU), where the bare shop serves thousands.
   */
  @Test
  void theShopSpendsTheAppCpuAskedForOnEveryRequestOfEverySystem(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"flood", "--systems=sessionless,session-sticky", "--app-cpu=2ms",
        "--max-users=2", "--step=800ms", "--system-warmup=300ms", "--jit-settle=0s", "--warmup=100ms",
        "--out=" + dir}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(0, code, progress.toString(StandardCharsets.UTF_8));
    JsonNode root = new ObjectMapper().readTree(report(dir, ".json").toFile());
    assertEquals(2000, root.path("appCpuMicros").asLong(), root.toPrettyString());
    for (String system : List.of("sessionless", "session-sticky")) {
      JsonNode step = root.path("systems").path(system).path("flood").path("steps").path(0);
      double rate = step.path("achievedRate").asDouble();
      assertTrue(rate > 0 && rate < 1100, system + " served " + rate + "/s: " + step.toPrettyString());
    }
    assertTrue(Files.readString(report(dir, ".md")).contains("The shop spends 2000 µs of CPU on every request"));
    assertEquals(java.time.Duration.ofNanos(200_000),
        dev.sessionless.load.internal.Options.parse("peak", "--app-cpu=200us").appCpu);
    assertEquals(java.time.Duration.ZERO, dev.sessionless.load.internal.Options.parse("peak").appCpu);
    ByteArrayOutputStream huge = new ByteArrayOutputStream();
    assertEquals(2, LoadTool.run(new String[] {"peak", "--app-cpu=99999999999999999us"}, System.out,
        new PrintStream(huge, true, StandardCharsets.UTF_8)));
    assertTrue(huge.toString(StandardCharsets.UTF_8).contains("--app-cpu must be a duration"),
        huge.toString(StandardCharsets.UTF_8));
    for (String bad : List.of("--app-cpu=-1us", "--app-cpu=2s")) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      assertEquals(2, LoadTool.run(new String[] {"peak", bad}, System.out,
          new PrintStream(err, true, StandardCharsets.UTF_8)), bad);
      assertTrue(err.toString(StandardCharsets.UTF_8).contains("--app-cpu must be 0 to 1s"),
          err.toString(StandardCharsets.UTF_8));
    }
  }

  /** The one file of the run in {@code dir} whose name ends with {@code suffix}. */
  private static Path report(Path dir, String suffix) throws java.io.IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.toString().endsWith(suffix)).findFirst().orElseThrow();
    }
  }
}
