/**
 * Sessionless for Spring WebFlux: a {@code WebSessionManager} whose {@code WebSession} lives in a
 * signed or encrypted token cookie, so no node stores sessions and any node serves any request.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.webflux} (the manager, its builder and
 * its exception); {@code dev.sessionless.webflux.internal} is not exported.
 */
module dev.sessionless.webflux {
  requires transitive dev.sessionless.core;
  // The session rules shared with the servlet filter (its internal package is exported to us).
  requires dev.sessionless.session;
  requires transitive spring.web;
  requires transitive reactor.core;
  requires transitive org.reactivestreams;
  requires spring.core;

  exports dev.sessionless.webflux;
}
