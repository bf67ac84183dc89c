package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Server-side failures while reading a token, in embedded Jetty. */
class JettyServerFailureTest extends ServerFailureTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
