/**
 * Propagating a session between services: {@link dev.sessionless.propagation.JwksServlet}
 * publishes an issuer's public keys, and {@link dev.sessionless.propagation.InternalTokens}
 * names the token type internal tokens carry.
 */
package dev.sessionless.propagation;
