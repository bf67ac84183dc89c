package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Logout that holds, across three nodes (the container under test, its peer, the container
 * under test again) that share a key set and one revocation store and nothing else: a copied
 * cookie stops working on every node once the session is invalidated on one, "log out
 * everywhere" ends every session of one subject and no other's, and entries are forgotten once
 * the tokens they revoke have expired. The store here is in this JVM, so the lag is zero; the
 * Redis module runs the same flow with a real lag.
 */
class RevocationMultiNodeTest {
  // One cluster for the class (starting containers is the slow part); each test has its own users.
  static final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  static final KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM));
  static final RevocationStore store = RevocationStore.inMemory(clock);
  static final List<Container> nodes = new ArrayList<>();
  // Node d's store is unreachable (its network is down past the stale bound): the one stand-in
  // here, for what is outside the node.
  static final RevocationSource down = new RevocationSource() {
    @Override
    public boolean isRevoked(String sessionId) {
      throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "the store is unreachable");
    }

    @Override
    public Optional<Instant> notBefore(String subject) {
      throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "the store is unreachable");
    }
  };
  static Container outage;

  @BeforeAll
  static void threeNodes() {
    nodes.add(node("a", Containers.underTest()::start, store));
    nodes.add(node("b", Containers.peer()::start, store));
    nodes.add(node("c", Containers.underTest()::start, store));
    outage = node("d", Containers.underTest()::start, down);
  }

  @AfterAll
  static void stopNodes() {
    nodes.forEach(Container::stop);
    if (outage != null) {
      outage.stop();
    }
  }

  static Container node(String name, Function<jakarta.servlet.ServletContainerInitializer, Container> kind,
      RevocationSource source) {
    return kind.apply((classes, ctx) -> {
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).issuer("https://shop.example").audience("shop").cookieName("SHOP").clock(clock)
          .maxInactiveInterval(Duration.ofMinutes(30)).revocation(source).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("app", new RevocationServlet(name)).addMapping("/app/*");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
  }

  TestClient on(int node, Map<String, String> jar) {
    TestClient c = new TestClient(nodes.get(node));
    c.cookies.putAll(jar);
    return c;
  }

  Map<String, String> login(String user) {
    TestClient c = on(0, Map.of());
    TestClient.Reply r = c.get("/app/login?user=" + user);
    assertEquals(200, r.status, r.body);
    assertEquals(user, r.get("user"));
    return Map.copyOf(c.cookies);
  }

  @Test
  void copiedCookieStopsWorkingOnEveryNodeAfterLogoutOnOne() {
    Map<String, String> stolen = login("alice");
    for (int i = 0; i < 3; i++) {
      assertEquals("alice", on(i, stolen).get("/app/me").get("user"), "node " + i + " before logout");
    }
    TestClient.Reply out = on(1, stolen).get("/app/logout");
    assertEquals(200, out.status, out.body);
    for (int i = 0; i < 3; i++) {
      TestClient.Reply r = on(i, stolen).get("/app/me");
      assertEquals(200, r.status, r.body);
      assertEquals("none", r.get("user"), "node " + i + " after logout");
      assertEquals("SESSION_REVOKED", r.get("rejection"), "node " + i);
    }
  }

  @Test
  void logOutEverywhereEndsAllOfASubjectsSessionsAndNoOneElses() {
    Map<String, String> alicePhone = login("carol");
    Map<String, String> aliceLaptop = login("carol");
    Map<String, String> bob = login("bob");
    clock.advance(Duration.ofSeconds(5));
    TestClient.Reply r = on(2, alicePhone).get("/app/everywhere?user=carol");
    assertEquals(200, r.status, r.body);
    for (int i = 0; i < 3; i++) {
      for (Map<String, String> jar : List.of(alicePhone, aliceLaptop)) {
        TestClient.Reply me = on(i, jar).get("/app/me");
        assertEquals("none", me.get("user"), "node " + i);
        assertEquals("SUBJECT_REVOKED", me.get("rejection"), "node " + i);
      }
      assertEquals("bob", on(i, bob).get("/app/me").get("user"), "bob keeps his session on node " + i);
    }
    clock.advance(Duration.ofSeconds(1));
    Map<String, String> again = login("carol");
    assertEquals("carol", on(1, again).get("/app/me").get("user"), "a later login is valid");
  }

  @Test
  void renewedTokenKeepsItsLoginTimeSoLogOutEverywhereStillEndsIt() {
    Map<String, String> alice = login("erin");
    clock.advance(Duration.ofMinutes(20)); // past the renewal fraction: the next request renews
    TestClient c = on(1, alice);
    assertEquals("erin", c.get("/app/me").get("user"));
    assertFalse(c.cookies.equals(alice), "the token was renewed");
    clock.advance(Duration.ofSeconds(1));
    on(2, c.cookies).get("/app/everywhere?user=erin");
    assertEquals("SUBJECT_REVOKED", on(0, c.cookies).get("/app/me").get("rejection"));
  }

  @Test
  void revokedSessionIsForgottenOnceItsTokensHaveExpired() {
    Map<String, String> alice = login("frank");
    String id = on(0, alice).get("/app/me").get("session");
    on(0, alice).get("/app/logout");
    assertTrue(store.isRevoked(id));
    clock.advance(Duration.ofMinutes(30).plusMinutes(10).plusSeconds(1));
    assertFalse(store.isRevoked(id), "kept no longer than the last token's exp plus the margin");
    assertEquals("EXPIRED", on(1, alice).get("/app/me").get("rejection"), "the token itself has expired by then");
  }

  @Test
  void sessionTellsItsLoginTimeThroughAccessorAndAttributeUntilInvalidated() {
    String loginSecond = Instant.ofEpochSecond(clock.instant().getEpochSecond()).toString();
    Map<String, String> alice = login("grace");
    TestClient c = on(1, alice);
    TestClient.Reply me = c.get("/app/me");
    assertEquals(loginSecond, me.get("authTime"), "the login's second, read from the token on another node");
    assertEquals(loginSecond, me.get("authTimeAttribute"));
    clock.advance(Duration.ofMinutes(20)); // renewal: auth_time never moves
    me = c.get("/app/me");
    assertFalse(c.cookies.equals(alice), "the token was renewed");
    assertEquals(loginSecond, me.get("authTime"));
    assertEquals(loginSecond, on(2, c.cookies).get("/app/me").get("authTimeAttribute"));
    TestClient.Reply out = on(0, c.cookies).get("/app/logout");
    assertEquals("none", out.get("authTime"), "an invalidated session has no login time");
    assertEquals("null", out.get("authTimeAttribute"));
    assertEquals("none", on(0, Map.of()).get("/app/me").get("authTime"), "no session, no login time");
  }

  @Test
  void aNodeWhoseRevocationStoreIsDownAnswers503WithRetryAfterAndTheSessionSurvives() {
    Map<String, String> alice = login("heidi");
    TestClient c = new TestClient(outage);
    c.cookies.putAll(alice);
    TestClient.Reply r = c.get("/app/me");
    assertEquals(503, r.status, r.body);
    assertEquals("503", r.get("errorPage"), "the application's error page answers it: " + r.body);
    assertEquals("5", r.raw.headers().firstValue("retry-after").orElse(null), r.raw.headers().toString());
    assertFalse(r.body.contains("TokenException") || r.body.contains("dev.sessionless.") || r.body.contains("\tat "),
        "no stack trace or class name to the client: " + r.body);
    assertTrue(r.setCookies.isEmpty(), "the session cookie is neither cleared nor rewritten: " + r.setCookies);
    assertEquals("heidi", on(1, alice).get("/app/me").get("user"), "the session is intact where the store answers");
    TestClient.Reply anonymous = new TestClient(outage).get("/app/me");
    assertEquals(200, anonymous.status, "a request without a session needs no check: " + anonymous.body);
    assertEquals("none", anonymous.get("user"));
  }
}
