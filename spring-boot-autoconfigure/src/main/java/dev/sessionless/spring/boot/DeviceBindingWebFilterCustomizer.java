package dev.sessionless.spring.boot;

import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilter;
import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilterBuilder;

/**
 * A bean that adjusts the auto-configured {@link DeviceBindingWebFilter} (WebFlux) before it is
 * built, for what properties cannot express (a clock, the filter's order). Every customizer bean
 * is applied, in {@code @Order}, after the {@code sessionless.device-binding.*} properties.
 */
@FunctionalInterface
public interface DeviceBindingWebFilterCustomizer {
  /** Adjusts the builder; called once, at startup. */
  void customize(DeviceBindingWebFilterBuilder builder);
}
