package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/**
 * A real servlet container on a loopback port, set up by a {@link ServletContainerInitializer}
 * (which adds filters and servlets through the standard {@code ServletContext} API) with one
 * global error page at {@code /error}, trusting {@code X-Forwarded-Proto} from loopback (as
 * behind a TLS-terminating proxy). Reusable for multi-node tests and benchmarks. Which
 * container and version is a {@link ContainerFactory}'s business: {@link #jetty} and {@link
 * #tomcat} are the two on this module's class path, {@link #underTest} the one a module's test
 * run names.
 */
public abstract class Container implements AutoCloseable {
  /**
   * Request and response header limit: both containers default to 8 KiB, less than a token
   * split across several 4 KiB cookies needs.
   */
  public static final int HEADER_SIZE = 32 * 1024;

  /** The port it listens on. */
  public abstract int port();

  /** The container's name, for test display. */
  public abstract String name();

  /** Stops it. */
  public abstract void stop();

  @Override
  public void close() {
    stop();
  }

  /** Embedded Jetty 12 (ee10) on port 0, context path "/". */
  public static Container jetty(ServletContainerInitializer setup) {
    return new JettyContainerFactory().start(setup);
  }

  /** Embedded Tomcat on port 0, context path "". */
  public static Container tomcat(ServletContainerInitializer setup) {
    return new TomcatContainerFactory().start(setup);
  }

  /** The container the suites run in (see {@link Containers}). */
  public static Container underTest(ServletContainerInitializer setup) {
    return Containers.underTest().start(setup);
  }
}
