package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
        "--max-users=4", "--step=700ms", "--system-warmup=300ms", "--warmup=200ms", "--start-rate=50", "--max-steps=2",
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
  }

  @Test
  void badArgumentsExitWithTwoAndTheUsage() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadTool.run(new String[] {"marathon"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown profile 'marathon'"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: LoadTool"));
  }
}
