package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Server-side failures while reading a token, in embedded Tomcat. */
class TomcatServerFailureTest extends ServerFailureTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
