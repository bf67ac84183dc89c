package dev.sessionless.keyring.internal.cli;

import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** {@code keyring encrypt}: encrypts a plain key file with a password or a key-encryption key. */
final class Encrypt {
  private Encrypt() {}

  static int run(Options o, PrintStream out, Map<String, String> env) {
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElse(in);
    try (Protection protection = o.writeProtection(env, false)) {
      if (protection.isNone()) {
        throw new UsageException("encrypt needs one of --password-env, --password-file or --kek-env");
      }
      Loaded loaded = KeyFiles.read(in, Protection.none());
      if (loaded.encrypted()) {
        throw new KeyringException(Reason.CONFIGURATION, in + " is already encrypted");
      }
      KeyFiles.writeSecret(target, protection.encrypt(loaded.keys()));
      out.println("wrote " + target + " (encrypted with " + protection.describe() + ", owner-only)");
    }
    return KeyringCli.OK;
  }
}
