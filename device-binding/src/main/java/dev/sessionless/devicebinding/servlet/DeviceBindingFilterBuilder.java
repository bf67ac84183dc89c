package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.DeviceBindingBuilder;

/**
 * Builds a {@link DeviceBindingFilter}: the settings are {@link DeviceBindingBuilder}'s, shared
 * with the WebFlux adapter. {@code keys} and {@code issuer} are required; every node that may
 * answer a refresh must be built with the same keys and issuer.
 */
public final class DeviceBindingFilterBuilder extends DeviceBindingBuilder<DeviceBindingFilterBuilder> {
  DeviceBindingFilterBuilder() {}

  /**
   * Builds the filter. Map it after {@code SessionlessFilter} (its session holds the DBSC
   * session's id), for {@code REQUEST} dispatches, ahead of any CSRF filter.
   *
   * @throws IllegalStateException if keys or issuer are missing, or the two paths or cookie names are equal
   */
  public DeviceBindingFilter build() {
    return new DeviceBindingFilter(engine(DeviceBindingFilter.class));
  }
}
