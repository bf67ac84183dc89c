/**
 * Sessionless core: the token format, encode/decode with strict claim checks, the key
 * model (immutable key-set snapshots with key IDs) and the verification cache.
 *
 * <p>Exports the API, {@code dev.sessionless.core}, and the two state-mapper adapters, {@code
 * dev.sessionless.core.jackson} (Jackson 3) and {@code dev.sessionless.core.jackson2} (Jackson 2).
 * {@code dev.sessionless.core.internal} is implementation detail, exported only to the sibling
 * modules that share it ({@code ModuleBoundaryTest} pins the list).
 */
module dev.sessionless.core {
  // Jackson 3: the default StateMapper, and core's own streaming JSON. Transitive because
  // JacksonStateMapper.of takes the application's JsonMapper.
  requires transitive tools.jackson.databind;
  requires tools.jackson.core;
  // Optional: only the Jackson 2 adapter (Jackson2StateMapper) uses it.
  requires static com.fasterxml.jackson.databind;
  requires com.github.benmanes.caffeine;
  // Optional: only ES256 and EdDSA keys use it (internal.BouncyCastleCheck says what to add).
  requires static org.bouncycastle.provider;
  // JFR events for rare, expensive things (rejection bursts); disabled unless a recording enables them.
  requires jdk.jfr;

  exports dev.sessionless.core;
  exports dev.sessionless.core.jackson;
  exports dev.sessionless.core.jackson2;
  // Qualified: the keyring (base64url, kid rule, builder checks, the listener guard), the servlet
  // filter, the session rules below it and the WebFlux adapter (those, and the state index and raw
  // JSON attributes are read through, the fast-path switches), the Redis store (builder checks) and
  // propagation and the gateway (the seeded random source for trace and request ids) and device
  // binding (the P-256 engine for ES256 proofs) use these instead of copies of their own.
  exports dev.sessionless.core.internal to dev.sessionless.keyring, dev.sessionless.session, dev.sessionless.servlet,
      dev.sessionless.redis, dev.sessionless.webflux, dev.sessionless.propagation, dev.sessionless.gateway,
      dev.sessionless.devicebinding;
}
