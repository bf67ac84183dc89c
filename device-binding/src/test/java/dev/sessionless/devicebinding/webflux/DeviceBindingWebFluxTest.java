package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.DbscLoopbackScenarios;
import dev.sessionless.devicebinding.LoopbackNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import reactor.netty.resources.LoopResources;

/**
 * {@link DbscLoopbackScenarios} through {@link DeviceBindingWebFilter} on two real Reactor Netty
 * nodes with the token {@code WebSession}, under BlockHound: registration, use, refresh on either
 * node, stolen cookies, replayed and foreign proofs, bad input; and no blocking call on an event
 * loop in any of it.
 */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceBindingWebFluxTest extends DbscLoopbackScenarios {
  private final LoopResources loops = NonBlocking.loops("dbsc-webflux-test");

  @Override
  protected LoopbackNode.Stack stack() {
    return (sessionKeys, dbscKeys, clock, config) -> new DbscNettyNode(sessionKeys, dbscKeys, clock, config, loops);
  }

  @AfterEach
  void nothingBlocked() {
    NonBlocking.assertNoneBlocked();
  }

  @AfterAll
  void stopLoops() {
    NonBlocking.stop(loops);
  }
}
