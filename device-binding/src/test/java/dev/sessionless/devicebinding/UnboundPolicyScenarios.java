package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Browsers without DBSC under each {@link UnboundPolicy}, routes that require a bound session,
 * and the key source going down under the endpoints, on a real node over loopback. Each stack
 * (servlet, WebFlux) runs these same scenarios through its own subclass.
 */
@Timeout(120)
public abstract class UnboundPolicyScenarios {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
  LoopbackNode node;

  /** The stack under test. */
  protected abstract LoopbackNode.Stack stack();

  LoopbackNode start(KeySource dbscKeys, Consumer<DeviceBindingBuilder<?>> config) throws Exception {
    node = stack().start(() -> keys, dbscKeys, clock, config);
    return node;
  }

  @AfterEach
  void stop() {
    if (node != null) {
      node.close();
    }
  }

  LoopbackDevice withoutDbsc() {
    LoopbackDevice d = new LoopbackDevice(null, clock, "sl_bound");
    assertEquals(200, d.send(node.base(), "POST", "/login?user=bob", Map.of(), "").status());
    return d;
  }

  @Test
  void allowLetsUnboundSessionsInAndTellsTheApplicationTheyAreUnbound() throws Exception {
    start(() -> keys, b -> b.unboundPolicy(UnboundPolicy.ALLOW).requireBound("/account/**"));
    LoopbackDevice d = withoutDbsc();
    clock.advance(Duration.ofMinutes(20));
    Reply r = d.get(node.base(), "/app");
    assertEquals(200, r.status());
    assertEquals("user=bob bound=false", r.body());
    Reply account = d.get(node.base(), "/account/orders");
    assertEquals(403, account.status(), "a route that needs a bound session");
    assertTrue(account.body().contains("\"BINDING_REQUIRED\""), account.body());
    LoopbackDevice bound = new LoopbackDevice("ES256", clock, "sl_bound");
    bound.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    assertEquals("user=ann bound=true", bound.get(node.base(), "/account/orders").body());
  }

  @Test
  void refuseRefusesLoggedInUnboundSessionsButNotAnonymousOnes() throws Exception {
    start(() -> keys, b -> b.unboundPolicy(UnboundPolicy.REFUSE));
    LoopbackDevice anonymous = new LoopbackDevice(null, clock, "sl_bound");
    assertEquals(200, anonymous.get(node.base(), "/app").status());
    LoopbackDevice d = withoutDbsc();
    Reply r = d.get(node.base(), "/app");
    assertEquals(403, r.status());
    assertTrue(r.body().contains("\"UNBOUND_REFUSED\""), r.body());
    LoopbackDevice bound = new LoopbackDevice("RS256", clock, "sl_bound");
    bound.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    assertEquals(200, bound.get(node.base(), "/app").status());
  }

  @Test
  void shorterLifetimeEndsUnboundSessionsThatLongAfterLogin() throws Exception {
    start(() -> keys, b -> b.unboundPolicy(UnboundPolicy.SHORTER_LIFETIME).unboundLifetime(Duration.ofMinutes(10)));
    LoopbackDevice d = withoutDbsc();
    clock.advance(Duration.ofMinutes(9));
    assertEquals(200, d.get(node.base(), "/app").status());
    clock.advance(Duration.ofMinutes(2));
    Reply r = d.get(node.base(), "/app");
    assertEquals(401, r.status());
    assertTrue(r.body().contains("\"UNBOUND_EXPIRED\""), r.body());
    LoopbackDevice bound = new LoopbackDevice("ES256", clock, "sl_bound");
    bound.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    for (int i = 0; i < 4; i++) {
      clock.advance(Duration.ofMinutes(11));
      assertEquals(200, bound.get(node.base(), "/app").status(), "a bound session is not cut short");
    }
  }

  /** The keys, or {@code KEY_SOURCE_UNAVAILABLE} while {@code down} is set. */
  KeySource downWhen(AtomicBoolean down) {
    return () -> {
      if (down.get()) {
        throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "test: key source down");
      }
      return keys;
    };
  }

  @Test
  void keySourceDownUnderTheEndpointsAndTheBoundCheckAnswers503NeverA500() throws Exception {
    AtomicBoolean down = new AtomicBoolean();
    KeySource flaky = downWhen(down);
    start(flaky, b -> {});
    LoopbackDevice device = new LoopbackDevice("ES256", clock, "sl_bound");
    device.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    LoopbackDevice second = new LoopbackDevice(null, clock, "sl_bound");
    String offer = second.send(node.base(), "POST", "/login?user=eve", Map.of(), "").header("Secure-Session-Registration");
    String registration = new SimulatedBrowser("ES256", clock).register(offer, null);
    down.set(true);
    Reply refresh = device.send(node.base(), "POST", device.browser.refreshUrl,
        Map.of("Sec-Secure-Session-Id", "\"" + device.browser.sessionId + "\"",
            "Secure-Session-Response", device.browser.refreshProof(null)), null);
    assertEquals(503, refresh.status(), refresh.body());
    assertTrue(refresh.header("Retry-After") != null);
    Reply app = device.send(node.base(), "GET", "/app", Map.of(), null);
    assertEquals(503, app.status(), app.body());
    Reply register = second.send(node.base(), "POST", "/.well-known/dbsc/register",
        Map.of("Secure-Session-Response", registration), null);
    assertEquals(503, register.status(), register.body());
    down.set(false);
    assertEquals(200, device.get(node.base(), "/app").status(), "and back when the keys are");
  }

  /**
   * The registration offer while the DBSC keys are down: the login is answered as the application
   * made it, without the offer (registration is optional for the browser), never a 500; the
   * session works unbound under the policy, and the next login offers again.
   */
  @Test
  void loginWhileTheKeySourceIsDownIsAnsweredWithoutTheRegistrationOfferNeverA500() throws Exception {
    AtomicBoolean down = new AtomicBoolean();
    KeySource flaky = downWhen(down);
    start(flaky, b -> {});
    down.set(true);
    LoopbackDevice device = new LoopbackDevice("ES256", clock, "sl_bound");
    Reply login = device.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    assertEquals(200, login.status(), login.body());
    assertEquals("logged in", login.body());
    assertEquals(null, login.header("Secure-Session-Registration"), "no offer while the keys are down");
    assertEquals(null, device.browser.sessionId, "not registered");
    assertEquals("user=ann bound=false", device.get(node.base(), "/app").body(), "an unbound session, as policy allows");
    down.set(false);
    LoopbackDevice later = new LoopbackDevice("ES256", clock, "sl_bound");
    assertEquals(200, later.send(node.base(), "POST", "/login?user=ann", Map.of(), "").status());
    assertEquals("user=ann bound=true", later.get(node.base(), "/app").body(), "offered and bound once the keys are back");
  }
}
