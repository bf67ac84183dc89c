package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The session's life over real HTTP on Reactor Netty: carried, changed, renamed, ended. */
@Timeout(60)
class WebSessionBehaviourTest {
  @Test
  void sessionSurvivesRoundRobinAcrossTwoServersSharingOnlyTheKey() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart());
        NettyApp b = new NettyApp(Fixtures.manager().build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      assertEquals(200, c.get(a.base() + "/add?item=tea").status());
      assertEquals(200, c.get(b.base() + "/add?item=jam").status());
      assertEquals("cart=[tea, jam]", c.get(a.base() + "/show").body());
      assertEquals("cart=[tea, jam]", c.get(b.base() + "/show").body());
    }
  }

  @Test
  void sessionCookieIsHttpOnlySecureLaxAndWrittenOnlyWhenTheSessionChanged() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      CookieClient.Answer first = c.get(a.base() + "/show");
      assertEquals(List.of(), first.setCookies(), "a session never started writes nothing");
      CookieClient.Answer added = c.get(a.base() + "/add?item=tea");
      assertEquals(1, added.setCookies().size());
      String cookie = added.setCookies().get(0);
      assertTrue(cookie.startsWith("SESSIONLESS="), cookie);
      // Netty spells it HTTPOnly; attribute names are case-insensitive (RFC 6265, 5.2).
      assertTrue(cookie.contains("; Path=/") && cookie.contains("; Secure")
          && cookie.toLowerCase(java.util.Locale.ROOT).contains("; httponly") && cookie.contains("SameSite=Lax"), cookie);
      assertEquals(List.of(), c.get(a.base() + "/show").setCookies(), "an unchanged session is not rewritten");
    }
  }

  @Test
  void changeSessionIdGivesANewIdAndKeepsTheAttributes() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      String before = c.get(a.base() + "/id").body();
      String after = c.get(a.base() + "/login").body();
      assertNotEquals(before, after);
      assertEquals(after, c.get(a.base() + "/id").body());
      assertEquals("cart=[tea]", c.get(a.base() + "/show").body());
    }
  }

  @Test
  void invalidateClearsTheCookieAndTheNextRequestHasAFreshSession() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      String old = c.cookies.get("SESSIONLESS");
      CookieClient.Answer bye = c.get(a.base() + "/logout");
      assertEquals(200, bye.status());
      assertTrue(bye.setCookies().stream().anyMatch(h -> h.startsWith("SESSIONLESS=;") && h.contains("Max-Age=0")),
          bye.setCookies().toString());
      assertTrue(c.cookies.isEmpty());
      assertEquals("cart=null", c.get(a.base() + "/show").body());
      c.cookies.put("SESSIONLESS", old); // without a revocation store, a copy still works: said in the README
      assertEquals("cart=[tea]", c.get(a.base() + "/show").body());
    }
  }
}
