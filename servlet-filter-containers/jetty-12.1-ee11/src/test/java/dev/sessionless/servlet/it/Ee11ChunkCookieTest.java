package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Chunk cookies, in embedded Jetty 12.1 ee11. */
class Ee11ChunkCookieTest extends ChunkCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.underTest(setup);
  }
}
