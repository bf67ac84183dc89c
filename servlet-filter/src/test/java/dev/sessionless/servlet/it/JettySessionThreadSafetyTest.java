package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** One session used from two threads, in embedded Jetty. */
class JettySessionThreadSafetyTest extends SessionThreadSafetyTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
