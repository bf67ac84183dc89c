package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/** WebSession's own contract: start, setMaxIdleTime, save, times, and a too-large write at commit. */
@Timeout(60)
class WebSessionContractTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));

  @Test
  void startAloneWritesAnEmptySessionThatTheNextRequestKeeps() throws Exception {
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/start", (ex, s) -> {
      s.start();
      return Mono.just(s.getId() + " " + s.isStarted());
    });
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), routes)) {
      CookieClient c = new CookieClient();
      String[] started = c.get(a.base() + "/start").body().split(" ");
      assertEquals("true", started[1]);
      assertEquals(started[0], c.get(a.base() + "/id").body());
    }
  }

  @Test
  void setMaxIdleTimeChangesThisSessionsSlidingExpiryOnly() throws Exception {
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/short", (ex, s) -> {
      s.setMaxIdleTime(Duration.ofMinutes(5));
      s.getAttributes().put("n", 1);
      return Mono.just(String.valueOf(s.getMaxIdleTime()));
    });
    routes.put("/times", (ex, s) -> Mono.just(s.getCreationTime() + " " + s.getLastAccessTime() + " "
        + s.getMaxIdleTime() + " " + s.isExpired()));
    try (NettyApp a = new NettyApp(Fixtures.manager().clock(clock).build(), routes)) {
      CookieClient c = new CookieClient();
      assertEquals("PT5M", c.get(a.base() + "/short").body());
      clock.advance(Duration.ofMinutes(2));
      assertEquals("2026-11-28T10:00:00Z 2026-11-28T10:00:00Z PT5M false", c.get(a.base() + "/times").body());
      clock.advance(Duration.ofMinutes(4)); // 6 minutes idle: past this session's 5
      assertEquals("EXPIRED", c.get(a.base() + "/rejection").body());
    }
  }

  @Test
  void saveWritesTheCookieBeforeTheHandlerEnds() throws Exception {
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/save", (ex, s) -> {
      s.getAttributes().put("n", 1);
      // The engine writes Set-Cookie headers itself, as the servlet filter does (not getCookies()).
      return s.save().then(Mono.fromCallable(() -> String.valueOf(ex.getResponse().getHeaders()
          .getOrEmpty("Set-Cookie").stream().anyMatch(h -> h.startsWith("SESSIONLESS=")))));
    });
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), routes)) {
      CookieClient.Answer r = new CookieClient().get(a.base() + "/save");
      assertEquals("true", r.body());
      assertEquals(1, r.setCookies().size(), "written once, not again at commit");
    }
  }

  @Test
  void aValueGrownInPlacePastWhatTheCookiesCarryIsAServerErrorNotATruncatedCookie() throws Exception {
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/grow", (ex, s) -> {
      @SuppressWarnings("unchecked")
      List<String> list = (List<String>) s.getAttributes().computeIfAbsent("list", k -> new ArrayList<String>());
      list.add("y".repeat(5000)); // in place: the budget, checked at put, never saw it
      return Mono.just("grown");
    });
    try (NettyApp a = new NettyApp(Fixtures.manager().compress(false).build(), routes)) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      CookieClient.Answer r = c.get(a.base() + "/grow");
      assertEquals(500, r.status());
      assertTrue(r.setCookies().isEmpty(), r.setCookies().toString());
      assertEquals("cart=[tea]", c.get(a.base() + "/show").body(), "the client's session is as it was");
    }
  }

  @Test
  void changeSessionIdAfterInvalidateDoesNothingAsSpringSecuritysLogoutMayCallIt() throws Exception {
    // Spring Security's WebSessionServerSecurityContextRepository.save calls changeSessionId()
    // after every save, also the empty one a logout makes, whichever order the handlers run in.
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/logout-then-save", (ex, s) -> s.invalidate().then(Mono.fromRunnable(() ->
        s.getAttributes().remove("SPRING_SECURITY_CONTEXT"))).then(s.changeSessionId()).thenReturn("out"));
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), routes)) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      CookieClient.Answer r = c.get(a.base() + "/logout-then-save");
      assertEquals(200, r.status());
      assertTrue(c.cookies.isEmpty(), "the session's cookie is cleared");
      assertEquals("cart=null", c.get(a.base() + "/show").body());
    }
  }
}
