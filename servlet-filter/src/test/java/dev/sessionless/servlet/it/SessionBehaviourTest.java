package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletRegistration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The filter's behaviour inside a real container over real HTTP, in the container the test run
 * names ({@link Containers#underTest()}): each module runs it in its own container versions.
 * Paths: {@code /s/*} default filter (cookie SL), and more configurations added by later tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionBehaviourTest {
  static final String ISSUER = "https://test.example";
  static final String AUDIENCE = "it";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  Container container;

  /** Starts the container under test. */
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }

  @BeforeAll
  void startContainer() throws IOException {
    Path keyFile = Files.createTempFile("keys", ".jwks");
    Files.writeString(keyFile, keys.toJwksWithSecrets());
    container = start((classes, ctx) -> {
      SessionlessFilter main = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock)
          .cookieName("SL").attributeTypes(Cart.class, BindingProbe.class, Opaque.class)
          .maxCookieChunks(4).compression(Compression.NONE).build(); // sizes below are of plain JSON
      FilterRegistration.Dynamic f = ctx.addFilter("sessionless", main);
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/s/*", "/error");
      SessionlessFilter header = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock).header("X-Session").build();
      ctx.addFilter("header", header).addMappingForUrlPatterns(null, false, "/h/*");
      SessionlessFilter oneCookie = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock)
          .cookieName("SLC").maxCookieChunks(1).compression(Compression.NONE).build();
      ctx.addFilter("one-cookie", oneCookie).addMappingForUrlPatterns(null, false, "/c/*");
      SessionlessFilter unbudgeted = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock)
          .cookieName("SLW").maxCookieChunks(1).maxStateBytes(100_000).compression(Compression.NONE).build();
      ctx.addFilter("unbudgeted", unbudgeted).addMappingForUrlPatterns(null, false, "/w/*");
      SessionlessFilter shortLived = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock)
          .cookieName("SLA").absoluteLifetime(Duration.ofHours(1)).build();
      ctx.addFilter("short", shortLived).addMappingForUrlPatterns(null, false, "/a/*");
      for (String name : List.of("twice-1", "twice-2")) {
        SessionlessFilter twice = SessionlessFilter.builder()
            .keys(keys).issuer(ISSUER).audience(AUDIENCE).clock(clock).cookieName("SLT").build();
        ctx.addFilter(name, twice).addMappingForUrlPatterns(null, true, "/t/*");
      }
      SessionlessFilter noKey = SessionlessFilter.builder()
          .keys(KeySet.empty()).issuer(ISSUER).audience(AUDIENCE).clock(clock).cookieName("SLN").build();
      ctx.addFilter("no-key", noKey).addMappingForUrlPatterns(null, false, "/n/*");
      FilterRegistration.Dynamic params = ctx.addFilter("params", SessionlessFilter.class);
      params.setInitParameter("keys.file", keyFile.toString());
      params.setInitParameter("issuer", ISSUER);
      params.setInitParameter("audience", AUDIENCE);
      params.setInitParameter("cookie.name", "SLP");
      params.setInitParameter("cookie.max-age", "600");
      params.setInitParameter("max-inactive-interval", "900");
      params.setInitParameter("attribute-types", Cart.class.getName());
      params.addMappingForUrlPatterns(null, false, "/p/*");
      ServletRegistration.Dynamic app = ctx.addServlet("app", new AppServlet());
      app.setAsyncSupported(true);
      app.addMapping("/s/*", "/h/*", "/c/*", "/a/*", "/t/*", "/p/*", "/n/*", "/w/*");
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
  void newSessionIsNewAndSetsAHttpOnlyLaxSecureCookie() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/new");
    assertEquals(200, r.status);
    assertEquals("true", r.get("new"));
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    String cookie = r.setCookie("SL").get(0);
    assertTrue(cookie.contains("HttpOnly"), cookie);
    assertTrue(cookie.contains("SameSite=Lax"), cookie);
    assertTrue(cookie.contains("Path=/"), cookie);
    assertTrue(cookie.contains("; Secure"), "Secure by default, plain http to 127.0.0.1 too: " + cookie);
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

  // ------------------------------------------------------------------ rejections

  private void assertFreshAfterRejection(TestClient c, String expectedReason) {
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status);
    assertEquals(expectedReason, r.get("rejection"));
    assertEquals("none", r.get("session"));
    assertEquals("rejected", r.get("requested"));
    assertEquals("false", r.get("requestedValid"));
    assertTrue(r.setCookie("SL").get(0).contains("Max-Age=0"), "the bad cookie is cleared: " + r.setCookies);
    assertFalse(c.cookies.containsKey("SL"));
    TestClient.Reply fresh = c.get("/s/new");
    assertEquals("true", fresh.get("new"));
    assertEquals("null", fresh.get("rejection"));
  }

  @Test
  void tamperedTokenStartsAFreshSessionAsUndecryptable() {
    TestClient c = client();
    c.get("/s/set?value=t");
    String token = c.cookies.get("SL");
    int i = token.lastIndexOf('.') + 5;
    char flipped = token.charAt(i) == 'A' ? 'B' : 'A';
    c.cookies.put("SL", token.substring(0, i) + flipped + token.substring(i + 1));
    assertFreshAfterRejection(c, "DECRYPTION_FAILED"); // the default token is a JWE: its tag fails
  }

  @Test
  void garbageTokenStartsAFreshSessionAsMalformed() {
    TestClient c = client();
    c.cookies.put("SL", "not-a-token");
    assertFreshAfterRejection(c, "MALFORMED");
  }

  @Test
  void expiredTokenStartsAFreshSession() {
    TestClient c = client();
    c.get("/s/set?value=e");
    clock.advance(Duration.ofMinutes(32));
    assertFreshAfterRejection(c, "EXPIRED");
  }

  @Test
  void tokenOfAForeignKeyStartsAFreshSession() {
    TestClient c = client();
    TokenCodec foreign = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("other", Algorithm.HS256)))
        .issuer(ISSUER).audience(AUDIENCE).timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    c.cookies.put("SL", foreign.encode(Claims.builder().put("$sessionless",
        Map.of("c", clock.millis(), "m", 1800, "t", Map.of())).build()));
    assertFreshAfterRejection(c, "UNKNOWN_KEY");
  }

  @Test
  void tooManyChunksAreRejectedBeforeDecodingAndAllCleared() {
    TestClient c = client();
    c.cookies.put("SL", "a");
    for (int i = 1; i <= 5; i++) {
      c.cookies.put("SL." + i, "a");
    }
    TestClient.Reply r = c.get("/s/read");
    assertEquals("TOO_LARGE", r.get("rejection"));
    assertEquals(6, r.setCookies.stream().filter(h -> h.contains("Max-Age=0")).count(), r.setCookies.toString());
    assertTrue(c.cookies.isEmpty(), c.cookies.toString());
  }

  @Test
  void unregisteredClassNameInATokenIsNeverLoaded() {
    TestClient c = client();
    TokenCodec same = TokenCodec.builder().keys(keys).algorithm(Algorithm.DIR_A256GCM)
        .issuer(ISSUER).audience(AUDIENCE).timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    String canary = "dev.sessionless.servlet.it.Load" + "Canary";
    c.cookies.put("SL", same.encode(Claims.builder()
        .put("$sessionless", Map.of("c", clock.millis(), "m", 1800, "t", Map.of("x", canary)))
        .put("x", Map.of("value", "v")).build()));
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status);
    assertEquals("[]", r.get("names"), "an attribute of a type not allowed is dropped: " + r.body);
    assertFalse(CanaryFlag.LOADED, "the class named in the token was loaded");
  }

  // ------------------------------------------------------------------ attribute types

  @Test
  void unregisteredAttributeTypeIsRefusedAtSetAttribute() {
    String refused = client().get("/s/refuse?value=unregistered").get("refused");
    assertTrue(refused.contains("'bad'") && refused.contains("java.lang.StringBuilder"), refused);
  }

  @Test
  void attributeThatCannotBeWrittenAsJsonIsRefused() {
    String refused = client().get("/s/refuse?value=opaque").get("refused");
    assertTrue(refused.contains("'bad'") && refused.contains(Opaque.class.getName()), refused);
  }

  @Test
  void attributeThatReadsBackAsSomethingElseIsRefused() {
    String refused = client().get("/s/refuse?value=longs").get("refused");
    assertTrue(refused.contains("'bad'") && refused.contains("round trip"), refused);
  }

  @Test
  void bindingListenersAreToldWhenBoundReplacedAndInvalidated() {
    BindingProbe.EVENTS.clear();
    TestClient c = client();
    c.get("/s/bind?name=p&value=one");
    assertEquals(List.of("bound:p:one"), BindingProbe.EVENTS);
    c.get("/s/bind?name=p&value=two");
    assertEquals(List.of("bound:p:one", "bound:p:two", "unbound:p:one"), BindingProbe.EVENTS);
    c.get("/s/invalidate");
    assertEquals(List.of("bound:p:one", "bound:p:two", "unbound:p:one", "unbound:p:two"), BindingProbe.EVENTS);
  }

  // ------------------------------------------------------------------ size

  @Test
  void largeTokenIsSplitAcrossCookiesAndStaleChunksAreCleared() {
    TestClient c = client();
    TestClient.Reply big = c.get("/s/setlarge?value=7000");
    assertEquals(3, big.setCookies.size(), big.status + big.body + big.setCookies);
    assertTrue(big.setCookies.stream().allMatch(h -> h.length() <= 4096));
    assertEquals(List.of("SL", "SL.1", "SL.2"), c.cookieNames());
    TestClient.Reply read = c.get("/s/read");
    assertEquals("z".repeat(7000) + ":String", read.get("attr.large"));
    TestClient.Reply small = c.get("/s/setlarge?value=10");
    assertEquals(1, small.setCookie("SL.1").size());
    assertTrue(small.setCookie("SL.1").get(0).contains("Max-Age=0"));
    assertTrue(small.setCookie("SL.2").get(0).contains("Max-Age=0"));
    assertEquals(List.of("SL"), c.cookieNames());
    assertEquals("zzzzzzzzzz:String", c.get("/s/read").get("attr.large"));
  }

  @Test
  void largeTokenIsRefusedWhenSplittingIsOff() {
    // A state budget raised past what one cookie carries: the token written is still checked.
    TestClient c = client();
    TestClient.Reply r = c.get("/w/setlarge?value=7000");
    assertEquals(500, r.status);
    assertTrue(r.setCookie("SLW").isEmpty(), r.setCookies.toString());
  }

  @Test
  void largeValueIsRefusedAtSetAttributeWithOneCookie() {
    TestClient c = client();
    TestClient.Reply r = c.get("/c/setlarge?value=7000");
    assertEquals(500, r.status, "the application did not catch SessionTooLargeException");
    assertTrue(r.setCookies.stream().allMatch(h -> h.length() < 1000), "the value never reached a cookie: "
        + r.setCookies);
  }

  @Test
  void setAttributePastTheStateBudgetIsRefusedThereNamingTheAttributeAndTheBudget() {
    TestClient c = client();
    c.get("/c/set?value=kept");
    // One cookie (the default) carries about 2.3 KB of state: 3,000 bytes of client text is over.
    TestClient.Reply r = c.get("/c/trylarge?name=search&value=3000");
    assertEquals(200, r.status, "the application caught it: " + r.body);
    String refused = r.get("refused");
    assertTrue(refused != null && refused.startsWith("search:"), r.body);
    long budget = Long.parseLong(refused.substring("search:".length()));
    assertTrue(budget > 2000 && budget < 3000, "about what one cookie carries: " + budget);
    assertTrue(r.get("message").contains("'search'") && r.get("message").contains(budget + " bytes"), r.body);
    assertFalse(r.get("message").contains("zzz"), "never the value: " + r.body);
    assertEquals("kept:String", c.get("/c/read").get("attr.a"), "the session is as it was");
    TestClient.Reply fits = c.get("/c/trylarge?name=search&value=1500");
    assertEquals(null, fits.get("refused"), fits.body);
    assertEquals(1, fits.setCookie("SLC").size(), fits.setCookies.toString());
  }

  // ------------------------------------------------------------------ header carrier

  @Test
  void headerCarrierCarriesTheSessionWithoutCookies() {
    TestClient c = client();
    TestClient.Reply r = c.get("/h/set?value=api");
    assertTrue(r.setCookies.isEmpty(), r.setCookies.toString());
    String token = r.header("X-Session");
    assertNotNull(token);
    c.headers.put("X-Session", token);
    TestClient.Reply read = c.get("/h/read");
    assertEquals("api:String", read.get("attr.a"));
    assertEquals("false", read.get("fromCookie"));
    assertEquals(null, read.header("X-Session"), "a read writes nothing");
    TestClient.Reply gone = c.get("/h/invalidate");
    assertEquals("", gone.header("X-Session"));
  }

  // ------------------------------------------------------------------ expiry

  @Test
  void readsBeforeTheRenewalFractionWriteNothingAndLaterOnesSlideExpiry() {
    TestClient c = client();
    c.get("/s/set?value=slide");
    clock.advance(Duration.ofMinutes(10));
    assertTrue(c.get("/s/read").setCookies.isEmpty(), "a third of the lifetime: no renewal");
    clock.advance(Duration.ofMinutes(4));
    assertTrue(c.get("/s/read").setCookies.isEmpty(), "under half: no renewal");
    clock.advance(Duration.ofMinutes(2));
    TestClient.Reply renewed = c.get("/s/read");
    assertEquals(1, renewed.setCookie("SL").size(), "past half the lifetime: renewed");
    clock.advance(Duration.ofMinutes(25));
    TestClient.Reply later = c.get("/s/read");
    assertEquals("slide:String", later.get("attr.a"), "41 minutes after creation, alive by sliding");
    assertEquals("null", later.get("rejection"));
  }

  @Test
  void absoluteLifetimeEndsAnActiveSession() {
    TestClient c = client();
    c.get("/a/set?value=abs");
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(19));
      assertEquals("abs:String", c.get("/a/read").get("attr.a"), "alive after " + (i + 1) * 19 + " minutes");
    }
    clock.advance(Duration.ofMinutes(4));
    TestClient.Reply r = c.get("/a/read");
    assertEquals("EXPIRED", r.get("rejection"));
    assertEquals("none", r.get("session"));
  }

  // ------------------------------------------------------------------ dispatches and configuration

  @Test
  void forwardedResourceSeesTheSessionAndItIsWrittenOnce() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/forward?value=fw");
    assertEquals("fw:String", r.get("attr.a"));
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    assertEquals("fw:String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void includedResourceSharesTheSession() {
    TestClient c = client();
    TestClient.Reply r = c.get("/s/include?value=in");
    assertTrue(r.body.contains("after-include a=in inner=in-inner"), r.body);
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    TestClient.Reply read = c.get("/s/read");
    assertEquals("in-inner:String", read.get("attr.inner"));
  }

  @Test
  void filterAppliedTwiceWritesOnce() {
    TestClient c = client();
    TestClient.Reply r = c.get("/t/set?value=twice");
    assertEquals(1, r.setCookie("SLT").size(), r.setCookies.toString());
    assertEquals("twice:String", c.get("/t/read").get("attr.a"));
  }

  @Test
  void filterConfiguredByInitParametersUsesThem() {
    TestClient c = client();
    TestClient.Reply r = c.get("/p/setcart?value=mug");
    assertEquals(1, r.setCookie("SLP").size(), r.setCookies.toString());
    assertTrue(r.setCookie("SLP").get(0).contains("Max-Age=600"), r.setCookies.toString());
    TestClient.Reply read = c.get("/p/read");
    assertEquals("[mug]:Cart", read.get("attr.cart"));
    assertEquals("900", read.get("maxInactive"));
  }

  @Test
  void missingSigningKeyIsAServerErrorNotAFreshSession() {
    TestClient.Reply r = client().get("/n/new");
    assertEquals(500, r.status);
    assertTrue(r.setCookie("SLN").isEmpty(), r.setCookies.toString());
  }

  @Test
  void cookieIsSecureWhenTheRequestIsSecure() {
    TestClient c = client();
    c.headers.put("X-Forwarded-Proto", "https");
    TestClient.Reply r = c.get("/s/new");
    assertTrue(r.setCookie("SL").get(0).contains("; Secure"), r.setCookies.toString());
  }

  @Test
  void settingTheSameValueAgainDoesNotUnbindIt() {
    BindingProbe.EVENTS.clear();
    TestClient c = client();
    c.get("/s/bind?name=p&value=one");
    c.get("/s/rebind?name=p");
    assertEquals(List.of("bound:p:one"), BindingProbe.EVENTS);
  }

  @Test
  void overlongReassembledTokenIsRejectedBeforeDecoding() {
    TestClient c = client();
    c.cookies.put("SL", "a".repeat(9000));
    c.cookies.put("SL.1", "a".repeat(9000));
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status);
    assertEquals("TOO_LARGE", r.get("rejection"));
    assertTrue(c.cookies.isEmpty(), c.cookies.toString());
  }

  @Test
  void orphanChunkWithoutTheFirstCookieIsRejectedAndCleared() {
    TestClient c = client();
    c.cookies.put("SL.3", "abc");
    TestClient.Reply r = c.get("/s/read");
    assertEquals("MALFORMED", r.get("rejection"));
    assertTrue(c.cookies.isEmpty(), r.setCookies.toString());
  }

  @Test
  void readingAMutableAttributeWithoutChangingItWritesNothing() {
    TestClient c = client();
    c.get("/s/setcart?value=mug");
    TestClient.Reply r = c.get("/s/read");
    assertEquals("[mug]:Cart", r.get("attr.cart"));
    assertTrue(r.setCookies.isEmpty(), r.setCookies.toString());
  }

  @Test
  void createdTimeAndLastAccessedTimeFollowTheToken() {
    TestClient c = client();
    TestClient.Reply first = c.get("/s/new");
    clock.advance(Duration.ofMinutes(1));
    TestClient.Reply changed = c.get("/s/set?value=later");
    clock.advance(Duration.ofMinutes(1));
    TestClient.Reply read = c.get("/s/read");
    assertEquals(first.get("created"), read.get("created"));
    assertEquals(String.valueOf(Long.parseLong(first.get("created")) + 60_000), read.get("lastAccessed"),
        "last accessed = when the token was last written");
  }

  @Test
  void storedValueThatNoLongerFitsItsClassIsDroppedNotThrown() {
    TestClient c = client();
    TokenCodec same = TokenCodec.builder().keys(keys).algorithm(Algorithm.DIR_A256GCM)
        .issuer(ISSUER).audience(AUDIENCE).timeToLive(Duration.ofMinutes(30)).clock(clock).build();
    c.cookies.put("SL", same.encode(Claims.builder()
        .put("$sessionless", Map.of("c", clock.millis(), "m", 1800, "t", Map.of("cart", Cart.class.getName())))
        .put("cart", List.of("not", "a", "cart")).build()));
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status);
    assertEquals("[]", r.get("names"), "dropped, not thrown: " + r.body);
  }
}
