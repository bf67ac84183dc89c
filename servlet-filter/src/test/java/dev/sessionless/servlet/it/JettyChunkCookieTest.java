package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Chunk cookies beyond the limit, in embedded Jetty. */
class JettyChunkCookieTest extends ChunkCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.jetty(setup);
  }
}
