package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** The rejection log, in embedded Jetty 12.1 ee11. */
class Ee11RejectionLogTest extends RejectionLogTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
