package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;

/**
 * Starts one kind of container for the behaviour suites. Implementations have a public no-arg
 * constructor; which one a test run uses is named by a system property (see {@link
 * Containers}), so a module with another container version on its class path runs the same
 * suites in it.
 */
public interface ContainerFactory {
  /** The container and its version, e.g. {@code tomcat-11.0.27}. */
  String name();

  /** Starts the container on a loopback port with {@code setup} (see {@link Container}). */
  Container start(ServletContainerInitializer setup);
}
