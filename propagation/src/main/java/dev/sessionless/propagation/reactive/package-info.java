/**
 * Internal tokens on Spring WebFlux (Reactor Netty or any WebFlux server): {@link
 * dev.sessionless.propagation.reactive.InternalTokenWebFilter} verifies them in an internal
 * service, {@link dev.sessionless.propagation.reactive.EdgeContextWebFilter} gives an edge's
 * exchanges their call context, {@link dev.sessionless.propagation.reactive.JwksWebHandler}
 * publishes the issuer's keys, and {@link dev.sessionless.propagation.reactive.ReactiveCallContext}
 * carries the call context in Reactor's {@code Context}, where {@code
 * dev.sessionless.propagation.spring.InternalTokenExchangeFilter} takes it for the next call.
 * Needs {@code spring-web} and {@code reactor-core} (optional dependencies of this module).
 */
package dev.sessionless.propagation.reactive;
