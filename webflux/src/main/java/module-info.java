/**
 * Sessionless for Spring WebFlux: a {@code WebSessionManager} whose {@code WebSession} lives in a
 * signed or encrypted token cookie, so no node stores sessions and any node serves any request.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.webflux} (the manager, its builder and
 * its exception); {@code dev.sessionless.webflux.internal} is not exported.
 */
module dev.sessionless.webflux {
  requires transitive dev.sessionless.core;
  requires transitive spring.web;
  requires transitive reactor.core;
  requires transitive org.reactivestreams;
  requires spring.core;
  // The metadata writer quotes names with Jackson's encoder, as core does.
  requires tools.jackson.core;

  exports dev.sessionless.webflux;
}
