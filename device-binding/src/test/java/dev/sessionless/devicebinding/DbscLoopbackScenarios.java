package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DBSC through a filter on two real nodes over loopback that share only the keys: a simulated
 * browser registers on one, uses the application on the other, refreshes on either; copied
 * cookies stop reaching the application once the bound cookie's lifetime is over. Each stack
 * (servlet, WebFlux) runs these same scenarios through its own subclass.
 */
@Timeout(120)
public abstract class DbscLoopbackScenarios {
  static final Duration BOUND = Duration.ofMinutes(5);
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
  LoopbackNode a;
  LoopbackNode b;

  /** The stack under test. */
  protected abstract LoopbackNode.Stack stack();

  void start(java.util.function.Consumer<DeviceBindingBuilder<?>> config) throws Exception {
    java.util.function.Consumer<DeviceBindingBuilder<?>> all = x -> config.accept(x.boundLifetime(BOUND));
    a = stack().start(() -> keys, () -> keys, clock, all);
    b = stack().start(() -> keys, () -> keys, clock, all);
  }

  @AfterEach
  void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
  }

  LoopbackDevice loggedIn(String alg, LoopbackNode node) {
    LoopbackDevice d = new LoopbackDevice(alg, clock, "sl_bound");
    Reply login = d.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    assertEquals(200, login.status(), login.body());
    return d;
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void deviceRegistersOnOneNodeUsesTheOtherAndRefreshesOnEither(String alg) throws Exception {
    start(x -> {});
    LoopbackDevice device = loggedIn(alg, a);
    assertNotNull(device.browser.sessionId, "registered on node A");
    Reply first = device.get(b.base(), "/app");
    assertEquals(200, first.status());
    assertEquals("user=ann bound=true", first.body());
    for (int i = 0; i < 6; i++) {
      clock.advance(BOUND.plusSeconds(30));
      Reply r = device.get(i % 2 == 0 ? a.base() : b.base(), "/app");
      assertEquals(200, r.status(), r.body());
      assertEquals("user=ann bound=true", r.body());
    }
    assertEquals(6, device.refreshes, "one refresh per lapsed bound cookie");
    assertEquals(0, device.challenged, "the challenge handed out with each answer saves the 403 round trip");
  }

  @Test
  void stolenCookiesNeverReachTheApplicationAgainWhileTheDeviceKeepsItsSession() throws Exception {
    start(x -> {});
    LoopbackDevice device = loggedIn("ES256", a);
    LoopbackDevice thief = device.copyCookies();
    assertEquals(200, thief.get(b.base(), "/app").status(), "within the bound cookie's lifetime a copy works: keep it short");

    clock.advance(BOUND.plusSeconds(10)); // past the 5 s of skew
    int reachedBefore = a.reached() + b.reached();
    for (int i = 0; i < 5; i++) {
      Reply stolen = thief.get(i % 2 == 0 ? a.base() : b.base(), "/app");
      assertEquals(401, stolen.status());
      assertTrue(stolen.body().contains("\"NOT_BOUND\""), stolen.body());
      Reply onlySession = device.copyCookies("SESSIONLESS").get(b.base(), "/app");
      assertEquals(401, onlySession.status(), "the session cookie alone is refused too");
      Reply skipped = thief.send(a.base(), "GET", "/app", Map.of("Secure-Session-Skipped", "quota_exceeded"), null);
      assertEquals(401, skipped.status(), "the draft's 'refresh skipped' header is the client's word: refused too");
    }
    assertEquals(reachedBefore, a.reached() + b.reached(), "no copied request reached the application");

    for (int i = 0; i < 8; i++) {
      Reply r = device.get(i % 2 == 0 ? a.base() : b.base(), "/app");
      assertEquals(200, r.status(), "the device never sees an interruption");
      clock.advance(Duration.ofMinutes(2));
    }
    Reply stillStolen = thief.get(a.base(), "/app");
    assertEquals(401, stillStolen.status());
  }

  @Test
  void longLivedTokenCopiedWithoutTheDeviceKeyCannotRefresh() throws Exception {
    start(x -> {});
    LoopbackDevice device = loggedIn("ES256", a);
    LoopbackDevice thief = device.copyCookies();
    clock.advance(BOUND.plusSeconds(10)); // past the 5 s of skew
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", SimulatedBrowser.quote(device.browser.sessionId));
    Reply challenge = thief.send(b.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(403, challenge.status());
    SimulatedBrowser own = new SimulatedBrowser("ES256", clock);
    own.sessionId = device.browser.sessionId;
    own.takeChallenge(challenge.header("Secure-Session-Challenge"));
    h.put("Secure-Session-Response", own.refreshProof(null));
    Reply refused = thief.send(b.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(401, refused.status());
    assertTrue(refused.body().contains("\"BAD_SIGNATURE\""), refused.body());
    assertNull(refused.header("Set-Cookie"), "no cookie for the thief");
    assertEquals(401, thief.get(a.base(), "/app").status());
  }

  @Test
  void replayedExpiredAndOtherSessionProofsAreRefusedWithReasons() throws Exception {
    start(x -> {});
    LoopbackDevice device = loggedIn("ES256", a);
    LoopbackDevice other = loggedIn("ES256", b);
    clock.advance(BOUND.plusSeconds(10)); // past the 5 s of skew
    String proof = device.browser.refreshProof(null);
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", SimulatedBrowser.quote(device.browser.sessionId));
    h.put("Secure-Session-Response", proof);
    LoopbackDevice snapshot = device.copyCookies();
    assertEquals(200, device.send(a.base(), "POST", device.browser.refreshUrl, h, null).status());

    // The same proof again with the renewed token: its last refresh time names that challenge.
    Reply twice = device.send(b.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(403, twice.status());
    assertTrue(twice.body().contains("\"REPLAYED\""), twice.body());
    Map<String, String> replay = new LinkedHashMap<>(h);

    // Another session's challenge, signed by this device.
    device.browser.cachedChallenge = other.browser.cachedChallenge;
    h.put("Secure-Session-Response", device.browser.refreshProof(null));
    Reply foreign = device.send(a.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(401, foreign.status());
    assertTrue(foreign.body().contains("\"WRONG_SESSION\""), foreign.body());

    // A challenge past its window.
    Reply fresh = device.send(a.base(), "POST", device.browser.refreshUrl,
        Map.of("Sec-Secure-Session-Id", SimulatedBrowser.quote(device.browser.sessionId)), null);
    device.browser.takeChallenge(fresh.header("Secure-Session-Challenge"));
    clock.advance(Duration.ofMinutes(3));
    h.put("Secure-Session-Response", device.browser.refreshProof(null));
    Reply expired = device.send(b.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(403, expired.status(), "the browser signs the new challenge it is sent");
    assertTrue(expired.body().contains("\"EXPIRED\""), expired.body());
    assertNotNull(expired.header("Secure-Session-Challenge"));
    assertEquals(200, device.get(b.base(), "/app").status(), "and the device carries on");

    // With the token it was made for (copied before the refresh) the stateless rule cannot tell
    // (README, "Single use without a store"); once the challenge's window is over, nothing replays.
    clock.advance(BOUND.plusMinutes(3));
    Reply late = snapshot.send(b.base(), "POST", device.browser.refreshUrl, replay, null);
    assertEquals(403, late.status());
    assertTrue(late.body().contains("\"EXPIRED\""), late.body());
  }

  @Test
  void refreshEndpointRefusesFramingCachingAndCrossOriginReadsAndAnswersOnlyPost() throws Exception {
    start(x -> {});
    LoopbackDevice device = loggedIn("ES256", a);
    Reply r = device.refresh(b.base());
    assertEquals(200, r.status());
    for (Reply each : new Reply[] {r, device.send(a.base(), "GET", device.browser.refreshUrl, Map.of(), null)}) {
      assertEquals("DENY", each.header("X-Frame-Options"));
      assertEquals("same-origin", each.header("Cross-Origin-Resource-Policy"));
      assertEquals("no-store", each.header("Cache-Control"));
      assertNull(each.header("Access-Control-Allow-Credentials"));
    }
    assertEquals(405, device.send(a.base(), "GET", device.browser.refreshUrl, Map.of(), null).status());
  }

  @Test
  void badProofHeadersAreTypedRefusalsNeverServerErrors() throws Exception {
    start(x -> {});
    LoopbackDevice client = new LoopbackDevice(null, clock, "sl_bound");
    client.send(a.base(), "POST", "/login?user=bob", Map.of(), "");
    for (String bad : new String[] {"garbage", "\"a.b.c\"", "\"" + "x".repeat(9_000) + "\"", "\"\""}) {
      Reply r = client.send(a.base(), "POST", "/.well-known/dbsc/register", Map.of("Secure-Session-Response", bad), null);
      assertTrue(r.status() == 400, bad.length() + ": " + r.status() + " " + r.body());
      assertTrue(r.body().contains("\"reason\""), r.body());
    }
    Reply noSession = new LoopbackDevice(null, clock, "sl_bound").send(a.base(), "POST", "/.well-known/dbsc/register",
        Map.of("Secure-Session-Response", "\"a.b.c\""), null);
    assertEquals(401, noSession.status());
    Reply noCookie = client.send(a.base(), "POST", "/.well-known/dbsc/refresh",
        Map.of("Sec-Secure-Session-Id", "\"x\""), null);
    assertEquals(401, noCookie.status());
    assertTrue(noCookie.body().contains("\"NO_SESSION\""), noCookie.body());
  }
}
