package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An A256GCM key that has encrypted its per-node budget (random 96-bit IVs allow 2^32 per key;
 * a small budget stands in here) with no other key to take over: the request that would write a
 * session is this node's outage, 503 with Retry-After, never a 500 with a stack trace, even when
 * the session is written only as the request ends.
 */
class EncryptionBudgetOutageTest {
  Keyring keyring;
  Container node;

  @AfterEach
  void stop() {
    if (node != null) {
      node.stop();
    }
    if (keyring != null) {
      keyring.close();
    }
  }

  @Test
  void aSessionWrittenPastTheKeysEncryptionBudgetAnswers503NotA500() {
    keyring = Keyring.builder().keys(KeySet.of(TokenKey.generate("gcm-1", Algorithm.DIR_A256GCM)))
        .encryptionBudgetPerKey(1).build();
    node = Containers.underTest().start((classes, ctx) -> {
      SessionlessFilter filter = SessionlessFilter.builder().keys(keyring).issuer("https://shop.example")
          .audience("shop").cookieName("SHOP").maxInactiveInterval(Duration.ofMinutes(30)).build();
      ctx.addFilter("sessionless", filter).addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("login", new HttpServlet() {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse res) {
          req.getSession().setAttribute("user", req.getParameter("user")); // written when the request ends
          res.setStatus(204);
        }
      }).addMapping("/login");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
    TestClient first = new TestClient(node);
    assertEquals(204, first.get("/login?user=ann").status, "the budget's one encryption");
    TestClient second = new TestClient(node);
    TestClient.Reply r = second.get("/login?user=bob");
    assertEquals(503, r.status, "an outage until the key is rotated, not a 500: " + r.body);
    assertEquals("5", r.header("retry-after"));
    assertFalse(r.body.contains("TokenException") || r.body.contains("\tat "), "no stack trace: " + r.body);
    assertTrue(r.setCookie("SHOP").isEmpty(), r.setCookies.toString());
  }
}
