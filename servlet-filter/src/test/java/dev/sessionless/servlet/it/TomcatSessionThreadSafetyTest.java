package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** One session used from two threads, in embedded Tomcat. */
class TomcatSessionThreadSafetyTest extends SessionThreadSafetyTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
