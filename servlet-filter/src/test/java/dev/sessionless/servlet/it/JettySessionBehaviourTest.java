package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** The behaviour suite in embedded Jetty 12 (ee10). */
class JettySessionBehaviourTest extends SessionBehaviourTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
