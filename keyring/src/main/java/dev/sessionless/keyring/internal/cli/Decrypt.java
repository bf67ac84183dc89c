package dev.sessionless.keyring.internal.cli;

import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code keyring decrypt}: writes an encrypted key file out as a plain JWKS, only to a file the
 * caller names, and warns that it holds every secret.
 */
final class Decrypt {
  private Decrypt() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env) {
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElseThrow(() -> new UsageException(
        "decrypt writes plain secrets only to a file you name: give --out FILE"));
    try (Protection protection = o.readProtection(env)) {
      if (protection.isNone()) {
        throw new UsageException("decrypt needs one of --password-env, --password-file or --kek-env");
      }
      Loaded loaded = KeyFiles.read(in, protection);
      if (!loaded.encrypted()) {
        throw new KeyringException(Reason.CONFIGURATION, in + " is not encrypted");
      }
      KeyFiles.writeSecret(target, loaded.keys().toJwksWithSecrets());
      out.println("wrote " + target + " (owner-only)");
      err.println("keyring: warning: " + target + " holds every key in PLAIN text; delete it when done");
    }
    return KeyringCli.OK;
  }
}
