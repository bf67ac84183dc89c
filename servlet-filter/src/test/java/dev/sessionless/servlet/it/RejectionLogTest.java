package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Rejected tokens reach operators as a summary per minute (counts per reason) on the filter's
 * System.Logger, not only as DEBUG lines, with a fake clock and the recording logger finder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RejectionLogTest {
  static final String LOGGER = "dev.sessionless.servlet.SessionlessFilter";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  Container container;


  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("sessionless", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .clock(clock).cookieName("SR").build()).addMappingForUrlPatterns(null, false, "/s/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  private static List<RecordingLoggerFinder.Entry> logged(int mark, Level level, String text) {
    return RecordingLoggerFinder.since(mark, e -> e.logger.equals(LOGGER) && e.level == level && e.text.contains(text));
  }

  private void tampered(TestClient c) {
    c.get("/s/set?value=v");
    String token = c.cookies.get("SR");
    int i = token.lastIndexOf('.') + 5;
    c.cookies.put("SR", token.substring(0, i) + (token.charAt(i) == 'A' ? 'B' : 'A') + token.substring(i + 1));
    assertEquals("DECRYPTION_FAILED", c.get("/s/read").get("rejection"));
  }

  @Test
  void rejectionsAreSummedUpPerReasonOnceAMinuteAtWarning() {
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    clock.advance(Duration.ofMinutes(5)); // whatever an earlier test counted is summed up already
    new TestClient(container).get("/s/read");
    int mark = RecordingLoggerFinder.mark();
    for (int i = 0; i < 3; i++) {
      TestClient c = new TestClient(container);
      c.cookies.put("SR", "garbage-" + i);
      assertEquals("MALFORMED", c.get("/s/read").get("rejection"));
    }
    tampered(new TestClient(container));
    tampered(new TestClient(container));
    assertEquals(5, logged(mark, Level.DEBUG, "rejected").size(), "one DEBUG line per request");
    clock.advance(Duration.ofSeconds(59));
    new TestClient(container).get("/s/read");
    assertEquals(List.of(), logged(mark, Level.WARNING, ""), "no summary before the minute is over");
    clock.advance(Duration.ofSeconds(2));
    new TestClient(container).get("/s/read"); // no token at all: the summary still comes out
    List<RecordingLoggerFinder.Entry> summary = logged(mark, Level.WARNING, "rejected");
    assertEquals(1, summary.size(), RecordingLoggerFinder.since(mark, e -> true).toString());
    assertTrue(summary.get(0).text.startsWith("5 session token(s) rejected in the last 61 s"), summary.toString());
    assertTrue(summary.get(0).text.endsWith("MALFORMED=3, DECRYPTION_FAILED=2"), summary.toString());
    assertTrue(RecordingLoggerFinder.since(mark, e -> e.text.contains("garbage-")).isEmpty(), "tokens are never logged");
  }

  @Test
  void aMinuteOfOnlyExpiredTokensIsInformationNotAWarning() {
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    clock.advance(Duration.ofMinutes(5));
    new TestClient(container).get("/s/read");
    TestClient c = new TestClient(container);
    c.get("/s/set?value=v");
    int mark = RecordingLoggerFinder.mark();
    clock.advance(Duration.ofMinutes(31));
    assertEquals("EXPIRED", c.get("/s/read").get("rejection"));
    clock.advance(Duration.ofMinutes(1));
    new TestClient(container).get("/s/read");
    assertEquals(List.of(), logged(mark, Level.WARNING, ""));
    assertEquals(1, logged(mark, Level.INFO, "EXPIRED=1").size(), RecordingLoggerFinder.since(mark, e -> true).toString());
  }
}
