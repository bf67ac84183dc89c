/**
 * Sessionless keyring: live key sources (JWKS files, environment variables, HTTP JWKS URLs,
 * PEM files, encrypted key files) with background refresh, handing the codec an immutable
 * key-set snapshot through a volatile read.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.keyring}; everything under
 * {@code dev.sessionless.keyring.internal} is implementation detail.
 */
module dev.sessionless.keyring {
  requires transitive dev.sessionless.core;
  requires java.net.http;
  requires tools.jackson.databind;
  requires org.bouncycastle.provider;
  requires org.bouncycastle.pkix;
  // JFR events for key refreshes and JWKS fetches; disabled unless a recording enables them.
  requires jdk.jfr;

  exports dev.sessionless.keyring;
}
