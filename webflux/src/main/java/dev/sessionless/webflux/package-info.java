/**
 * A token-backed {@code WebSession} for Spring WebFlux: {@link
 * dev.sessionless.webflux.SessionlessWebSessionManager}, built by {@link
 * dev.sessionless.webflux.SessionlessWebSessionManagerBuilder}.
 */
package dev.sessionless.webflux;
