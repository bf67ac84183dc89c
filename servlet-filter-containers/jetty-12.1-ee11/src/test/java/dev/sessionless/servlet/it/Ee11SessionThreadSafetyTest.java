package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Session thread safety, in embedded Jetty 12.1 ee11. */
class Ee11SessionThreadSafetyTest extends SessionThreadSafetyTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
