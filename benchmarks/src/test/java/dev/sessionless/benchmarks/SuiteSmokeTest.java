package dev.sessionless.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Every benchmark of the suite, old and new, runs once in smoke mode (in-process, no warm-up, one
 * 10 ms iteration): set-up checks that every peer accepts its token, so a benchmark that rots
 * fails the build. The propagation benchmark must have run every method for both algorithms,
 * and the matrix report must show the peers' encoders and Sessionless's ratio to the best of
 * them. No figure from here means anything.
 */
class SuiteSmokeTest {
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES) // every benchmark in-process: 84 s measured on a loaded 2-core machine
  void everyBenchmarkRunsOnceAndTheReportReadsTheMatrix(@TempDir Path dir) throws Exception {
    Set<String> methods = new TreeSet<>();
    OutputFormat silent = OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT);
    for (BenchmarkListEntry e : BenchmarkList.defaultList().getAll(silent, List.of())) {
      methods.add(e.getUsername());
    }
    Path json = dir.resolve("smoke.json");
    OptionsBuilder b = new OptionsBuilder();
    if (Runtime.version().feature() < 21) {
      b.param("threads", "platform"); // virtual threads need JDK 21; the benchmark says so itself
    }
    Options o = b
        .include("dev\\.sessionless\\.benchmarks\\..*Benchmark\\.")
        .exclude("SizingBenchmark")
        .param("stateBytes", "64", "4096")
        .forks(0)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(10))
        .shouldFailOnError(true)
        .result(json.toString())
        .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
        .build();
    Collection<RunResult> results = new Runner(o).run();

    Set<String> ran = new TreeSet<>();
    results.forEach(r -> ran.add(r.getParams().getBenchmark()));
    methods.removeIf(m -> m.contains("SizingBenchmark"));
    assertEquals(methods, ran, "every benchmark method ran");
    assertTrue(ran.size() > 60, "the matrix is in the suite: " + ran.size());

    for (String alg : new String[] {"ES256", "EdDSA"}) {
      for (String m : new String[] {"sessionlessMint", "sessionlessVerify", "sessionlessVerifyCacheHit",
          "nimbusMint", "nimbusVerify", "jose4jMint", "jose4jVerify", "jdkVerify", "signatureFloor"}) {
        String name = "dev.sessionless.benchmarks.PropagationBenchmark." + m;
        assertTrue(results.stream().anyMatch(r -> r.getParams().getBenchmark().equals(name)
                && alg.equals(r.getParams().getParam("alg"))),
            "the propagation benchmark ran " + m + " for " + alg);
      }
    }

    Path md = MatrixReport.write(json, dir);
    String text = Files.readString(md);
    for (String alg : new String[] {"HS256", "dir", "dir+zip", "ES256", "EdDSA"}) {
      assertTrue(text.contains("## " + alg + " — Decode\n"), alg + " decode table in latest.md");
    }
    for (String alg : new String[] {"ES256", "EdDSA", "dir", "dir+zip"}) {
      String encode = text.substring(text.indexOf("## " + alg + " — Encode\n"));
      String header = encode.substring(0, encode.indexOf("|---"));
      for (String peer : new String[] {"jose4j", "nimbus", "jjwt"}) {
        assertTrue(header.contains(" " + peer + " |"), peer + " encodes " + alg + " in the matrix");
      }
      assertTrue(encode.substring(0, encode.indexOf("\n\n", header.length())).contains("× ("),
          "Sessionless ÷ the best peer for " + alg + " encode");
    }
    assertTrue(Files.size(dir.resolve("hs256-decode.png")) > 1000, "a decode chart");
    assertTrue(Files.size(dir.resolve("token-bytes.png")) > 1000, "the token size chart");
  }
}
