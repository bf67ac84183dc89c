package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code keyring public}: the public JWKS of the unexpired ES256 and EdDSA keys, to standard
 * output or a file.
 */
final class PublicJwks {
  private PublicJwks() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env, Instant now) {
    List<TokenKey> published = new ArrayList<>();
    for (TokenKey k : KeyFiles.readIn(o, env, err).keys().keys()) {
      if (!k.algorithm().isSymmetric() && k.verifiesAt(now)) {
        published.add(k.publicOnly());
      }
    }
    if (published.isEmpty()) {
      err.println("keyring: note: " + o.requirePath("--in") + " holds no unexpired ES256 or EdDSA key; the public "
          + "JWKS is empty");
    }
    String jwks = KeySet.of(published).toPublicJwks();
    Optional<Path> target = o.path("--out");
    if (target.isPresent()) {
      KeyFiles.writePublic(target.get(), jwks + "\n");
      out.println("wrote " + published.size() + " public key(s) to " + target.get());
    } else {
      out.println(jwks);
    }
    return KeyringCli.OK;
  }
}
