/**
 * Sessionless device binding: the server side of the W3C Device Bound Session Credentials
 * (DBSC) draft. Verifies the browser's {@code dbsc+jwt} proofs, computes RFC 7638 JWK
 * thumbprints, mints and checks stateless challenges with core's token codec, and writes the
 * registration header and the session-configuration JSON.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.devicebinding}; everything under
 * {@code dev.sessionless.devicebinding.internal} is implementation detail. It needs nothing of
 * core's internals.
 */
module dev.sessionless.devicebinding {
  requires transitive dev.sessionless.core;
  requires tools.jackson.databind;
  requires tools.jackson.core;

  exports dev.sessionless.devicebinding;
}
