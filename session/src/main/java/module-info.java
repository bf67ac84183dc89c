/**
 * Sessionless session: the container-neutral engine of a token-backed session, shared by the
 * servlet filter ({@code dev.sessionless.servlet}) and the WebFlux adapter ({@code
 * dev.sessionless.webflux}) so that each rule exists once, below both: decoding the token once
 * per request, cookie rules and chunking, the size budget, sliding and absolute expiry, renewal,
 * the revocation check and logout revocation, listener events, attributes through the
 * application's {@code StateMapper} and registered types, and change tracking.
 *
 * <p>Not an API for applications: its one package, {@code dev.sessionless.session.internal}, is
 * exported only to the two adapters, and has no compatibility promise.
 */
module dev.sessionless.session {
  requires transitive dev.sessionless.core;
  // Jackson 3 streaming: the session reads and writes its own metadata in the state (StoredState).
  requires tools.jackson.core;

  exports dev.sessionless.session.internal to dev.sessionless.servlet, dev.sessionless.webflux;
}
