package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** The behaviour suite in embedded Tomcat 10.1. */
class TomcatSessionBehaviourTest extends SessionBehaviourTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
