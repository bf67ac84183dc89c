package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/** Chunk cookies beyond the limit, in embedded Tomcat. */
class TomcatChunkCookieTest extends ChunkCookieTest {
  @Override
  Container start(ServletContainerInitializer setup) {
    return Container.tomcat(setup);
  }
}
