package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.DbscLoopbackScenarios;
import dev.sessionless.devicebinding.LoopbackNode;
import org.junit.jupiter.api.Timeout;

/** {@link DbscLoopbackScenarios} through the servlet filter on two real embedded Jetty nodes. */
@Timeout(120)
class DeviceBindingServletTest extends DbscLoopbackScenarios {
  @Override
  protected LoopbackNode.Stack stack() {
    return DbscJettyNode::new;
  }
}
