/**
 * Sessionless device binding: the server side of the W3C Device Bound Session Credentials
 * (DBSC) draft. Verifies the browser's {@code dbsc+jwt} proofs, computes RFC 7638 JWK
 * thumbprints, mints and checks stateless challenges with core's token codec, and writes the
 * registration header and the session-configuration JSON.
 *
 * <p>Exports {@code dev.sessionless.devicebinding} (the protocol core and the adapters' shared
 * engine), {@code dev.sessionless.devicebinding.servlet} (the servlet filter that serves the
 * registration and refresh endpoints, needing {@code sessionless-servlet} and the Servlet API on
 * the class path) and {@code dev.sessionless.devicebinding.webflux} (the same as a WebFlux {@code
 * WebFilter}, needing Spring Web, Reactor and {@code sessionless-webflux}); everything under
 * {@code dev.sessionless.devicebinding.internal} is implementation detail. It reads one part of
 * core's internals: the P-256 engine ({@code EcP256Engine}) that verifies ES256 proofs, with
 * BouncyCastle, and the fast-path switch convention that can turn it off.
 */
module dev.sessionless.devicebinding {
  requires transitive dev.sessionless.core;
  requires tools.jackson.databind;
  requires tools.jackson.core;
  // Core's ES256 engine (EcP256Engine) runs on BouncyCastle, which core itself needs only optionally.
  requires org.bouncycastle.provider;
  // Optional: only the servlet wiring needs them.
  requires static jakarta.servlet;
  requires static dev.sessionless.servlet;
  // Optional: only the WebFlux wiring needs them.
  requires static spring.web;
  requires static spring.core;
  requires static reactor.core;
  requires static org.reactivestreams;
  requires static dev.sessionless.webflux;

  exports dev.sessionless.devicebinding;
  exports dev.sessionless.devicebinding.servlet;
  exports dev.sessionless.devicebinding.webflux;
}
