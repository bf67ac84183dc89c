package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** The rejection summary, in embedded Jetty. */
class JettyRejectionLogTest extends RejectionLogTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
