package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.Options;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Keeps the root README's one demo command true: the build it names makes the jar it runs, and
 * the tool run with the README's own arguments, made shorter in time only, shows Sessionless
 * beside the in-memory sessions and Spring Session + Redis through the same node kill and exits
 * 0 because Sessionless lost nothing. A renamed option, profile, module or jar fails here.
 */
class ReadmeDemoTest {
  /** The only change to the README's command: less time per system. Users, systems and faults are the demo's. */
  private static final List<String> SHORTER = List.of("--step=2500ms", "--system-warmup=800ms");

  /** The root README's demo command, one line. */
  private static String command() throws IOException {
    List<String> lines = ReadmeBlocks.markdown(Path.of("../README.md"), "readme-demo");
    assertEquals(1, lines.size(), "the root README's readme-demo block is one command line: " + lines);
    return lines.get(0);
  }

  /** What the README's command passes to the tool: the words after the jar. */
  private static List<String> readmeArgs() throws IOException {
    String[] parts = command().split(" && ");
    List<String> run = List.of(parts[parts.length - 1].strip().split("\\s+"));
    return run.subList(3, run.size());
  }

  private record Run(int code, String printed, String progress) {}

  private static Run run(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), progress.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theReadmesBuildStepMakesTheJarItsDemoRunsWithoutInstallingAnything() throws IOException {
    String[] parts = command().split(" && ");
    assertEquals(2, parts.length, "a build, then the demo: " + command());
    List<String> build = List.of(parts[0].strip().split("\\s+"));
    assertEquals("mvn", build.get(0), parts[0]);
    assertTrue(build.contains("package") && !build.contains("install"),
        "package, not install (which writes into ~/.m2, where later builds pick it up): " + parts[0]);
    assertTrue(build.contains("-am"), "-am builds the modules the tool needs from this tree: " + parts[0]);
    String module = build.get(build.indexOf("-pl") + 1);
    assertEquals(Path.of("").toAbsolutePath().getFileName().toString(), module, "the build names this module");
    Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(Files.readString(Path.of("pom.xml")));
    assertTrue(finalName.find(), "this module's pom names its shaded jar");
    List<String> run = List.of(parts[1].strip().split("\\s+"));
    assertEquals(List.of("java", "-jar", module + "/target/" + finalName.group(1) + ".jar"), run.subList(0, 3), parts[1]);
    assertEquals(List.of(Options.DEMO), readmeArgs(), "the demo's defaults are what this class tests");
  }

  @Test
  void theDemoIsTheFaultsProfileOnEverySystemAndRunsAloneInOneJvm() throws IOException {
    Options demo = Options.parse(readmeArgs().toArray(String[]::new));
    assertTrue(demo.demo);
    assertEquals(List.of("faults"), demo.profiles);
    assertEquals(Options.SYSTEMS, demo.systems);
    assertEquals(12, demo.users);
    assertEquals(Duration.ofSeconds(8), demo.step);
    assertEquals(Duration.ofSeconds(3), demo.systemWarmup);
    assertEquals(dev.sessionless.core.Algorithm.DIR_A256GCM, demo.sessionlessAlgorithm, "the library's default tokens");
    assertEquals(dev.sessionless.core.Compression.DEFLATE, demo.sessionlessCompression, "the library's default tokens");
    assertEquals(Path.of("load/target/demo"), demo.out, "the demo's files stay out of the results kept in git");
    assertFalse(Options.parse("faults").demo);
    assertEquals(Duration.ofSeconds(5), Options.parse("faults").step, "the faults profile keeps its own defaults");
    assertEquals(dev.sessionless.core.Algorithm.HS256, Options.parse("faults").sessionlessAlgorithm);
    for (List<String> bad : List.of(List.of("demo,peak"), List.of("faults,demo"), List.of("demo", "--forks=2"))) {
      Run r = run(bad);
      assertEquals(2, r.code(), bad + ": " + r.progress());
      assertTrue(r.progress().contains("demo runs"), r.progress());
    }
  }

