package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** The rejection summary, in embedded Tomcat. */
class TomcatRejectionLogTest extends RejectionLogTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
