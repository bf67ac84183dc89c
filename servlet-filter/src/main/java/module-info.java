/**
 * Sessionless servlet filter: a {@code jakarta.servlet} {@link jakarta.servlet.Filter} that
 * replaces {@code HttpSession} with a session carried in a signed or encrypted token.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.servlet} (the filter, its builder and
 * its exception); {@code dev.sessionless.servlet.internal} is not exported.
 */
module dev.sessionless.servlet {
  requires transitive dev.sessionless.core;
  // Optional: keys.file and encrypted keys in web.xml (KeyringParams checks it is there and
  // names the artifact to add if not).
  requires static dev.sessionless.keyring;
  requires transitive jakarta.servlet;
  // The session engine shared with the WebFlux adapter (internal: exported to the two adapters only).
  requires dev.sessionless.session;

  exports dev.sessionless.servlet;
}
