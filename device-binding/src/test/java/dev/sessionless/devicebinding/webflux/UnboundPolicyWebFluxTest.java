package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.UnboundPolicyScenarios;
import dev.sessionless.devicebinding.LoopbackNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import reactor.netty.resources.LoopResources;

/**
 * {@link UnboundPolicyScenarios} through {@link DeviceBindingWebFilter} on real Reactor Netty with
 * the token {@code WebSession}, under BlockHound: each unbound policy, bound-only routes, and the
 * key source going down (503, never a 500).
 */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnboundPolicyWebFluxTest extends UnboundPolicyScenarios {
  private final LoopResources loops = NonBlocking.loops("dbsc-webflux-policy-test");

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
