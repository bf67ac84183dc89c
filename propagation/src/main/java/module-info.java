/**
 * Sessionless propagation: carries a user's session from an edge service to internal services
 * in short-lived, typed internal tokens, and publishes the issuer's public keys as a JWKS.
 *
 * <p>Exports {@code dev.sessionless.propagation}, two small packages for optional client
 * libraries: {@code dev.sessionless.propagation.spring} (Spring's {@code RestClient} and {@code
 * WebClient}) and {@code dev.sessionless.propagation.okhttp} (OkHttp), and {@code
 * dev.sessionless.propagation.reactive}, the receiving filter, edge filter and JWKS endpoint for
 * Spring WebFlux. {@code dev.sessionless.propagation.internal}, what the client helpers, filters
 * and JWKS endpoints share, is exported only to {@code dev.sessionless.grpc}. The servlet API is needed only by the servlet and
 * filters ({@link
 * dev.sessionless.propagation.JwksServlet}, {@link dev.sessionless.propagation.InternalTokenFilter},
 * {@link dev.sessionless.propagation.EdgeContextFilter}); it and the client libraries (Spring,
 * Reactor, Spring Security, OkHttp and the Kotlin runtime OkHttp needs) are {@code requires static}: an
 * application brings the ones it uses.
 */
module dev.sessionless.propagation {
  requires transitive dev.sessionless.core;
  requires transitive java.net.http;
  requires static transitive jakarta.servlet;
  requires static spring.core;
  requires static spring.web;
  requires static spring.webflux;
  requires static reactor.core;
  requires static spring.security.core;
  requires static okhttp3;
  requires static kotlin.stdlib;

  exports dev.sessionless.propagation;
  exports dev.sessionless.propagation.spring;
  exports dev.sessionless.propagation.okhttp;
  exports dev.sessionless.propagation.reactive;
  // Qualified: the gRPC server interceptor applies the receiving filters' rule for a caller's
  // token that lapsed before it could be re-minted (Admission.lapsed) instead of a copy of it.
  exports dev.sessionless.propagation.internal to dev.sessionless.grpc;
}
