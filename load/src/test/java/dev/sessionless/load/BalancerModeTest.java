package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The load tool's {@code --balancer}: the whole command through a real HAProxy, and both routings
 * in one report. The tests tagged {@code haproxy} need HAProxy: they run when {@code
 * /usr/sbin/haproxy} exists or with {@code -Pbalancer} (and then fail without it, with the
 * tool's install message); the missing-HAProxy message is checked everywhere.
 */
class BalancerModeTest {
  @TempDir Path dir;

  private record Run(int code, String out, String progress) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), progress.toString(StandardCharsets.UTF_8));
  }

  private JsonNode report() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(json.toFile());
    }
  }

  private String file(String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return Files.readString(files.filter(p -> p.toString().endsWith(suffix)).findFirst().orElseThrow());
    }
  }

  /**
   * The faults profile through the proxy: node 1 killed, restarted, the key rotated, with HAProxy
   * as the only thing the users reach. Sessionless loses nothing (exit status 0); sticky in-memory
   * sessions lose the killed node's users, which shows the kill did reach them through the proxy.
   */
  @Test
  @Tag("haproxy")
  @Timeout(120)
  void theFaultsProfileThroughTheProxyLosesNothingForSessionless() throws IOException {
    Run r = run("faults", "--balancer=haproxy", "--systems=sessionless,session-sticky", "--users=6", "--step=3s",
        "--warmup=300ms", "--system-warmup=1s", "--out=" + dir);
    assertEquals(0, r.code(), r.progress());
    JsonNode systems = report().path("systems");
    assertEquals(List.of("sessionless@haproxy", "session-sticky@haproxy"), List.copyOf(iterable(systems)), r.out());
    JsonNode sessionless = systems.path("sessionless@haproxy").path("faults");
    assertEquals(0, sessionless.path("sessionsLost").asLong(), r.out());
    assertEquals(0, sessionless.path("cartsLost").asLong(), r.out());
    assertTrue(sessionless.path("journeysCompleted").asLong() >= 6, r.out());
    assertTrue(systems.path("session-sticky@haproxy").path("faults").path("sessionsLost").asLong() >= 1, r.out());
    assertTrue(r.out().contains("Sessionless via HAProxy lost nothing"), r.out());
    assertTrue(r.out().contains("routed by a real HAProxy"), r.out());
    assertTrue(file("-session-sticky-haproxy.cfg").contains("cookie SERVERID insert indirect nocache"));
    String roundRobin = file("-sessionless-haproxy.cfg");
    assertTrue(roundRobin.contains("balance roundrobin") && !roundRobin.contains("cookie SERVERID"), roundRobin);
  }

  /** {@code both}: every system client-routed and proxied, the rows and the ratio tables side by side. */
  @Test
  @Tag("haproxy")
  @Timeout(120)
  void bothRunsEachSystemClientRoutedAndThroughTheProxyWithTheRatiosSideBySide() throws IOException {
    Run r = run("peak", "--balancer=both", "--systems=sessionless,session-sticky", "--max-users=4", "--step=600ms",
        "--warmup=100ms", "--system-warmup=300ms", "--jit-settle=0s", "--out=" + dir);
    assertEquals(0, r.code(), r.progress());
    String md = file(".md");
    for (String heading : List.of("## sessionless\n", "## session-sticky\n", "## sessionless@haproxy\n",
        "## session-sticky@haproxy\n", "## Sessionless vs session-sticky (closed ramp",
        "## Sessionless vs session-sticky via HAProxy (closed ramp", "## Through HAProxy vs routed by the client",
        "### sessionless\n", "### session-sticky\n")) {
      assertTrue(md.contains(heading), heading + " in\n" + md);
    }
    JsonNode json = report();
    assertEquals(3, json.path("sessionlessOverStickyThroughput").size(), md);
    assertEquals(3, json.path("sessionlessOverStickyThroughputViaHaproxy").size(), md);
    assertEquals(3, json.path("haproxyOverClientThroughput:sessionless").size(), md);
    assertEquals(0, json.path("systems").path("sessionless@haproxy").path("peak").path("sessionsLost").asLong(), md);
  }

  @Test
  @Timeout(30)
  void aMissingHaproxyStopsTheToolAndSaysHowToInstallIt() {
    Run r = run("peak", "--balancer=haproxy", "--haproxy=" + dir.resolve("no-haproxy-here"), "--out=" + dir);
    assertEquals(1, r.code(), r.progress());
    assertTrue(r.progress().contains("--balancer=haproxy needs HAProxy: haproxy not found at"), r.progress());
    assertTrue(r.progress().contains("sudo apt-get install -y haproxy"), r.progress());
    Run bad = run("peak", "--balancer=nginx");
    assertEquals(2, bad.code());
    assertTrue(bad.progress().contains("--balancer must be client, haproxy or both, got 'nginx'"), bad.progress());
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.propertyNames().forEach(names::add);
    return names;
  }
}
