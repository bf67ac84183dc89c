package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A logout writes to the revocation store (Redis: a network round trip) without holding the
 * session's lock, so another thread of the same request is not held up behind it, and a virtual
 * thread waiting on the store is not pinned to its carrier by a monitor (Java 17 to 23).
 *
 * <p>The store's {@code revokeSession} stands in for the network: it waits until the request's
 * second thread has used the session. Holding the lock, it would wait for a thread that waits
 * for it: the store's wait is bounded only so that the failure is a red test, not a hung build.
 */
class LogoutOffTheSessionLockTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM));
  final RevocationStore local = RevocationStore.inMemory(clock);
  final CountDownLatch inStore = new CountDownLatch(1);
  final CountDownLatch peerUsedSession = new CountDownLatch(1);
  /** Whether the store call saw the peer use the session while it was in progress. */
  final AtomicBoolean peerRanDuringStoreCall = new AtomicBoolean();
  final RevocationStore slowStore = new ForwardingRevocationStore(local) {
    @Override
    public void revokeSession(String sessionId, Instant until) {
      inStore.countDown();
      try {
        peerRanDuringStoreCall.compareAndSet(false, peerUsedSession.await(20, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      local.revokeSession(sessionId, until);
    }
  };
  Container node;

  /** {@code /login} makes a session; {@code /logout} invalidates it while a second thread uses it. */
  final class LogoutServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain;charset=UTF-8");
      if (req.getPathInfo().equals("/login")) {
        SessionlessFilter.loggedIn(req, "judy");
        req.getSession().setAttribute("user", "judy");
        return;
      }
      HttpSession s = req.getSession(false);
      String[] seen = new String[1];
      Thread peer = new Thread(() -> {
        try {
          inStore.await();
          seen[0] = s.getId() + "/" + (req.getSession(false) == null ? "ended" : "live");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          peerUsedSession.countDown();
        }
      });
      peer.start();
      s.invalidate();
      try {
        peer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      res.getWriter().println("peer=" + seen[0]);
    }
  }

  @AfterEach
  void stop() {
    if (node != null) {
      node.stop();
    }
  }

  @Test
  void anotherThreadOfTheRequestUsesTheSessionWhileTheLogoutWaitsOnTheRevocationStore() {
    node = Containers.underTest().start((classes, ctx) -> {
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).issuer("https://shop.example").audience("shop").cookieName("SHOP").clock(clock)
          .revocation(slowStore).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("app", new LogoutServlet()).addMapping("/app/*");
    });
    TestClient c = new TestClient(node);
    assertEquals(200, c.get("/app/login").status);

    TestClient.Reply out = c.get("/app/logout");
    String peer = out.get("peer");
    assertEquals(200, out.status, out.body);
    assertTrue(peerRanDuringStoreCall.get(), "the second thread used the session while the store call was"
        + " in progress, not after it: " + out.body);
    assertTrue(peer.endsWith("/ended"), "it saw the session already ended: " + out.body);
    List<String> cleared = out.setCookie("SHOP");
    assertEquals(1, cleared.size(), out.setCookies.toString());
    assertTrue(cleared.get(0).contains("Max-Age=0"), "the cookie is cleared: " + cleared);
    assertTrue(local.isRevoked(peer.substring(0, peer.indexOf('/'))), "the logout was recorded in the store");
  }
}
