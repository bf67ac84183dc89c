/**
 * Propagating a session between services: {@link dev.sessionless.propagation.InternalTokenMinter}
 * mints internal tokens (at the edge from an {@link dev.sessionless.propagation.EdgeSession}, in a
 * service from the {@link dev.sessionless.propagation.InternalToken} it was called with), {@link
 * dev.sessionless.propagation.OutgoingTokens} attaches them to outgoing calls, {@link
 * dev.sessionless.propagation.InternalTokenVerifier} and {@link
 * dev.sessionless.propagation.InternalTokenFilter} check them in the receiving service, and
 * {@link dev.sessionless.propagation.JwksServlet} publishes the issuer's public keys. {@link
 * dev.sessionless.propagation.CallContext} carries the trace and session of the call being served.
 */
package dev.sessionless.propagation;
