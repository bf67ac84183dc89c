package dev.sessionless.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionless.core.TokenException;
import dev.sessionless.servlet.it.RecordingLoggerFinder;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import dev.sessionless.session.internal.FilterLog;

/**
 * The filter's log writes its once-a-minute summaries after releasing its lock: a log handler
 * that blocks (a file or a network appender) holds up only the request that writes the summary,
 * not every other request that counts a rejection meanwhile.
 */
class FilterLogLockTest {
  @Test
  void aSummaryStuckInTheLogHandlerDoesNotHoldUpAnotherRequestsRejection() throws Exception {
    assumeTrue(RecordingLoggerFinder.installed(), "needs the recording LoggerFinder");
    FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));
    FilterLog log = new FilterLog(clock);
    log.rejected(TokenException.Reason.EXPIRED);
    clock.advance(Duration.ofSeconds(61));

    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch otherCounted = new CountDownLatch(1);
    AtomicBoolean otherRanMeanwhile = new AtomicBoolean();
    Thread summaryThread = Thread.currentThread();
    RecordingLoggerFinder.onLog = e -> {
      if (Thread.currentThread() == summaryThread && e.text.contains("rejected in the last")) {
        inHandler.countDown();
        try {
          // Bounded only so that a failure is a red test rather than a hung build.
          otherRanMeanwhile.set(otherCounted.await(20, TimeUnit.SECONDS));
        } catch (InterruptedException x) {
          Thread.currentThread().interrupt();
        }
      }
    };
    Thread other = new Thread(() -> {
      try {
        inHandler.await();
        log.rejected(TokenException.Reason.MALFORMED);
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
      } finally {
        otherCounted.countDown();
      }
    });
    other.start();
    try {
      log.tick();
    } finally {
      RecordingLoggerFinder.onLog = e -> { };
    }
    other.join();
    assertTrue(otherRanMeanwhile.get(), "another request counted its rejection while the summary was being logged");
  }
}
