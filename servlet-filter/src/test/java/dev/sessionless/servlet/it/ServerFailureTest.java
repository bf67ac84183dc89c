package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A failure on the server's side while reading a token (a broken deploy: the key source
 * throws) is a server error, not a rejection: 500 through the container's error page, no stack
 * trace to the client, the user's cookie kept (nothing lost once it is fixed), no fresh session
 * slipped in, and one ERROR per cause, not one per request.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerFailureTest {
  static final String ISSUER = "https://test.example";
  static final String AUDIENCE = "failures";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  /** The broken environment: while set, the key source throws what it supplies. */
  volatile Supplier<RuntimeException> broken;
  /** While set, the clock fails when the filter's session code reads it, after the token verified. */
  volatile boolean clockBroken;
  /**
   * The filter's clock for {@code /y/*}: {@link #clock}, except that while {@link #clockBroken}
   * it fails when read while the session is loaded, once the token has verified (the codec's own
   * reads and later ones still work), as a clock backed by a time service that just went away would.
   */
  final Clock failingAfterDecode = clock.failingWhen(
      () -> clockBroken && readBySessionLoad() ? new IllegalStateException("time service unreachable") : null);

  /** Whether the clock's {@code millis()} being read was called by {@code IncomingSession.read} itself. */
  static boolean readBySessionLoad() {
    return StackWalker.getInstance().walk(frames -> frames.dropWhile(f -> !f.getMethodName().equals("millis"))
        .skip(1).findFirst()
        .map(f -> f.getClassName().endsWith(".IncomingSession") && f.getMethodName().equals("read"))
        .orElse(false));
  }

  Container container;


  /** An application that catches the failure and then tries to start a session of its own. */
  static final class RecoverServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain;charset=UTF-8");
      try {
        req.getSession(false);
        res.getWriter().println("first=read");
      } catch (RuntimeException e) {
        res.getWriter().println("first=failed");
      }
      try {
        req.getSession(true).setAttribute("a", "overwritten");
        res.getWriter().println("second=created");
      } catch (IllegalStateException e) {
        res.getWriter().println("second=refused");
      }
    }
  }

  @BeforeAll
  void startContainer() {
    KeySource source = () -> {
      Supplier<RuntimeException> b = broken;
      if (b != null) {
        throw b.get();
      }
      return keys;
    };
    container = Container.underTest((classes, ctx) -> {
      var f = ctx.addFilter("sessionless", SessionlessFilter.builder().keys(source).issuer(ISSUER)
          .audience(AUDIENCE).clock(clock).cookieName("SX").build());
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/x/*", "/error");
      var y = ctx.addFilter("after-decode", SessionlessFilter.builder().keys(keys).issuer(ISSUER)
          .audience(AUDIENCE).clock(failingAfterDecode).cookieName("SY").build());
      y.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/y/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/x/*", "/y/*");
      ctx.addServlet("recover", new RecoverServlet()).addMapping("/x/recover", "/y/recover");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  @AfterEach
  void repair() {
    broken = null;
    clockBroken = false;
  }

  private void breakWith(String kind) {
    broken = kind.equals("exception")
        ? () -> new IllegalStateException("hardware key store unreachable")
        : () -> new TokenException(TokenException.Reason.NO_SIGNING_KEY, "hardware key store unreachable");
  }

  @ParameterizedTest
  @ValueSource(strings = {"exception", "non-rejection reason"})
  void brokenKeySourceIsAServerErrorThatKeepsTheSession(String kind) {
    clock.advance(Duration.ofMinutes(2)); // a new log window
    TestClient c = new TestClient(container);
    c.get("/x/set?value=precious");
    String cookie = c.cookies.get("SX");
    breakWith(kind);
    int mark = RecordingLoggerFinder.mark();
    for (int i = 0; i < 3; i++) {
      TestClient.Reply r = c.get("/x/read");
      assertEquals(500, r.status, r.body);
      assertEquals("500", r.get("errorPage"), "the container's error page answers: " + r.body);
      assertEquals("null", r.get("rejection"), "not a rejection");
      assertEquals("none", r.get("session"), "the error page sees no session, and no failure either");
      assertFalse(r.body.contains("Exception") || r.body.contains("hardware") || r.body.contains("\tat "), r.body);
      assertTrue(r.setCookies.isEmpty(), "the user's cookie is kept: " + r.setCookies);
    }
    assertEquals(cookie, c.cookies.get("SX"));
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    List<RecordingLoggerFinder.Entry> errors = RecordingLoggerFinder.since(mark,
        e -> e.level == System.Logger.Level.ERROR);
    assertEquals(1, errors.size(), "one ERROR for three requests with the same cause: " + errors);
    assertTrue(errors.get(0).withThrowable && errors.get(0).text.contains("hardware key store unreachable"),
        errors.toString());
    assertTrue(RecordingLoggerFinder.since(mark, e -> e.text.contains("rejected")).isEmpty(),
        "a server failure is not counted as a rejection");
    clock.advance(Duration.ofMinutes(1));
    c.get("/x/read");
    List<RecordingLoggerFinder.Entry> summary = RecordingLoggerFinder.since(mark,
        e -> e.level == System.Logger.Level.ERROR && e.text.contains("2 more time(s)"));
    assertEquals(1, summary.size(), RecordingLoggerFinder.since(mark, e -> true).toString());
    broken = null;
    TestClient.Reply fixed = c.get("/x/read");
    assertEquals(200, fixed.status);
    assertEquals("precious:String", fixed.get("attr.a"), "nothing was lost");
  }

  @ParameterizedTest
  @ValueSource(strings = {"exception", "non-rejection reason"})
  void applicationCannotReplaceASessionItCouldNotRead(String kind) {
    TestClient c = new TestClient(container);
    c.get("/x/set?value=precious");
    breakWith(kind);
    TestClient.Reply r = c.get("/x/recover");
    assertEquals(200, r.status, r.body);
    assertEquals("failed", r.get("first"));
    assertEquals("refused", r.get("second"), "a fresh session would overwrite the user's real one");
    assertTrue(r.setCookies.isEmpty(), r.setCookies.toString());
    broken = null;
    assertEquals("precious:String", c.get("/x/read").get("attr.a"));
  }

  @Test
  void failureAfterTheTokenVerifiedIsAServerErrorNotAFreshSession() {
    clock.advance(Duration.ofMinutes(2)); // a new log window
    TestClient c = new TestClient(container);
    c.get("/y/set?value=precious");
    String cookie = c.cookies.get("SY");
    clockBroken = true;
    int mark = RecordingLoggerFinder.mark();
    TestClient.Reply r = c.get("/y/recover");
    assertEquals(200, r.status, r.body);
    assertEquals("failed", r.get("first"));
    assertEquals("refused", r.get("second"), "not \"no session\": a fresh one would overwrite the user's");
    assertTrue(r.setCookies.isEmpty(), "the user's cookie is kept: " + r.setCookies);
    assertEquals(cookie, c.cookies.get("SY"));
    List<RecordingLoggerFinder.Entry> errors = RecordingLoggerFinder.since(mark,
        e -> e.level == System.Logger.Level.ERROR && e.text.contains("failure on this server"));
    assertEquals(1, errors.size(), "logged as a server error: " + RecordingLoggerFinder.since(mark, e -> true));
    assertTrue(errors.get(0).withThrowable, errors.toString());
    clockBroken = false;
    assertEquals("precious:String", c.get("/y/read").get("attr.a"), "nothing was lost");
  }
}
