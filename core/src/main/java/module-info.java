/**
 * Sessionless core: the token format, encode/decode with strict claim checks, the key
 * model (immutable key-set snapshots with key IDs) and the verification cache.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.core}; everything under
 * {@code dev.sessionless.core.internal} is implementation detail.
 */
module dev.sessionless.core {
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.core;
  requires com.github.benmanes.caffeine;
  requires org.bouncycastle.provider;

  exports dev.sessionless.core;
}
