package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.DeviceBindingBuilder;

/**
 * Builds a {@link DeviceBindingWebFilter}: the settings are {@link DeviceBindingBuilder}'s, the
 * servlet filter's too, plus the filter's {@link #order}. {@code keys} and {@code issuer} are
 * required; every node that may answer a refresh (servlet or WebFlux) must be built with the same
 * keys and issuer.
 */
public final class DeviceBindingWebFilterBuilder extends DeviceBindingBuilder<DeviceBindingWebFilterBuilder> {
  int order = DeviceBindingWebFilter.DEFAULT_ORDER;

  DeviceBindingWebFilterBuilder() {}

  /**
   * The filter's place among the application's {@code WebFilter}s (lower runs first); {@link
   * DeviceBindingWebFilter#DEFAULT_ORDER} if not set, ahead of Spring Security's chain (-100), so
   * that the two endpoints never reach its CSRF check.
   */
  public DeviceBindingWebFilterBuilder order(int order) {
    this.order = order;
    return this;
  }

  /**
   * Builds the filter. Register it as a {@code WebFilter} of an application whose {@code
   * WebSessionManager} is {@code SessionlessWebSessionManager} (the DBSC session's id lives in its
   * session).
   *
   * @throws IllegalStateException if keys or issuer are missing, or the two paths or cookie names are equal
   */
  public DeviceBindingWebFilter build() {
    return new DeviceBindingWebFilter(engine(DeviceBindingWebFilter.class), order);
  }
}
