package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.Retirement;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code keyring delete}: removes one key, refused (without {@code --force}) while a token it
 * signed could still be accepted, by the lifecycle rule of {@link Retirement}. The file says
 * nothing about traffic; the nodes' status and metric do.
 */
final class Delete {
  private Delete() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env, Instant now) {
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElse(in);
    String kid = o.kid().orElseThrow(() -> new UsageException("delete needs --kid KID: the key to remove"));
    Duration maxLifetime = o.duration("--max-token-lifetime").orElse(KeyringCli.DEFAULT_MAX_TOKEN_LIFETIME);
    try (Protection protection = o.readProtection(env)) {
      Loaded loaded = KeyFiles.read(in, protection);
      KeyringCli.warnIfExposed(in, loaded, err);
      KeySet keys = loaded.keys();
      TokenKey key = keys.key(kid).orElseThrow(() -> new KeyringException(Reason.CONFIGURATION,
          "there is no key " + kid + " in " + in + ": 'keyring list --in " + in + "' shows the kids"));
      Optional<Instant> from = Retirement.safeToDeleteFrom(key, maxLifetime);
      boolean safe = from.isPresent() && !now.isBefore(from.get());
      if (!safe) {
        String why = from.isEmpty()
            ? "it has no retirement or expiry, so tokens it signs may be valid at any time"
            : "tokens it signed may be valid until " + from.get() + " (its last signing "
                + Retirement.signingEnds(key).map(Instant::toString).orElse("-") + " + --max-token-lifetime "
                + Durations.show(maxLifetime) + " + 10m skew, or its expiry)";
        if (!o.has("--force")) {
          throw new KeyringException(Reason.CONFIGURATION, "refusing to delete " + kid + ": " + why
              + "; deleting it would end those sessions. Wait, retire it first with 'keyring rotate', or --force");
        }
        err.println("keyring: warning: deleting " + kid + " although " + why + " (--force): sessions under it end now");
      }
      List<TokenKey> rest = new ArrayList<>(keys.keys());
      rest.remove(key);
      KeySet next = KeySet.of(rest);
      if (next.keys().stream().noneMatch(TokenKey::canSign)) {
        err.println("keyring: warning: " + target + " now holds no key that can sign");
      }
      KeyFiles.writeSecret(target, loaded.encrypted() ? protection.encrypt(next) : next.toJwksWithSecrets());
      out.println("deleted " + kid + " (" + key.algorithm().joseName() + ")" + (safe ? ", safe to delete since "
          + from.get() : ", forced"));
      out.println("wrote " + target + (loaded.encrypted() ? " (encrypted, owner-only)" : " (owner-only)"));
    }
    return KeyringCli.OK;
  }
}
