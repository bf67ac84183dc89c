package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
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
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.HS256));
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
  };

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
          .cookieName("REC").listener(recording).build()).addMappingForUrlPatterns(null, false, "/s/*");
      ctx.addFilter("hostile", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("HOST").listener(hostile).build()).addMappingForUrlPatterns(null, false, "/h/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*", "/h/*");
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
}