  /**
   * The README's demo, shorter: every system through the same kill, restart and (Sessionless) key
   * rotation; the short table in words and a sentence per system on standard output, the long
   * report in a file; and exactly the four users that lived on the killed node lose their
   * sticky in-memory sessions.
   */
  @Test
  void theReadmesDemoShowsEverySystemSideBySideWithWhatEachLostAndExitsZero(@TempDir Path dir) throws IOException {
    List<String> args = new ArrayList<>(readmeArgs());
    args.addAll(SHORTER);
    args.add("--out=" + dir);
    Run r = run(args);
    assertEquals(0, r.code(), r.progress() + r.printed());
    String printed = r.printed();
    assertTrue(printed.matches("(?s).*\\| system +\\| journeys completed \\| sessions lost \\| carts lost \\| requests failed"
        + " \\| largest cookie \\|.*"), printed);
    for (String row : List.of("Sessionless", "In-memory sessions (sticky)", "In-memory sessions (round-robin)",
        "Spring Session + Redis")) {
      assertTrue(printed.matches("(?s).*\\n\\| " + Pattern.quote(row) + " +\\| +\\d+ \\|.*"), row + " missing in\n" + printed);
    }
    String words = printed.replaceAll("\\s+", " "); // the sentences are wrapped for a terminal
    assertTrue(words.contains("- Sessionless lost nothing: the session travels in its cookie"), printed);
    assertTrue(words.contains("- Spring Session + Redis lost nothing: "), printed);
    assertTrue(words.contains("- In-memory sessions (sticky) lost 4 sessions and "), printed);
    assertTrue(words.contains("the sessions of the 4 users kept on node 1 lived in its memory"), printed);
    assertTrue(words.contains("- In-memory sessions (round-robin) lost "), printed);
    assertTrue(printed.lines().allMatch(l -> l.length() <= 100 || l.startsWith("|") || l.startsWith("The full report: ")),
        "running text fits a terminal: " + printed);
    assertFalse(printed.contains("| step |"), "the step tables stay in the report file: " + printed);
    assertTrue(printed.contains("The full report: " + dir), printed);
    assertTrue(r.progress().contains("Sessionless: warming up for 0.8 s"), r.progress());
    assertFalse(r.progress().contains("req/s"), "no progress line a second in the demo: " + r.progress());

    JsonNode systems;
    try (Stream<Path> s = Files.list(dir)) {
      systems = new ObjectMapper().readTree(s.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow()
          .toFile()).path("systems");
    }
    assertEquals(0, systems.path("sessionless").path("faults").path("sessionsLost").asLong(), systems.toPrettyString());
    assertEquals(0, systems.path("spring-session-redis").path("faults").path("sessionsLost").asLong(), systems.toPrettyString());
    assertEquals(4, systems.path("session-sticky").path("faults").path("sessionsLost").asLong(), systems.toPrettyString());
    assertTrue(systems.path("session-nonsticky").path("faults").path("sessionsLost").asLong() > 0, systems.toPrettyString());
    assertEquals(3, systems.path("sessionless").path("faults").path("events").size(), systems.toPrettyString());
  }

  /** The negative control: a rotation that drops the old key loses Sessionless sessions, and the demo says so and fails. */
  @Test
  void theDemoExitsWithThreeAndSaysWhyWhenARotationDropsTheOldKey(@TempDir Path dir) throws IOException {
    List<String> args = new ArrayList<>(readmeArgs());
    args.addAll(SHORTER);
    args.addAll(List.of("--systems=sessionless", "--rotation=drop-old", "--out=" + dir));
    Run r = run(args);
    assertEquals(3, r.code(), r.progress() + r.printed());
    assertTrue(r.progress().contains("Sessionless lost"), r.progress());
    assertTrue(r.printed().replaceAll("\\s+", " ").contains("the rotation dropped the old key at once (--rotation=drop-old)"),
        r.printed());
  }
}
