package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Secure cookies, in embedded Jetty 12.1 ee11. */
class Ee11SecureCookieTest extends SecureCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
