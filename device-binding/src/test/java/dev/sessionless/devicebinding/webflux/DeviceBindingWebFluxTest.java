package dev.sessionless.devicebinding.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.DbscLoopbackScenarios;
import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.devicebinding.servlet.DbscJettyNode;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.blockhound.BlockingOperationError;

/**
 * {@link DbscLoopbackScenarios} through {@link DeviceBindingWebFilter} on two real Reactor Netty
 * nodes with the token {@code WebSession}, under BlockHound: registration, use, refresh on either
 * node, stolen cookies, replayed and foreign proofs, bad input; and no blocking call on an event
 * loop in any of it.
 */
@Timeout(120)
class DeviceBindingWebFluxTest extends DbscLoopbackScenarios {
  @RegisterExtension
  static final NonBlocking NON_BLOCKING = new NonBlocking("dbsc-webflux-test");

  @Override
  protected LoopbackNode.Stack stack() {
    return NON_BLOCKING.netty();
  }

  /** One device, a servlet node and a WebFlux node on the same keys: either stack reads the other's session and cookies. */
  @Test
  void aServletNodeAndAWebFluxNodeServeAndRefreshOneDevice() throws Exception {
    KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
    FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
    try (LoopbackNode servlet = new DbscJettyNode(() -> keys, () -> keys, clock, b -> {});
        LoopbackNode webflux = stack().start(() -> keys, () -> keys, clock, b -> {})) {
      LoopbackDevice device = new LoopbackDevice("ES256", clock, "sl_bound");
      assertEquals(200, device.send(servlet.base(), "POST", "/login?user=ann", Map.of(), "").status());
      assertEquals("user=ann bound=true", device.get(webflux.base(), "/app").body());
      for (int i = 0; i < 4; i++) {
        clock.advance(Duration.ofMinutes(11));
        LoopbackNode node = i % 2 == 0 ? webflux : servlet;
        Reply r = device.get(node.base(), "/app");
        assertEquals("user=ann bound=true", r.body(), node.base());
      }
      assertEquals(4, device.refreshes, "refreshed on both stacks");
    }
  }

  /** The guard is live: a blocking call on one of these loops is seen and fails (else the other tests prove nothing). */
  @Test
  void blockHoundWatchesTheseEventLoops() throws Exception {
    CompletableFuture<Throwable> seen = new CompletableFuture<>();
    NON_BLOCKING.loops.onServer(true).next().execute(() -> {
      try {
        Thread.sleep(1);
        seen.complete(null);
      } catch (Throwable t) {
        seen.complete(t);
      }
    });
    assertInstanceOf(BlockingOperationError.class, seen.get(30, TimeUnit.SECONDS));
    assertEquals(List.of("java.lang.Thread.sleep"), List.copyOf(NonBlocking.BLOCKED));
    NonBlocking.BLOCKED.clear();
  }
}
