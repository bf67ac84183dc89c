package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Server failures, in embedded Jetty 12.1 ee11. */
class Ee11ServerFailureTest extends ServerFailureTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
