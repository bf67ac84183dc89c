package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The filter's listener events over real HTTP in a real container: cookie size and chunks as
 * sent, refused tokens by reason, and the codec's events; and a listener that throws changes
 * nothing for the client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterListenerTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final List<String> events = Collections.synchronizedList(new ArrayList<>());
  Container container;

  final SessionlessListener recording = new SessionlessListener() {
    @Override
    public void cookieWritten(int bytes, int chunks) {
      events.add("cookie " + bytes + " " + chunks);
    }

    @Override
    public void sessionRejected(TokenException.Reason reason) {
      events.add("session rejected " + reason);
    }

    @Override
    public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
      events.add("verified " + kid);
    }

    @Override
    public void sessionChangeDropped(String what) {
      events.add("dropped " + what);
    }
  };

  /** Changes the session after committing the response: {@code /late/attribute}, {@code in-place}, {@code invalidate}. */
  static final class LateServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    @SuppressWarnings("unchecked")
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      HttpSession session = req.getSession();
      String what = req.getPathInfo().substring(1);
      if (what.equals("start")) {
        session.setAttribute("list", new ArrayList<>(List.of("a")));
        return;
      }
      List<String> list = (List<String>) session.getAttribute("list");
      res.getWriter().println("committed");
      res.flushBuffer();
      switch (what) {
        case "attribute" -> session.setAttribute("late", "lost");
        case "in-place" -> list.add("lost");
        case "invalidate" -> session.invalidate();
        default -> { }
      }
    }
  }

  final SessionlessListener hostile = new SessionlessListener() {
    @Override
    public void cookieWritten(int bytes, int chunks) {
      throw new IllegalStateException("metrics down");
    }

    @Override
    public void sessionRejected(TokenException.Reason reason) {
      throw new IllegalStateException("metrics down");
    }

    @Override
    public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
      throw new IllegalStateException("metrics down");
    }
  };

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("recorded", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("REC").maxCookieChunks(4).compression(Compression.NONE).listener(recording).build()).addMappingForUrlPatterns(null, false, "/s/*", "/late/*");
      ctx.addFilter("hostile", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("HOST").listener(hostile).build()).addMappingForUrlPatterns(null, false, "/h/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*", "/h/*");
      ctx.addServlet("late", new LateServlet()).addMapping("/late/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  @BeforeEach
  void clear() {
    events.clear();
  }

  private static int sent(TestClient.Reply r) {
    return r.setCookies.stream().filter(h -> !h.contains("Max-Age=0")).mapToInt(String::length).sum();
  }

  @Test
  void aWrittenCookieIsReportedWithItsSizeAsSentAndOneChunk() {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/s/set?value=v");
    assertEquals(List.of("cookie " + sent(r) + " 1"), events);
    events.clear();
    c.get("/s/read");
    assertEquals(List.of("verified k1"), events, "nothing changed: no cookie written");
  }

  @Test
  void aSessionSplitOverCookiesIsReportedWithItsChunkCount() {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/s/set?value=" + "x".repeat(5000));
    assertEquals(2, r.setCookies.size(), r.setCookies.toString());
    assertEquals(List.of("cookie " + sent(r) + " 2"), events);
  }

  @Test
  void aRefusedTokenIsReportedWithItsReason() {
    TestClient c = new TestClient(container);
    c.cookies.put("REC", "garbage");
    assertEquals("MALFORMED", c.get("/s/read").get("rejection"));
    assertEquals(List.of("session rejected MALFORMED"), events);
  }

  @Test
  void aListenerThatThrowsChangesNothingForTheClient() {
    TestClient c = new TestClient(container);
    TestClient.Reply set = c.get("/h/set?value=v");
    assertEquals(200, set.status);
    TestClient.Reply read = c.get("/h/read");
    assertEquals(200, read.status);
    assertTrue(read.get("attr.a").equals("v:String"), read.body);
    c.cookies.put("HOST", "garbage");
    TestClient.Reply rejected = c.get("/h/read");
    assertEquals(200, rejected.status);
    assertEquals("MALFORMED", rejected.get("rejection"));
  }

  @Test
  void aChangeAfterTheResponseCommittedIsCountedAndLoggedOncePerCause() {
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    int mark = RecordingLoggerFinder.mark();
    for (String what : List.of("attribute", "in-place", "invalidate")) {
      for (int i = 0; i < 2; i++) {
        TestClient c = new TestClient(container);
        c.get("/late/start");
        events.clear();
        TestClient.Reply r = c.get("/late/" + what);
        assertEquals(200, r.status, r.body);
        assertTrue(r.setCookies.isEmpty(), "nothing could be sent: " + r.setCookies);
        assertEquals(List.of("verified k1", "dropped " + what), events);
      }
      List<RecordingLoggerFinder.Entry> warned = RecordingLoggerFinder.since(mark,
          e -> e.level == System.Logger.Level.WARNING && e.text.contains("(" + what + ") was made after the response"));
      assertEquals(1, warned.size(), "logged once for two requests: " + warned);
    }
    events.clear();
    TestClient c = new TestClient(container);
    c.get("/late/start");
    c.get("/late/none");
    assertTrue(events.stream().noneMatch(e -> e.startsWith("dropped")), "no change after the commit: " + events);
  }
}
