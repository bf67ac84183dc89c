/**
 * Sessionless core: the token format, encode/decode with strict claim checks, the key
 * model (immutable key-set snapshots with key IDs) and the verification cache.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.core}; everything under
 * {@code dev.sessionless.core.internal} is implementation detail, exported only to the sibling
 * modules {@code dev.sessionless.keyring} and {@code dev.sessionless.servlet} (one base64url
 * codec, one kid rule).
 */
module dev.sessionless.core {
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.core;
  requires com.github.benmanes.caffeine;
  // Optional: only ES256 and EdDSA keys use it (internal.BouncyCastleCheck says what to add).
  requires static org.bouncycastle.provider;
  // JFR events for rare, expensive things (rejection bursts); disabled unless a recording enables them.
  requires jdk.jfr;

  exports dev.sessionless.core;
  // The sibling modules share the strict base64url codec and the kid rule instead of copying them.
  exports dev.sessionless.core.internal to dev.sessionless.keyring, dev.sessionless.servlet;
}
