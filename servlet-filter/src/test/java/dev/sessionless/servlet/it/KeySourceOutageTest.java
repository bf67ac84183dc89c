package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node that verifies another node's sessions with keys it reads over HTTP (a real JWKS server on
 * loopback), when that server stays down past the keyring's stale bound: the sessions under those
 * keys are an outage of this node (503 with Retry-After), not the client's bad token, so nobody
 * is silently given a fresh, empty session.
 */
class KeySourceOutageTest {
  final TokenKey signing = TokenKey.generate("signer-1", Algorithm.ES256);
  final AtomicInteger status = new AtomicInteger(200);
  final FakeClock keyringClock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  Container jwks;
  Keyring keyring;
  Container signer;
  Container verifier;

  @AfterEach
  void stop() {
    if (verifier != null) {
      verifier.stop();
    }
    if (signer != null) {
      signer.stop();
    }
    if (keyring != null) {
      keyring.close();
    }
    if (jwks != null) {
      jwks.stop();
    }
  }

  /** The signer's JWKS endpoint: a real servlet in a real container, answering {@link #status}. */
  void startJwks() {
    byte[] body = KeySet.of(signing).toPublicJwks().getBytes(StandardCharsets.UTF_8);
    jwks = Container.jetty((classes, ctx) -> ctx.addServlet("jwks", new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setHeader("Cache-Control", "no-cache");
        int s = status.get();
        if (s != 200) {
          resp.setStatus(s);
          return;
        }
        resp.setContentType("application/jwk-set+json");
        resp.getOutputStream().write(body);
      }
    }).addMapping("/jwks"));
  }

  static Container node(String name, Function<jakarta.servlet.ServletContainerInitializer, Container> kind,
      dev.sessionless.core.KeySource keys) {
    return kind.apply((classes, ctx) -> {
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).algorithm(Algorithm.ES256).issuer("https://shop.example").audience("shop")
          .cookieName("SHOP").maxInactiveInterval(Duration.ofMinutes(30)).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("app", new RevocationServlet(name)).addMapping("/app/*");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
  }

  @Test
  void sessionUnderKeysPastTheStaleBoundAnswers503WithRetryAfterNotAFreshSession() throws Exception {
    startJwks();
    URI url = URI.create("http://127.0.0.1:" + jwks.port() + "/jwks");
    // The verifying node signs its own sessions with a local key and verifies the signer's
    // sessions with the public keys the signer publishes.
    keyring = Keyring.builder().keys(KeySet.of(TokenKey.generate("verifier-1", Algorithm.ES256)))
        .jwksUrl(url).httpAllowInsecurePlainHttp(true).clock(keyringClock)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50)).httpBackoff(Duration.ofMillis(10))
        .httpMaxStale(Duration.ofHours(1)).build();
    signer = node("a", Containers.underTest()::start, KeySet.of(signing));
    verifier = node("b", Containers.underTest()::start, keyring);

    TestClient login = new TestClient(signer);
    assertEquals(200, login.get("/app/login?user=ivan").status);
    Map<String, String> ivan = Map.copyOf(login.cookies);
    TestClient c = new TestClient(verifier);
    c.cookies.putAll(ivan);
    assertEquals("ivan", c.get("/app/me").get("user"), "verified with the published key");

    status.set(500);
    keyringClock.advance(Duration.ofMinutes(61));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (keyring.status().keyIds().contains("signer-1")) {
      assertTrue(System.nanoTime() < deadline, "the key leaves the snapshot past the stale bound: " + keyring.status());
      Thread.sleep(10);
    }

    TestClient during = new TestClient(verifier);
    during.cookies.putAll(ivan);
    TestClient.Reply r = during.get("/app/me");
    assertEquals(503, r.status, "an outage, not a fresh session: " + r.body);
    assertEquals("503", r.get("errorPage"), "the application's error page answers it: " + r.body);
    assertEquals("5", r.raw.headers().firstValue("retry-after").orElse(null), r.raw.headers().toString());
    assertFalse(r.body.contains("TokenException") || r.body.contains("dev.sessionless.") || r.body.contains("\tat "),
        "no stack trace or class name to the client: " + r.body);
    assertTrue(r.setCookies.isEmpty(), "the session cookie is neither cleared nor rewritten: " + r.setCookies);

    status.set(200);
    deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!keyring.status().keyIds().contains("signer-1")) {
      assertTrue(System.nanoTime() < deadline, "the key returns after a good fetch: " + keyring.status());
      Thread.sleep(10);
    }
    TestClient after = new TestClient(verifier);
    after.cookies.putAll(ivan);
    assertEquals("ivan", after.get("/app/me").get("user"), "the session survived the outage");
  }
}
