package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Stored attributes that no longer fit, in embedded Jetty 12.1 ee11. */
class Ee11BadAttributeTest extends BadAttributeTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
