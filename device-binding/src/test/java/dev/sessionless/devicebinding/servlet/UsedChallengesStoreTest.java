package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.devicebinding.UsedChallengesScenarios;
import org.junit.jupiter.api.Timeout;

/** {@link UsedChallengesScenarios} through the servlet filter on two real embedded Jetty nodes. */
@Timeout(120)
class UsedChallengesStoreTest extends UsedChallengesScenarios {
  @Override
  protected LoopbackNode.Stack stack() {
    return DbscJettyNode::new;
  }
}
