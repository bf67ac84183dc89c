package dev.sessionless.devicebinding;

/**
 * What the DBSC filters (the servlet {@code DeviceBindingFilter} and the WebFlux {@code
 * DeviceBindingWebFilter}) do with a logged-in session that is not bound to a device: a browser
 * without DBSC, or one that has not registered yet. Sessions that never logged in (no {@code
 * auth_time}) are never refused by this policy; routes named by {@link
 * DeviceBindingBuilder#requireBound} refuse every unbound session whatever it says.
 */
public enum UnboundPolicy {
  /** Unbound sessions work as they always did; the filters' {@code isBound} tells them apart. */
  ALLOW,
  /**
   * Every request of a logged-in unbound session is refused ({@code 403}, {@code
   * UNBOUND_REFUSED}), except at the registration and refresh endpoints. Browsers without DBSC
   * cannot use the application once logged in.
   */
  REFUSE,
  /**
   * A logged-in unbound session works for {@link DeviceBindingBuilder#unboundLifetime}
   * after its login ({@code auth_time}), then is refused ({@code 401}, {@code UNBOUND_EXPIRED}):
   * the user logs in again. Also the grace a DBSC browser needs between login and registration.
   */
  SHORTER_LIFETIME
}
