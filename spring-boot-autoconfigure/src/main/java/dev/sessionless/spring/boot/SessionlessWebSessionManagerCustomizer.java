package dev.sessionless.spring.boot;

import dev.sessionless.webflux.SessionlessWebSessionManagerBuilder;

/**
 * Adjusts the WebFlux session manager's builder after {@code sessionless.*} is applied and before
 * it is built, as {@link SessionlessFilterCustomizer} does for the servlet filter. Every bean of
 * this type is applied, in order.
 */
@FunctionalInterface
public interface SessionlessWebSessionManagerCustomizer {
  /** Changes {@code builder}; what it sets last wins, and an option set twice fails the startup. */
  void customize(SessionlessWebSessionManagerBuilder builder);
}
