package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletRegistration;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The filter's behaviour inside a real container over real HTTP; one subclass per container.
 * Paths: {@code /s/*} default filter (cookie SL), and more configurations added by later tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SessionBehaviourTest {
  static final String ISSUER = "https://test.example";
  static final String AUDIENCE = "it";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.HS256));
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  Container container;

  /** Starts the container under test. */
  abstract Container start(ServletContainerInitializer setup);

  @BeforeAll
  void startContainer() {
    container = start((classes, ctx) -> {
      SessionlessFilter main = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock)
          .cookieName("SL").attributeTypes(Cart.class, BindingProbe.class, Opaque.class)
          .build();
      FilterRegistration.Dynamic f = ctx.addFilter("sessionless", main);
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/s/*", "/error");
      ServletRegistration.Dynamic app = ctx.addServlet("app", new AppServlet());
      app.setAsyncSupported(true);
      app.addMapping("/s/*");
      ServletRegistration.Dynamic error = ctx.addServlet("error", new ErrorServlet());
      error.setAsyncSupported(true);
      error.addMapping("/error");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  TestClient client() {
    return new TestClient(container);
  }

  // ------------------------------------------------------------------ new, read back, invalidate

  @Test
  void newSessionIsNewAndSetsAHttpOnlyLaxCookie() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/new");
    assertEquals(200, r.status);
    assertEquals("true", r.get("new"));
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    String cookie = r.setCookie("SL").get(0);
    assertTrue(cookie.contains("HttpOnly"), cookie);
    assertTrue(cookie.contains("SameSite=Lax"), cookie);
    assertTrue(cookie.contains("Path=/"), cookie);
    assertFalse(cookie.contains("Secure"), cookie);
  }

  @Test
  void sessionReadsBackOnTheNextRequestAndIsNoLongerNew() {
    TestClient c = client();
    TestClient.Reply first = c.get("/s/set?name=a&value=hello");
    TestClient.Reply second = c.get("/s/read");
    assertEquals(first.get("session"), second.get("session"));
    assertEquals("false", second.get("new"));
    assertEquals("hello:String", second.get("attr.a"));
    assertEquals(first.get("created"), second.get("created"));
    assertEquals(first.get("session"), second.get("requested"));
    assertEquals("true", second.get("requestedValid"));
    assertEquals("true", second.get("fromCookie"));
    assertTrue(second.setCookies.isEmpty(), "a read writes nothing: " + second.setCookies);
  }

  @Test
  void requestWithoutSessionWritesNothing() {
    TestClient.Reply r = client().get("/s/read");
    assertEquals("none", r.get("session"));
    assertEquals("null", r.get("requested"));
    assertTrue(r.setCookies.isEmpty(), r.setCookies.toString());
  }

  @Test
  void integerAttributeKeepsItsType() {
    TestClient c = client();
    c.get("/s/setint?name=n&value=42");
    assertEquals("42:Integer", c.get("/s/read").get("attr.n"));
  }

  @Test
  void invalidateClearsTheCookieAndTheSessionThrowsAfterwards() {
    TestClient c = client();
    c.get("/s/set?value=x");
    TestClient.Reply r = c.get("/s/invalidate");
    assertEquals("IllegalStateException", r.get("afterInvalidate"));
    assertEquals("none", r.get("session"));
    assertEquals("false", r.get("requestedValid"));
    assertTrue(r.setCookie("SL").get(0).contains("Max-Age=0"), r.setCookies.toString());
    assertFalse(c.cookies.containsKey("SL"));
    assertEquals("none", c.get("/s/read").get("session"));
  }

  @Test
  void removeAttributeIsWritten() {
    TestClient c = client();
    c.get("/s/set?name=a&value=1");
    c.get("/s/set?name=b&value=2");
    c.get("/s/remove?name=a");
    assertEquals("[b]", c.get("/s/read").get("names"));
  }

  @Test
  void changeSessionIdKeepsAttributesAndInvalidatesTheOldId() {
    TestClient c = client();
    String before = c.get("/s/set?value=kept").get("session");
    TestClient.Reply r = c.get("/s/change");
    assertEquals(before, r.get("old"));
    assertNotEquals(before, r.get("changed"));
    assertEquals(r.get("changed"), r.get("sameObjectId"));
    assertEquals("false", r.get("requestedValid"));
    assertEquals(1, r.setCookie("SL").size());
    TestClient.Reply after = c.get("/s/read");
    assertEquals(r.get("changed"), after.get("session"));
    assertEquals("kept:String", after.get("attr.a"));
  }

  @Test
  void setMaxInactiveIntervalIsKept() {
    TestClient c = client();
    c.get("/s/maxinactive?value=120");
    assertEquals("120", c.get("/s/read").get("maxInactive"));
  }

  @Test
  void attributeChangedInPlaceAfterGetAttributeIsWritten() {
    TestClient c = client();
    c.get("/s/setcart?value=mug");
    TestClient.Reply r = c.get("/s/addtocart?value=pen");
    assertEquals(1, r.setCookie("SL").size(), "the in-place change is written");
    assertEquals("[mug, pen]:Cart", c.get("/s/read").get("attr.cart"));
  }

  // ------------------------------------------------------------------ before the commit

  @Test
  void sessionChangeBeforeRedirectIsDelivered() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/redirect?value=r1");
    assertEquals(302, r.status);
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    assertEquals("r1:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void sessionChangeBeforeSendErrorIsDeliveredWithTheErrorPage() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/senderror?value=e1");
    assertEquals(403, r.status);
    assertEquals("403", r.get("errorPage"));
    assertEquals("e1:String", r.get("attr.a"), "the error page sees the same session");
    assertEquals("e1:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void sessionChangeBeforeAnExceptionIsDeliveredWithTheErrorPage() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/throw?value=x1");
    assertEquals(500, r.status);
    assertEquals("500", r.get("errorPage"));
    assertEquals("x1:String", r.get("attr.a"));
    assertEquals("x1:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void streamedBodyLargerThanTheBufferCarriesTheSession() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/big?value=b1&kb=256");
    assertEquals(256 * 1024, r.body.length());
    assertEquals("b1:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void sessionChangedAfterTheFirstWrittenLineButBeforeTheCommitIsDelivered() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/bigwriter?value=w1&kb=200");
    assertTrue(r.body.startsWith("start"));
    assertEquals("w1:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void changeBeforeFlushIsDeliveredAndChangeAfterTheCommitIsLost() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/flush?value=f1");
    assertEquals("true", r.get("committed"));
    TestClient.Reply read = c.get("/s/read");
    assertEquals("f1:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"), "a change after the commit cannot be delivered");
  }

  @Test
  void changeBeforeTheContentLengthIsReachedIsDelivered() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/length?value=l1");
    assertEquals("hello", r.body);
    TestClient.Reply read = c.get("/s/read");
    assertEquals("l1:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"));
  }

  @Test
  void asyncStartThenCompleteDeliversTheSession() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/async?mode=complete&value=ac");
    assertEquals("done", r.get("async"));
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    assertEquals("ac:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void asyncStartThenDispatchDeliversTheSession() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/async?mode=dispatch&value=ad");
    assertEquals("ad:String", r.get("attr.a"), "the dispatched servlet sees the session");
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    assertEquals("ad:String", c.get("/s/read").get("attr.a"));
  }
}
