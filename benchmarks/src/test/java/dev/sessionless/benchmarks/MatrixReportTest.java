package dev.sessionless.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** latest.md from several result files: a later file's cell replaces the earlier one's, and both are named. */
class MatrixReportTest {
  static String record(String method, int state, double score, String warmup) {
    return String.format(Locale.ROOT, """
        {"benchmark": "dev.sessionless.benchmarks.MatrixHs256Benchmark.%s", "mode": "avgt", "forks": 1,
         "jdkVersion": "17.0.15", "vmName": "OpenJDK 64-Bit Server VM",
         "warmupIterations": 2, "warmupTime": "%s", "measurementIterations": 2, "measurementTime": "500 ms",
         "params": {"stateBytes": "%d"},
         "primaryMetric": {"score": %s, "scoreError": 0.1, "scoreUnit": "us/op"},
         "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 700.0}}}""", method, warmup, state, score);
  }

  @Test
  void aLaterFilesCellReplacesTheEarlierOneAndEveryFileIsNamedWithItsSettings(@TempDir Path dir) throws Exception {
    Path whole = dir.resolve("whole.json");
    Files.writeString(whole, "[" + record("sessionlessDecode", 64, 10.0, "500 ms") + ","
        + record("naiveDecode", 64, 20.0, "500 ms") + ","
        + record("sessionlessDecode", 4096, 30.0, "500 ms") + ","
        + record("naiveDecode", 4096, 60.0, "500 ms") + "]");
    Path rerun = dir.resolve("rerun.json");
    Files.writeString(rerun, "[" + record("sessionlessDecode", 64, 5.0, "1 s") + "]");

    String md = Files.readString(MatrixReport.write(List.of(whole, rerun), dir.resolve("out")));

    assertTrue(md.contains("| 64 | 5.000 (700) |"), "the re-run's 64 B cell wins:\n" + md);
    assertTrue(md.contains("| 64 | 5.000 (700) | 20.0 (700) | - | 0.25× |"), "its ratio to naive uses it:\n" + md);
    assertTrue(md.contains("| 4096 | 30.0 (700) | 60.0 (700) | - | 0.50× |"), "cells not re-run stay:\n" + md);
    assertTrue(md.contains("- `whole.json`: JDK 17.0.15") && md.contains("4 cells")
        && md.contains("- `rerun.json`: JDK 17.0.15") && md.contains("1 cells"), "both sources named:\n" + md);
    assertTrue(md.contains("2 × 1 s warm-up"), "the re-run's own settings are shown:\n" + md);
  }
}
