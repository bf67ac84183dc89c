package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sliding and absolute expiry and renewal, with a test clock (no sleeping). */
@Timeout(60)
class WebSessionLifetimeTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));

  private SessionlessWebSessionManager manager() {
    return Fixtures.manager().clock(clock).maxInactiveInterval(Duration.ofMinutes(30))
        .absoluteLifetime(Duration.ofHours(2)).build();
  }

  @Test
  void anIdleSessionExpiresAfterMaxInactiveIntervalAndAFreshOneStarts() throws Exception {
    try (NettyApp a = new NettyApp(manager(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      clock.advance(Duration.ofMinutes(29));
      assertEquals("cart=[tea]", c.get(a.base() + "/show").body());
      clock.advance(Duration.ofMinutes(32)); // the renewed token's 30 minutes are over
      CookieClient.Answer expired = c.get(a.base() + "/rejection");
      assertEquals(TokenException.Reason.EXPIRED.toString(), expired.body());
      assertTrue(expired.setCookies().get(0).contains("Max-Age=0"), "the expired cookie is cleared");
      assertEquals("cart=null", c.get(a.base() + "/show").body());
    }
  }

  @Test
  void everyWriteSlidesExpiryButTheAbsoluteLifetimeEndsTheSessionHowever() throws Exception {
    try (NettyApp a = new NettyApp(manager(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      for (int i = 0; i < 5; i++) { // 5 x 20 minutes: past any one token's 30, kept alive by writes
        clock.advance(Duration.ofMinutes(20));
        assertEquals(200, c.get(a.base() + "/add?item=x" + i).status());
      }
      assertTrue(c.get(a.base() + "/show").body().startsWith("cart=[tea, x0"));
      clock.advance(Duration.ofMinutes(25)); // 2 h 5 min after creation
      assertEquals("cart=null", c.get(a.base() + "/show").body());
    }
  }

  @Test
  void anUnchangedSessionIsRenewedOncePastTheRenewalFractionAndNotBefore() throws Exception {
    try (NettyApp a = new NettyApp(manager(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      clock.advance(Duration.ofMinutes(10));
      assertEquals(List.of(), c.get(a.base() + "/show").setCookies(), "a third of the way: not renewed");
      clock.advance(Duration.ofMinutes(6));
      CookieClient.Answer renewed = c.get(a.base() + "/show");
      assertEquals(1, renewed.setCookies().size(), "past half its life: renewed");
      assertEquals(List.of(), c.get(a.base() + "/show").setCookies(), "the renewed token is fresh");
      clock.advance(Duration.ofMinutes(29)); // 45 minutes after the first write, 29 after renewal
      assertEquals("cart=[tea]", c.get(a.base() + "/show").body());
    }
  }
}
