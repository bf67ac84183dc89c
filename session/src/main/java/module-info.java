/**
 * Sessionless session: the container-neutral rules of a token-backed session, shared by the
 * servlet filter ({@code dev.sessionless.servlet}) and the WebFlux adapter ({@code
 * dev.sessionless.webflux}) so that each rule exists once, below both: how attribute values are
 * written to and read from the token's state (through the application's {@code StateMapper} and
 * its registered types), the session's metadata in the state, the state's size budget, the
 * {@code Cookie} header parser and the filter's log.
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
