package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Logout while the revocation store cannot be written (Redis down: {@code RedisRevocations}
 * applies the revocation on this node and throws {@code REVOCATION_UNAVAILABLE}, which its own
 * test shows against a real, stopped redis-server). The client gets 503 with Retry-After so it
 * can retry the logout, never a 500 with a stack trace, and its cookie is cleared all the same.
 */
class LogoutOutageTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM));
  final RevocationStore local = RevocationStore.inMemory(clock);
  final AtomicBoolean down = new AtomicBoolean();
  /** The store as RedisRevocations behaves when Redis is unreachable: applied here, then the outage. */
  final RevocationStore store = new ForwardingRevocationStore(local) {
    @Override
    public void revokeSession(String sessionId, Instant until) {
      local.revokeSession(sessionId, until);
      if (down.get()) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE,
            "the session's revocation could not be written to the shared store; retry it");
      }
    }
  };
  Container node;

  @AfterEach
  void stop() {
    if (node != null) {
      node.stop();
    }
  }

  @Test
  void logoutWhileTheRevocationStoreIsDownAnswers503WithRetryAfterAndClearsTheCookie() {
    node = Containers.underTest().start((classes, ctx) -> {
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).issuer("https://shop.example").audience("shop").cookieName("SHOP").clock(clock)
          .maxInactiveInterval(Duration.ofMinutes(30)).revocation(store).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("app", new RevocationServlet("a")).addMapping("/app/*");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
    TestClient c = new TestClient(node);
    assertEquals(200, c.get("/app/login?user=judy").status);
    Map<String, String> copy = Map.copyOf(c.cookies);

    down.set(true);
    TestClient.Reply out = c.get("/app/logout");
    assertEquals(503, out.status, "an outage the client can retry, not a 500: " + out.body);
    assertEquals("5", out.header("retry-after"), out.raw.headers().toString());
    assertFalse(out.body.contains("TokenException") || out.body.contains("dev.sessionless.")
        || out.body.contains("\tat "), "no stack trace or class name to the client: " + out.body);
    List<String> cleared = out.setCookie("SHOP");
    assertEquals(1, cleared.size(), out.setCookies.toString());
    assertTrue(cleared.get(0).contains("Max-Age=0"), "the cookie is cleared all the same: " + cleared);

    TestClient copied = new TestClient(node);
    copied.cookies.putAll(copy);
    TestClient.Reply me = copied.get("/app/me");
    assertEquals("none", me.get("user"), "the logout holds on this node: " + me.body);
    assertEquals("SESSION_REVOKED", me.get("rejection"));
  }
}
