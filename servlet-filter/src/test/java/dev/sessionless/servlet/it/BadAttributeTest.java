package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stored attribute that no longer fits its class (renamed, changed or unregistered between
 * deploys, or a class never allowed) over real HTTP: never a 500, nothing leaks to the client,
 * and the broken value does not travel on. {@code /d/*} drops it (the default policy), {@code
 * /f/*} starts a fresh session.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadAttributeTest {
  static final String ISSUER = "https://test.example";
  static final String AUDIENCE = "bad-attributes";
  static final String SECRET_VALUE = "do-not-log-me";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  final TokenCodec forger = TokenCodec.builder().keys(keys).algorithm(Algorithm.DIR_A256GCM).issuer(ISSUER).audience(AUDIENCE)
      .timeToLive(Duration.ofMinutes(30)).clock(clock).build();
  Container container;


  /** Touches the session without reading any attribute. */
  static final class TouchServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      HttpSession s = req.getSession(false);
      res.setContentType("text/plain;charset=UTF-8");
      res.getWriter().println("session=" + (s == null ? "none" : s.getId()));
    }
  }

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("drop", SessionlessFilter.builder().keys(keys).issuer(ISSUER).audience(AUDIENCE)
          .clock(clock).cookieName("SD").attributeTypes(Cart.class).build())
          .addMappingForUrlPatterns(null, false, "/d/*");
      ctx.addFilter("fresh", SessionlessFilter.builder().keys(keys).issuer(ISSUER).audience(AUDIENCE)
          .clock(clock).cookieName("SF").attributeTypes(Cart.class)
          .onBadAttribute(SessionlessFilter.BadAttribute.NEW_SESSION).build())
          .addMappingForUrlPatterns(null, false, "/f/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/d/*", "/f/*");
      ctx.addServlet("touch", new TouchServlet()).addMapping("/d/touch", "/f/touch");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  /** The broken attribute "bad" in each of its forms: recorded type, stored JSON. */
  static Stream<Arguments> badAttributes() {
    return Stream.of(
        Arguments.of("class renamed", "com.shop.RenamedCart", Map.of("items", List.of(SECRET_VALUE))),
        Arguments.of("field removed", Cart.class.getName(), Map.of("items", List.of("mug"), "coupon", SECRET_VALUE)),
        Arguments.of("shape changed", Cart.class.getName(), List.of(SECRET_VALUE)),
        Arguments.of("no longer registered", Opaque.class.getName(), Map.of("secret", SECRET_VALUE)),
        Arguments.of("never allowed", "dev.sessionless.servlet.it.Load" + "Canary", Map.of("value", SECRET_VALUE)));
  }

  /** A token of ours holding a good String "a" and the broken "bad". */
  private String forged(String badType, Object badJson) {
    Map<String, String> types = new LinkedHashMap<>();
    types.put("a", "java.lang.String");
    types.put("bad", badType);
    return forger.encode(Claims.builder()
        .put("$sessionless", Map.of("c", clock.millis(), "m", 1800, "t", types))
        .put("a", "keep").put("bad", badJson).build());
  }

  private static void assertNothingLeaks(TestClient.Reply r) {
    assertEquals(200, r.status, r.body);
    assertFalse(r.body.contains("Exception"), r.body);
    assertFalse(r.body.contains(SECRET_VALUE), r.body);
    assertFalse(r.body.contains("bad"), r.body);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badAttributes")
  void attributeThatNoLongerFitsIsDroppedAndTheOthersSurvive(String what, String type, Object json) {
    clock.advance(Duration.ofMinutes(2)); // a new log window: this drop is logged, not only counted
    TestClient c = new TestClient(container);
    c.cookies.put("SD", forged(type, json));
    int mark = RecordingLoggerFinder.mark();
    TestClient.Reply r = c.get("/d/read");
    assertNothingLeaks(r);
    assertEquals("[a]", r.get("names"));
    assertEquals("keep:String", r.get("attr.a"));
    assertEquals("null", r.get("rejection"));
    assertEquals(1, r.setCookie("SD").size(), "the session is written again without it: " + r.setCookies);
    SessionToken next = forger.decode(c.cookies.get("SD"));
    assertFalse(next.stateNames().contains("bad"), next.stateNames().toString());
    assertEquals("keep", next.get("a", String.class).orElseThrow());
    TestClient.Reply again = c.get("/d/read");
    assertEquals("[a]", again.get("names"));
    assertTrue(again.setCookies.isEmpty(), again.setCookies.toString());
    assertFalse(CanaryFlag.LOADED, "a class named in a token was loaded");
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    List<RecordingLoggerFinder.Entry> warned = RecordingLoggerFinder.since(mark,
        e -> e.level == System.Logger.Level.WARNING && e.text.contains("'bad'"));
    assertFalse(warned.isEmpty(), "the drop is logged");
    assertTrue(warned.get(0).text.contains(type), warned.toString());
    assertTrue(RecordingLoggerFinder.since(mark, e -> e.text.contains(SECRET_VALUE)).isEmpty(),
        "the value never reaches the log");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badAttributes")
  void readOnlyRenewalDoesNotCarryABrokenValueForward(String what, String type, Object json) {
    TestClient c = new TestClient(container);
    c.cookies.put("SD", forged(type, json));
    clock.advance(Duration.ofMinutes(16));
    TestClient.Reply r = c.get("/d/touch");
    assertEquals(200, r.status, r.body);
    assertEquals(1, r.setCookie("SD").size(), "past half its lifetime the token is renewed: " + r.setCookies);
    SessionToken next = forger.decode(c.cookies.get("SD"));
    assertFalse(next.stateNames().contains("bad"), next.stateNames().toString());
    assertEquals("keep", next.get("a", String.class).orElseThrow());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badAttributes")
  void attributeThatNoLongerFitsStartsAFreshSessionWhenSoConfigured(String what, String type, Object json) {
    TestClient c = new TestClient(container);
    c.cookies.put("SF", forged(type, json));
    TestClient.Reply r = c.get("/f/read");
    assertNothingLeaks(r);
    assertEquals("STATE_MAPPING", r.get("rejection"));
    assertEquals("none", r.get("session"));
    assertTrue(r.setCookie("SF").get(0).contains("Max-Age=0"), "the broken cookie is cleared: " + r.setCookies);
    assertFalse(c.cookies.containsKey("SF"));
    TestClient.Reply fresh = c.get("/f/set?value=new");
    assertEquals("true", fresh.get("new"));
    assertEquals("new:String", c.get("/f/read").get("attr.a"));
  }

  @Test
  void goodSessionIsUntouchedByEitherPolicy() {
    for (String p : List.of("d", "f")) {
      TestClient c = new TestClient(container);
      c.get("/" + p + "/setcart?value=mug");
      TestClient.Reply r = c.get("/" + p + "/read");
      assertEquals("[mug]:Cart", r.get("attr.cart"));
      assertTrue(r.setCookies.isEmpty(), r.setCookies.toString());
    }
  }
}
