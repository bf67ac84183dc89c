/**
 * Sessionless propagation: carries a user's session from an edge service to internal services
 * in short-lived, typed internal tokens, and publishes the issuer's public keys as a JWKS.
 *
 * <p>Exports {@code dev.sessionless.propagation}. The servlet API is needed only by the
 * servlet and filters ({@link dev.sessionless.propagation.JwksServlet}, {@link
 * dev.sessionless.propagation.InternalTokenFilter}, {@link
 * dev.sessionless.propagation.EdgeContextFilter}).
 */
module dev.sessionless.propagation {
  requires transitive dev.sessionless.core;
  requires transitive java.net.http;
  requires static transitive jakarta.servlet;

  exports dev.sessionless.propagation;
}
