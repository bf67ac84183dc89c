package dev.sessionless.spring.boot;

import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.servlet.SessionlessFilterBuilder;

/**
 * A bean that adjusts the auto-configured {@link SessionlessFilter} before it is built, for the
 * options properties cannot express (a clock, a listener; the JSON mapper comes from a {@code
 * StateMapper} bean or the application's {@code JsonMapper}). Every
 * customizer bean is applied, in {@code @Order}; an option the properties already set cannot be
 * set again (the builder refuses it).
 */
@FunctionalInterface
public interface SessionlessFilterCustomizer {
  /** Adjusts the builder; called once, at startup. */
  void customize(SessionlessFilterBuilder builder);
}
