package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.JitSettling;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The warm-up that waits for the JIT: rounds go on while the compilers are busy and stop at the
 * first quiet round or at the limit. The compile counter and the clock are stand-ins so that each
 * round's compile share is known; the real counter is checked once for being a counter.
 */
class JitSettlingTest {
  /** Each round takes 3 s of the fake clock and adds the next figure to the compile counter. */
  private static JitSettling.Outcome settle(Duration limit, long[] compileMsPerRound, List<String> lines,
      AtomicInteger rounds) {
    AtomicLong clock = new AtomicLong();
    AtomicLong compiled = new AtomicLong();
    return JitSettling.run(limit, () -> {
      compiled.addAndGet(compileMsPerRound[Math.min(rounds.get(), compileMsPerRound.length - 1)]);
      clock.addAndGet(Duration.ofSeconds(3).toNanos());
      rounds.incrementAndGet();
    }, () -> OptionalLong.of(compiled.get()), clock::get, lines::add);
  }

  @Test
  void roundsGoOnWhileTheCompilersAreBusyAndStopAfterTwoQuietRoundsInARow() {
    List<String> lines = new ArrayList<>();
    AtomicInteger rounds = new AtomicInteger();
    // 3 s rounds: 900 ms compiling is 30%, 30 ms 1% (below the 2% line), 100 ms 3.3%, 15 ms 0.5%
    JitSettling.Outcome o = settle(Duration.ofSeconds(120), new long[] {900, 30, 100, 30, 15, 900}, lines, rounds);
    assertEquals(5, rounds.get(), "a quiet round between two busy ones does not count");
    assertTrue(o.settled());
    assertEquals(0.005, o.lastShare(), 1e-9);
    assertEquals(Duration.ofSeconds(15), o.spent());
    assertEquals(List.of("JIT settling: round 1, 30.0% compiling", "JIT settling: round 2, 1.0% compiling (quiet)",
        "JIT settling: round 3, 3.3% compiling", "JIT settling: round 4, 1.0% compiling (quiet)",
        "JIT settling: round 5, 0.5% compiling (settled)"), lines);
    assertEquals("JIT settled after 5 warm-up rounds (15 s): 0.5% of the last round compiling", o.describe());
  }

  @Test
  void aJitThatNeverSettlesStopsAtTheLimitAndSaysSo() {
    AtomicInteger rounds = new AtomicInteger();
    JitSettling.Outcome o = settle(Duration.ofSeconds(10), new long[] {600}, new ArrayList<>(), rounds);
    assertEquals(4, rounds.get(), "3, 6, 9 s are under the 10 s limit; the round ending at 12 s is the last");
    assertFalse(o.settled());
    assertEquals("JIT still compiling at the limit after 4 warm-up rounds (12 s): 20.0% of the last round compiling",
        o.describe());
  }

  @Test
  void aZeroLimitRunsNoRound() {
    AtomicInteger rounds = new AtomicInteger();
    JitSettling.Outcome o = settle(Duration.ZERO, new long[] {0}, new ArrayList<>(), rounds);
    assertEquals(0, rounds.get());
    assertEquals("JIT settling off", o.describe());
  }

  @Test
  void aJvmWithoutACompileCounterRunsOneRoundAndSaysItCannotTell() {
    AtomicInteger rounds = new AtomicInteger();
    JitSettling.Outcome o = JitSettling.run(Duration.ofSeconds(60), rounds::incrementAndGet, OptionalLong::empty,
        System::nanoTime, line -> { });
    assertEquals(1, rounds.get());
    assertFalse(o.settled());
    assertTrue(o.describe().endsWith("this JVM does not report compile time"), o.describe());
  }

  @Test
  void theRealCounterOnlyGrows() {
    OptionalLong a = JitSettling.jvmCompileMillis().get();
    long sum = 0;
    for (int i = 0; i < 200_000; i++) {
      sum += Long.toString(i).hashCode();
    }
    OptionalLong b = JitSettling.jvmCompileMillis().get();
    assertTrue(a.isPresent() && b.isPresent(), "HotSpot reports compile time");
    assertTrue(b.getAsLong() >= a.getAsLong(), a + " then " + b + " (" + sum + ")");
  }
}
