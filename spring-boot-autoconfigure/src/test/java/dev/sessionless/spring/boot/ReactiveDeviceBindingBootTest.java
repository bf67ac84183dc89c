package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilter;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.KeyFiles;
import dev.sessionless.spring.boot.it.ReactiveDbscShopApp;
import dev.sessionless.spring.boot.it.ReactiveShopApp;
import dev.sessionless.testing.ReadmeBlocks;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DBSC through the reactive auto-configuration: two Boot WebFlux instances on Reactor Netty with
 * Spring Security's reactive defaults (form login, CSRF) that share only a key file; a simulated
 * browser logs in on one, registers (its DBSC POSTs carry no CSRF token), uses the other,
 * refreshes on either; copied cookies stop at the bound cookie's lifetime.
 */
@Timeout(180)
class ReactiveDeviceBindingBootTest {
  @TempDir
  Path dir;

  private static Instance start(Class<?> app, Path keys, String... more) {
    List<String> props = new ArrayList<>(ReactiveShopApp.REACTIVE);
    props.addAll(List.of("sessionless.keys.file=" + keys, "spring.security.user.name=alice",
        "spring.security.user.password=secret"));
    props.addAll(List.of(more));
    return Instance.start(app, props.toArray(new String[0]));
  }

  private static void logIn(LoopbackDevice device, String base) {
    String csrf = ReactiveSpringSecurityTest.csrfOf(device.send(base, "GET", "/login", Map.of(), null).body());
    Reply login = device.send(base, "POST", "/login", Map.of(),
        "username=alice&password=secret&_csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8));
    assertEquals(302, login.status(), login.body());
  }

  @Test
  @Disabled("issue 38, open: in this Boot WebFlux app a device's registration POST sometimes gets no answer at all"
      + " (one run in three here, every server thread idle, nothing logged); until that is found, DBSC on WebFlux"
      + " is not for production (device-binding README, Limits)")
  void deviceKeepsItsSessionAcrossTwoReactiveInstancesWhileCopiedCookiesStopAtTheBoundLifetime() throws Exception {
    Path keys = KeyFiles.a256gcm(dir.resolve("keys.jwks"));
    String[] dbsc = {"sessionless.device-binding.enabled=true", "sessionless.device-binding.bound-lifetime=5m"};
    try (Instance a = start(ReactiveDbscShopApp.class, keys, dbsc);
        Instance b = start(ReactiveDbscShopApp.class, keys, dbsc)) {
      assertInstanceOf(SessionlessWebSessionManager.class, a.context.getBean("webSessionManager"));
      assertEquals(DeviceBindingWebFilter.DEFAULT_ORDER, a.context.getBean(DeviceBindingWebFilter.class).getOrder());
      String baseA = "http://127.0.0.1:" + a.port;
      String baseB = "http://127.0.0.1:" + b.port;
      LoopbackDevice device = new LoopbackDevice("ES256", ReactiveDbscShopApp.CLOCK, "sl_bound");
      logIn(device, baseA);
      DeviceBindingBootTest.deviceKeepsItsSessionWhileCopiesStop(device, baseA, baseB, ReactiveDbscShopApp.CLOCK);
    }
  }

  /** As the servlet side: the application's revocation store records used challenges, so a replayed refresh proof is refused. */
  @Test
  @Disabled("issue 38, open: in this Boot WebFlux app a device's registration POST sometimes gets no answer at all"
      + " (one run in three here, every server thread idle, nothing logged); until that is found, DBSC on WebFlux"
      + " is not for production (device-binding README, Limits)")
  void withARevocationStoreAReplayedRefreshProofIsRefusedEvenWithTheCookiesFromBeforeIt() throws Exception {
    Path keys = KeyFiles.a256gcm(dir.resolve("keys.jwks"));
    // The memory store keeps entries by the system clock: the filter's clock must not lag it.
    ReactiveDbscShopApp.CLOCK.set(java.time.Instant.now());
    try (Instance a = start(ReactiveDbscShopApp.class, keys, "sessionless.device-binding.enabled=true",
        "sessionless.device-binding.bound-lifetime=5m", "sessionless.revocation.type=memory")) {
      String base = "http://127.0.0.1:" + a.port;
      LoopbackDevice device = new LoopbackDevice("ES256", ReactiveDbscShopApp.CLOCK, "sl_bound");
      logIn(device, base);
      DeviceBindingBootTest.replayedRefreshProofIsRefused(device, base, ReactiveDbscShopApp.CLOCK);
    }
  }

  @Test
  void readmeShowsExactlyTheControllerThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/spring/boot/it/ReactiveDbscShopApp.java"), "readme-boot-webflux");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-boot-webflux");
    assertFalse(shown.isEmpty(), "README.md has no readme-boot-webflux block");
    assertEquals(tested, shown, "README.md drifted from ReactiveDbscShopApp");
  }

  @Test
  void offByDefault() throws Exception {
    Path keys = KeyFiles.a256gcm(dir.resolve("keys.jwks"));
    try (Instance a = start(ReactiveDbscShopApp.class, keys)) {
      assertTrue(a.context.getBeansOfType(DeviceBindingWebFilter.class).isEmpty());
    }
  }
}
