package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Stored attributes that no longer fit, in embedded Jetty. */
class JettyBadAttributeTest extends BadAttributeTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
