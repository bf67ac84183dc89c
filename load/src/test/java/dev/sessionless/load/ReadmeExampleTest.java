package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the README's example compiling and true: the code below is the README's, line for line. */
class ReadmeExampleTest {
  @Test
  void readmeExampleFitsAndPlans() throws IOException {
    Path csv = Files.createTempFile("ramp", ".csv");
    Files.writeString(csv, "users,throughput\n1,955\n2,1830\n4,3280\n8,4900\n16,5600\n32,5100\n");
    List<LatencyPoint> measured = List.of(new LatencyPoint(1000, 12), new LatencyPoint(2000, 35),
        new LatencyPoint(3000, 90), new LatencyPoint(4000, 450));
    // readme-example:start
    UslFit fit = Usl.fit(Usl.readCsv(csv));              // concurrency,throughput per line
    System.out.print(fit.summary());                     // λ, α, β ± errors, R², N*, X_max, warnings
    CapacityPlan plan = CapacityPlan.plan(
        2000, 200,                                       // requests/s, p99 limit in ms
        measured,                                        // p99 at each open-model rate
        fit, 0.8, true);                                 // 80% headroom, one spare machine
    System.out.print(plan.summary());                    // machines, and the assumptions
    // readme-example:end
    assertTrue(fit.peakConcurrency() > 16 && fit.peakConcurrency() < 32, fit.summary());
    // p99 crosses 200 ms between 3000/s and 4000/s at 3000 + 110/360·1000 = 3306/s; the USL peak
    // (about 5600/s) does not bind; at 80% that is 2644/s, so one machine plus one spare
    assertEquals(2, plan.machines(), plan.summary());
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/load/ReadmeExampleTest.java"),
        "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown);
  }
}
