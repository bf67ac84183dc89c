package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** When cookies are Secure, in embedded Jetty. */
class JettySecureCookieTest extends SecureCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
