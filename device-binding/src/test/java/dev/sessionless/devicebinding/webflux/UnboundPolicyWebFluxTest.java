package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.devicebinding.UnboundPolicyScenarios;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link UnboundPolicyScenarios} through {@link DeviceBindingWebFilter} on real Reactor Netty with
 * the token {@code WebSession}, under BlockHound: each unbound policy, bound-only routes, and the
 * key source going down (503, never a 500).
 */
@Timeout(120)
class UnboundPolicyWebFluxTest extends UnboundPolicyScenarios {
  @RegisterExtension
  static final NonBlocking NON_BLOCKING = new NonBlocking("dbsc-webflux-policy-test");

  @Override
  protected LoopbackNode.Stack stack() {
    return NON_BLOCKING.netty();
  }
}
