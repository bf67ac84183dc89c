/** The WebFlux adapter's implementation: not exported, no compatibility promised. */
package dev.sessionless.webflux.internal;
