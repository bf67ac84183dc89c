package dev.sessionless.spring.boot;

import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilterBuilder;

/**
 * A bean that adjusts the auto-configured {@link DeviceBindingFilter} before it is built, for
 * what properties cannot express (a clock). Every customizer bean is applied, in {@code @Order},
 * after the {@code sessionless.device-binding.*} properties.
 */
@FunctionalInterface
public interface DeviceBindingFilterCustomizer {
  /** Adjusts the builder; called once, at startup. */
  void customize(DeviceBindingFilterBuilder builder);
}
