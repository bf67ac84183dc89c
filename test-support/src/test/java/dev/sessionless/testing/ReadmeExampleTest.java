package dev.sessionless.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps the README's example compiling and true: the code between the markers is the README's. */
@Timeout(30)
class ReadmeExampleTest {
  @Test
  void readmeExampleMovesTheClockAndBreaksItsView() {
    // readme-example:start
    FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));
    clock.advance(Duration.ofMinutes(31)); // past a 30-minute token's expiry, without sleeping
    Clock gone = clock.failingWhen(() -> new IllegalStateException("time service unreachable"));
    // readme-example:end
    assertEquals(Instant.parse("2026-11-28T10:31:00Z"), clock.instant());
    assertThrows(IllegalStateException.class, gone::millis);
    assertThrows(IllegalStateException.class, gone::instant);
  }

  @Test
  void aFailingViewReadsTheClockWhenItsFailureAnswersNothing() {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));
    boolean[] broken = {false};
    Clock view = clock.failingWhen(() -> broken[0] ? new IllegalStateException("gone") : null);
    clock.advance(Duration.ofSeconds(5));
    assertEquals(clock.millis(), view.millis());
    assertEquals(clock.instant(), view.instant());
    broken[0] = true;
    assertThrows(IllegalStateException.class, view::millis);
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/testing/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
