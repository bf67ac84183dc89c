package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.devicebinding.UnboundPolicyScenarios;
import org.junit.jupiter.api.Timeout;

/** {@link UnboundPolicyScenarios} through the servlet filter on real embedded Jetty. */
@Timeout(120)
class UnboundPolicyTest extends UnboundPolicyScenarios {
  @Override
  protected LoopbackNode.Stack stack() {
    return DbscJettyNode::new;
  }
}
