/**
 * Sessionless propagation: carries a user's session from an edge service to internal services
 * in short-lived, typed internal tokens, and publishes the issuer's public keys as a JWKS.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.propagation}. The servlet API is needed
 * only by {@link dev.sessionless.propagation.JwksServlet}.
 */
module dev.sessionless.propagation {
  requires transitive dev.sessionless.core;
  requires static transitive jakarta.servlet;

  exports dev.sessionless.propagation;
}
