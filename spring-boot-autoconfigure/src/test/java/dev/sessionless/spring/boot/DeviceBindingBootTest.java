package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.spring.boot.it.DbscShopApp;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.ShopApp;
import dev.sessionless.testing.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * DBSC through the auto-configuration: two Boot instances with Spring Security's defaults that
 * share only a key file; a simulated browser logs in (form login, CSRF) on one, registers, uses
 * the other, refreshes on either; copied cookies stop at the bound cookie's lifetime.
 */
@Timeout(180)
class DeviceBindingBootTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private Instance start(Path keys, String... more) {
    String[] props = new String[more.length + 4];
    props[0] = "sessionless.keys.file=" + keys;
    props[1] = "spring.security.user.name=alice";
    props[2] = "spring.security.user.password=secret";
    props[3] = "sessionless.device-binding.enabled=true";
    System.arraycopy(more, 0, props, 4, more.length);
    return Instance.start(DbscShopApp.class, props);
  }

  private Path keys() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    return keys;
  }

  private static void logIn(LoopbackDevice device, String base) {
    Reply page = device.send(base, "GET", "/login", Map.of(), null);
    Matcher m = CSRF_INPUT.matcher(page.body());
    assertTrue(m.find(), page.body());
    Reply login = device.send(base, "POST", "/login", Map.of(),
        "username=alice&password=secret&_csrf=" + java.net.URLEncoder.encode(m.group(1), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(302, login.status(), login.body());
  }

  @Test
  void deviceKeepsItsSessionAcrossTwoInstancesWhileCopiedCookiesStopAtTheBoundLifetime() throws Exception {
    Path keys = keys();
    try (Instance a = start(keys, "sessionless.device-binding.bound-lifetime=5m");
        Instance b = start(keys, "sessionless.device-binding.bound-lifetime=5m")) {
      String baseA = "http://127.0.0.1:" + a.port;
      String baseB = "http://127.0.0.1:" + b.port;
      LoopbackDevice device = new LoopbackDevice("ES256", DbscShopApp.CLOCK, "sl_bound");
      logIn(device, baseA);
      deviceKeepsItsSessionWhileCopiesStop(device, baseA, baseB, DbscShopApp.CLOCK);
    }
  }

  /**
   * The sequence both stacks' Boot tests run once the device has logged in on {@code baseA}: it
   * registers (ahead of the security chain, without a CSRF token), uses {@code baseB}, refreshes
   * on either while a thief's copies stop at the bound cookie's lifetime (5 minutes).
   */
  static void deviceKeepsItsSessionWhileCopiesStop(LoopbackDevice device, String baseA, String baseB,
      FakeClock clock) {
    Reply home = device.get(baseA, "/home");
    assertEquals(200, home.status(), home.body());
    assertNotNull(device.browser.sessionId, "registered ahead of Spring Security's chain, without a CSRF token");
    assertEquals("hello alice bound=true", device.get(baseB, "/home").body());

    LoopbackDevice thief = device.copyCookies();
    clock.advance(Duration.ofMinutes(5).plusSeconds(10));
    for (int i = 0; i < 6; i++) {
      String base = i % 2 == 0 ? baseA : baseB;
      Reply r = device.get(base, "/home");
      assertEquals(200, r.status(), "the device never sees an interruption");
      assertEquals("hello alice bound=true", r.body());
      Reply stolen = thief.get(base, "/home");
      assertEquals(401, stolen.status());
      assertTrue(stolen.body().contains("\"NOT_BOUND\""), stolen.body());
      clock.advance(Duration.ofMinutes(3));
    }
    assertTrue(device.refreshes >= 3, "refreshed on both instances: " + device.refreshes);
    Reply refresh = device.refresh(baseB);
    assertEquals(200, refresh.status(), refresh.body());
    assertEquals("DENY", refresh.header("X-Frame-Options"));
    assertEquals(null, refresh.header("Access-Control-Allow-Credentials"));
  }

  @Test
  void withARevocationStoreAReplayedRefreshProofIsRefusedEvenWithTheCookiesFromBeforeIt() throws Exception {
    Path keys = keys();
    // The memory store keeps entries by the system clock: the filter's clock must not lag it.
    DbscShopApp.CLOCK.set(java.time.Instant.now());
    try (Instance a = start(keys, "sessionless.device-binding.bound-lifetime=5m", "sessionless.revocation.type=memory")) {
      String base = "http://127.0.0.1:" + a.port;
      LoopbackDevice device = new LoopbackDevice("ES256", DbscShopApp.CLOCK, "sl_bound");
      logIn(device, base);
      replayedRefreshProofIsRefused(device, base, DbscShopApp.CLOCK);
    }
  }

  /**
   * What both stacks' Boot tests check with a revocation store, once the device has logged in on
   * {@code base}: it registers, refreshes after its 5-minute bound cookie lapsed, and the same
   * proof with the cookies copied before that refresh is refused {@code REPLAYED}.
   */
  static void replayedRefreshProofIsRefused(LoopbackDevice device, String base, FakeClock clock) {
    assertEquals(200, device.get(base, "/home").status());
    assertNotNull(device.browser.sessionId, "registered");
    clock.advance(Duration.ofMinutes(5).plusSeconds(10));
    Map<String, String> h = new java.util.LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", "\"" + device.browser.sessionId + "\"");
    h.put("Secure-Session-Response", device.browser.refreshProof(null));
    LoopbackDevice thief = device.copyCookies();     // the long-lived cookie from before this refresh
    Reply ok = device.send(base, "POST", device.browser.refreshUrl, h, null);
    assertEquals(200, ok.status(), ok.body());
    Reply replay = thief.send(base, "POST", device.browser.refreshUrl, h, null);
    assertEquals(403, replay.status(), replay.body());
    assertTrue(replay.body().contains("\"REPLAYED\""), "the store remembers the challenge: " + replay.body());
  }

  @Test
  void offByDefault() throws Exception {
    Path keys = keys();
    try (Instance a = Instance.start(ShopApp.class, "sessionless.keys.file=" + keys)) {
      assertTrue(a.context.getBeansOfType(DeviceBindingFilter.class).isEmpty());
    }
  }

  @Test
  void aSettingOutOfRangeFailsTheStartupNamingTheProperty() throws Exception {
    Path keys = keys();
    Throwable failure = assertThrows(Throwable.class,
        () -> start(keys, "sessionless.device-binding.bound-lifetime=2h").close());
    FailureAnalysis analysis = new SessionlessFailureAnalyzer().analyze(failure);
    assertNotNull(analysis, String.valueOf(failure));
    assertTrue(analysis.getDescription().contains("sessionless.device-binding.bound-lifetime"),
        analysis.getDescription());
  }
}
