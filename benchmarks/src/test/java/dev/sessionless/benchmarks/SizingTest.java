package dev.sessionless.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The sizing command on a sample session, in smoke mode: exact sizes, the shape of the rest. */
class SizingTest {
  private static final Pattern CPU = Pattern.compile("  (decode|decodeRead|encode) +\\d+\\.\\d{3} us( ± \\d+\\.\\d{3} \\(99\\.9%\\))?");
  private static final Pattern CORES = Pattern.compile(
      "at 2000 requests/s \\d+\\.\\d{3} cores reading the session on every request, \\d+\\.\\d{3} cores if every request also writes it");

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(SizingTest.class.getResource("/" + name).toURI());
  }

  private static List<String> run(int expectedExit, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = Sizing.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(expectedExit, exit, err.toString(StandardCharsets.UTF_8));
    return (expectedExit == 0 ? out : err).toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void sizingPrintsTheTokenSizesLimitsAndCpuPerRequest() throws Exception {
    List<String> lines = run(0, "--session", resource("sample-session.json").toString(),
        "--alg", "HS256", "--rate", "2000", "--smoke");
    assertEquals("Sessionless sizing: sample-session.json, HS256", lines.get(0));
    assertEquals("state              4 attributes, 159 bytes of JSON", lines.get(1));
    assertEquals("token              451 bytes", lines.get(2));
    assertEquals("as a cookie        463 bytes in the Cookie header (SESSIONLESS=...), 503 in Set-Cookie with Path/Secure/HttpOnly/SameSite", lines.get(3));
    assertEquals("as a header        473 bytes (Authorization: Bearer ...)", lines.get(4));
    assertEquals("limits:", lines.get(5));
    for (int i = 6; i <= 10; i++) {
      assertTrue(lines.get(i).endsWith(" fits"), lines.get(i));
    }
    assertTrue(lines.get(11).startsWith("CPU per operation  (JMH Runner API"), lines.get(11));
    for (int i = 12; i <= 14; i++) {
      assertTrue(CPU.matcher(lines.get(i)).matches(), lines.get(i));
    }
    assertTrue(CORES.matcher(lines.get(15)).matches(), lines.get(15));
    assertTrue(lines.get(16).startsWith("(smoke mode"), lines.get(16));
  }

  @Test
  void anHttpSessionDumpSizesLikeTheSameAttributesAsJson() throws Exception {
    List<String> lines = run(0, "--session", resource("sample-session.properties").toString(),
        "--alg", "HS256", "--rate", "2000", "--smoke");
    assertEquals("state              4 attributes, 159 bytes of JSON", lines.get(1));
    assertEquals("token              451 bytes", lines.get(2));
  }

  @Test
  void aBigSessionIsToldItNeedsChunking() throws Exception {
    Path big = SizingBenchmark.sampleOfStateSize(5000);
    List<String> lines = run(0, "--session", big.toString(), "--alg", "dir", "--rate", "100", "--smoke",
        "--cookie", "S");
    assertTrue(lines.get(6).contains("too big by") && lines.get(6).contains("split into 2 cookies"), lines.get(6));
    assertTrue(lines.get(8).contains("too big by") && lines.get(9).endsWith(" fits"), lines.get(8) + lines.get(9));
  }

  @Test
  void anUnknownAlgorithmIsAUsageErrorNotACrash() throws Exception {
    List<String> err = run(2, "--session", resource("sample-session.json").toString(),
        "--alg", "RS1", "--rate", "2000", "--smoke");
    assertTrue(err.get(0).startsWith("unknown algorithm RS1: use HS256, ES256, EdDSA, dir or dir+zip"), err.get(0));
  }
}
