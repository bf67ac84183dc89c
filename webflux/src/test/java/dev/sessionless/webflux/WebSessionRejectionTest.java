package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/**
 * Tokens that must not be accepted start a fresh session (never a 500); revoked ones too; an
 * outage of the revocation source is a 503; the listener hears all of it.
 */
@Timeout(60)
class WebSessionRejectionTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));

  private String tokenFrom(SessionlessWebSessionManager m) throws Exception {
    try (NettyApp a = new NettyApp(m, Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      return c.cookies.get("SESSIONLESS");
    }
  }

  private static CookieClient.Answer replay(NettyApp app, String token) throws Exception {
    CookieClient c = new CookieClient();
    c.cookies.put("SESSIONLESS", token);
    return c.get(app.base() + "/rejection");
  }

  @Test
  void forgedForeignExpiredAndGarbageTokensGiveAFreshSessionAndAClearedCookieNeverA500() throws Exception {
    List<TokenException.Reason> heard = new CopyOnWriteArrayList<>();
    SessionlessListener listener = new SessionlessListener() {
      @Override
      public void sessionRejected(TokenException.Reason reason) {
        heard.add(reason);
      }
    };
    String good = tokenFrom(Fixtures.manager().clock(clock).build());
    String[] parts = good.split("\\.");
    char[] cipher = parts[3].toCharArray(); // one ciphertext character changed: the tag no longer matches
    cipher[5] = cipher[5] == 'A' ? 'B' : 'A';
    parts[3] = new String(cipher);
    String forged = String.join(".", parts);
    String foreign = tokenFrom(SessionlessWebSessionManager.builder()
        .keys(KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM))).issuer("https://shop.test")
        .audience("shop").build());
    try (NettyApp app = new NettyApp(Fixtures.manager().clock(clock).listener(listener).build(), Fixtures.cart())) {
      Map<String, String> answers = new HashMap<>();
      for (Map.Entry<String, String> t : Map.of("forged", forged, "foreign", foreign, "garbage", "not.a.token")
          .entrySet()) {
        CookieClient.Answer r = replay(app, t.getValue());
        assertEquals(200, r.status(), t.getKey());
        assertTrue(r.setCookies().size() == 1 && r.setCookies().get(0).contains("Max-Age=0"), t.getKey());
        answers.put(t.getKey(), r.body());
      }
      clock.advance(Duration.ofHours(1));
      answers.put("expired", replay(app, good).body());
      assertEquals(Map.of("forged", "DECRYPTION_FAILED", "foreign", "DECRYPTION_FAILED", "garbage", "MALFORMED",
          "expired", "EXPIRED"), answers);
      assertEquals(4, heard.size(), heard.toString());
    }
  }

  @Test
  void invalidateWithARevocationStoreMakesACopiedCookieStopWorking() throws Exception {
    RevocationStore store = RevocationStore.inMemory(clock);
    try (NettyApp a = new NettyApp(Fixtures.manager().clock(clock).revocation(store).build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      String copy = c.cookies.get("SESSIONLESS");
      assertEquals(200, c.get(a.base() + "/logout").status());
      assertEquals("SESSION_REVOKED", replay(a, copy).body());
    }
  }

  @Test
  void logOutEverywhereRevokesEverySessionOfTheSubjectAuthenticatedBefore() throws Exception {
    RevocationStore store = RevocationStore.inMemory(clock);
    SessionlessWebSessionManager m = Fixtures.manager().clock(clock).revocation(store).build();
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/signin", (ex, s) -> Mono.just(SessionlessWebSessionManager.loggedIn(s, "ada")));
    routes.put("/auth", (ex, s) -> Mono.just(SessionlessWebSessionManager.authTime(s).orElse(null) + " "
        + ex.getAttribute(SessionlessWebSessionManager.AUTH_TIME_ATTRIBUTE)));
    try (NettyApp a = new NettyApp(m, routes)) {
      CookieClient phone = new CookieClient();
      CookieClient laptop = new CookieClient();
      phone.get(a.base() + "/signin");
      laptop.get(a.base() + "/signin");
      assertEquals("2026-11-28T10:00:00Z 2026-11-28T10:00:00Z", phone.get(a.base() + "/auth").body());
      clock.advance(Duration.ofSeconds(1));
      m.logOutEverywhere("ada").block(Duration.ofSeconds(10));
      assertEquals("SUBJECT_REVOKED", phone.get(a.base() + "/rejection").body());
      assertEquals("SUBJECT_REVOKED", laptop.get(a.base() + "/rejection").body());
    }
  }

  @Test
  void aRevocationSourceThatIsDownIsA503WithRetryAfterNotA500() throws Exception {
    String good = tokenFrom(Fixtures.manager().build());
    RevocationSource down = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "store down past its stale bound");
      }

      @Override
      public Optional<Instant> notBefore(String subject) {
        return isRevoked(subject) ? Optional.empty() : Optional.empty();
      }
    };
    try (NettyApp a = new NettyApp(Fixtures.manager().revocation(down).build(), Fixtures.cart())) {
      CookieClient.Answer r = replay(a, good);
      assertEquals(503, r.status());
      assertEquals(Optional.of("5"), r.headers().firstValue("Retry-After"));
      assertEquals(List.of(), r.setCookies(), "the client's cookie is kept for when the store is back");
    }
  }

  @Test
  void theListenerHearsEachCookieWrittenWithItsSizeAndChunks() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    SessionlessListener listener = new SessionlessListener() {
      @Override
      public void cookieWritten(int bytes, int chunks) {
        heard.add(chunks + ":" + (bytes > 100));
      }
    };
    try (NettyApp a = new NettyApp(Fixtures.manager().listener(listener).build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/add?item=tea");
      c.get(a.base() + "/show");
      c.get(a.base() + "/add?item=jam");
      assertEquals(List.of("1:true", "1:true"), heard);
    }
  }

  @Test
  void aKeySourceThatGoesDownBeforeTheWriteIsA503NotA500() throws Exception {
    boolean[] down = {false};
    dev.sessionless.core.KeySource keys = () -> {
      if (down[0]) {
        throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "JWKS URL down past its stale bound");
      }
      return Fixtures.KEYS;
    };
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/fail-later", (ex, s) -> {
      s.getAttributes().put("n", 1);
      down[0] = true; // read fine, then the source goes down before the response commits
      return Mono.just("written?");
    });
    SessionlessWebSessionManager m = SessionlessWebSessionManager.builder().keys(keys)
        .issuer("https://shop.test").audience("shop").build();
    try (NettyApp a = new NettyApp(m, routes)) {
      CookieClient.Answer r = new CookieClient().get(a.base() + "/fail-later");
      assertEquals(503, r.status());
      assertEquals(Optional.of("5"), r.headers().firstValue("Retry-After"));
    }
  }
}
