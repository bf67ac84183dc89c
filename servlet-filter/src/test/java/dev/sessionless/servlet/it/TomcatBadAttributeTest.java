package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Stored attributes that no longer fit, in embedded Tomcat. */
class TomcatBadAttributeTest extends BadAttributeTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
