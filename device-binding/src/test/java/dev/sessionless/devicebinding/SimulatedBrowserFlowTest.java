package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.DbscNode.Answer;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The draft's whole sequence with a simulated browser against two stateless nodes sharing one
 * key set: registration on one, refreshes on the other, and what a thief with copied cookies
 * but no device key gets.
 */
@Timeout(120)
class SimulatedBrowserFlowTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
  final DbscNode nodeA = new DbscNode(keys, clock);
  final DbscNode nodeB = new DbscNode(keys, clock);
  /** What a request to the server and back takes: the clock moves on between calls, as it does. */
  static final Duration ROUND_TRIP = Duration.ofMillis(40);

  /** The device: a browser plus the cookies it holds. */
  final class Device {
    final SimulatedBrowser browser;
    String longLived;
    String bound;
    int forbidden;

    Device(String alg) {
      browser = new SimulatedBrowser(alg, clock);
    }

    void login(DbscNode node, String loginSession) {
      String offer = node.registrationHeader(loginSession, "ac-" + loginSession);
      Answer a = node.register(browser.register(offer, null), loginSession, "ac-" + loginSession);
      assertEquals(200, a.status(), () -> String.valueOf(a.refusal()));
      browser.accept(a.instructions());
      longLived = a.longLivedToken();
      bound = a.boundCookie();
    }

    /** A request that needs the bound cookie; refreshes first when it has lapsed, as the browser does. */
    boolean request(DbscNode node) {
      if (!node.accepts(bound)) {
        String id = "\"" + browser.sessionId + "\"";
        clock.advance(ROUND_TRIP);
        Answer first = node.refresh(id, longLived, browser.cachedChallenge == null ? null
            : browser.refreshProof(null));
        if (first.status() == 403) {
          forbidden++;
          browser.takeChallenge(first.challengeHeader());
          clock.advance(ROUND_TRIP);
          first = node.refresh(id, longLived, browser.refreshProof(null));
        }
        assertEquals(200, first.status(), String.valueOf(first.refusal()));
        browser.takeChallenge(first.challengeHeader());
        longLived = first.longLivedToken();
        bound = first.boundCookie();
      }
      return node.accepts(bound);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void deviceRegistersOnOneNodeAndRefreshesOnTheOtherWithoutInterruption(String alg) {
    Device device = new Device(alg);
    device.login(nodeA, "login-1");
    assertEquals("dbsc-login-1", device.browser.sessionId);
    assertEquals("/dbsc/refresh", device.browser.refreshUrl);
    assertEquals(java.util.List.of("sl_bound"), device.browser.boundCookies);
    assertTrue(device.request(nodeB));
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMinutes(6));
      assertTrue(device.request(i % 2 == 0 ? nodeB : nodeA), "refresh " + i);
    }
    // Only the first refresh needed a 403 round trip: each later one answered the challenge the
    // refresh before it handed out, on whichever node.
    assertEquals(1, device.forbidden);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void stolenCookiesWorkOnlyUntilTheBoundCookieExpiresWhileTheDeviceKeepsItsSession(String alg) {
    Device device = new Device(alg);
    device.login(nodeA, "login-2");
    // Malware copies both cookies and leaves; it has no device key.
    String stolenLongLived = device.longLived;
    String stolenBound = device.bound;
    assertTrue(nodeB.accepts(stolenBound), "a copied bound cookie works until it expires");
    clock.advance(Duration.ofMinutes(6));
    assertFalse(nodeB.accepts(stolenBound));
    // The thief asks for a refresh: gets a challenge, signs it with a key of its own.
    SimulatedBrowser thief = new SimulatedBrowser(alg, clock);
    thief.sessionId = device.browser.sessionId;
    Answer challenge = nodeB.refresh("\"" + thief.sessionId + "\"", stolenLongLived, null);
    assertEquals(403, challenge.status());
    thief.takeChallenge(challenge.challengeHeader());
    Answer refused = nodeB.refresh("\"" + thief.sessionId + "\"", stolenLongLived,
        thief.refreshProof(DbscNode.REFRESH_URL));
    assertEquals(403, refused.status());
    assertEquals(Reason.BAD_SIGNATURE, refused.refusal().reason());
    assertNull(refused.boundCookie());
    // Meanwhile the device refreshes as usual.
    assertTrue(device.request(nodeA));
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(6));
      assertTrue(device.request(nodeB));
      assertFalse(nodeA.accepts(stolenBound));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void aProofReplayedAfterItsRefreshIsRefused(String alg) {
    Device device = new Device(alg);
    device.login(nodeA, "login-3");
    String id = "\"" + device.browser.sessionId + "\"";
    device.browser.takeChallenge(nodeA.refresh(id, device.longLived, null).challengeHeader());
    clock.advance(ROUND_TRIP);
    String proof = device.browser.refreshProof(DbscNode.REFRESH_URL);
    Answer ok = nodeA.refresh(id, device.longLived, proof);
    assertEquals(200, ok.status());
    // The same proof (the same challenge) again, with the token that refresh wrote: refused.
    Answer again = nodeB.refresh(id, ok.longLivedToken(), proof);
    assertEquals(Reason.REPLAYED, again.refusal().reason());
    // The challenge that came with the refresh still works, once.
    device.browser.takeChallenge(ok.challengeHeader());
    clock.advance(ROUND_TRIP);
    String next = device.browser.refreshProof(DbscNode.REFRESH_URL);
    Answer second = nodeB.refresh(id, ok.longLivedToken(), next);
    assertEquals(200, second.status(), String.valueOf(second.refusal()));
    assertEquals(Reason.REPLAYED, nodeA.refresh(id, second.longLivedToken(), next).refusal().reason());
    assertNotNull(second.boundCookie());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void aProofForAnotherSessionOrEndpointOrAfterItsWindowIsRefused(String alg) {
    Device one = new Device(alg);
    one.login(nodeA, "login-4");
    Device two = new Device(alg);
    two.login(nodeA, "login-5");
    String idOne = "\"" + one.browser.sessionId + "\"";
    // Device one signs (with its own key) a challenge issued for session two.
    String forTwo = nodeA.refresh("\"" + two.browser.sessionId + "\"", two.longLived, null).challengeHeader();
    one.browser.takeChallenge(forTwo.replace(two.browser.sessionId, one.browser.sessionId));
    assertEquals(Reason.WRONG_SESSION,
        nodeA.refresh(idOne, one.longLived, one.browser.refreshProof(DbscNode.REFRESH_URL)).refusal().reason());
    // A proof for another site's refresh endpoint.
    one.browser.takeChallenge(nodeA.refresh(idOne, one.longLived, null).challengeHeader());
    assertEquals(Reason.WRONG_AUDIENCE, nodeA.refresh(idOne, one.longLived,
        one.browser.refreshProof("https://evil.example/dbsc/refresh")).refusal().reason());
    // A proof made in time and sent after the challenge's window.
    String late = one.browser.refreshProof(DbscNode.REFRESH_URL);
    clock.advance(Duration.ofMinutes(3));
    assertEquals(Reason.EXPIRED, nodeB.refresh(idOne, one.longLived, late).refusal().reason());
    // The long-lived token of one session with the other's Sec-Secure-Session-Id: not this session.
    assertEquals(401, nodeB.refresh("\"" + two.browser.sessionId + "\"", one.longLived, late).status());
  }
}
