package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** When cookies are Secure, in embedded Tomcat. */
class TomcatSecureCookieTest extends SecureCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
