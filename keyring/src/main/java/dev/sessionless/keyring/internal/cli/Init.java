package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * {@code keyring init}: creates a key file holding one key that signs from now, plain or
 * encrypted, and names new keys (for {@code rotate} too).
 */
final class Init {
  private Init() {}

  /**
   * What {@code init} makes without {@code --alg}: an A256GCM key for {@code dir}, the filter's
   * default algorithm, whose tokens hide the session's content.
   */
  static final Algorithm DEFAULT_ALGORITHM = Algorithm.DIR_A256GCM;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final DateTimeFormatter KID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  static int run(Options o, PrintStream out, Map<String, String> env, Instant now) {
    Path file = o.requirePath("--out");
    Algorithm alg = o.algorithm().orElse(DEFAULT_ALGORITHM);
    String kid = o.kid().orElseGet(() -> newKid(alg, now, KeySet.empty()));
    if (!o.has("--force")) {
      KeyFiles.requireAbsent(file);
    }
    try (Protection protection = o.writeProtection(env, true)) {
      KeySet keys = KeySet.of(TokenKey.generate(kid, alg).withLifecycle(now, now, null, null));
      KeyFiles.writeSecret(file, protection.isNone() ? keys.toJwksWithSecrets() : protection.encrypt(keys));
      out.println("created " + file + " (" + (protection.isNone() ? "plain JWKS, owner-only"
          : "encrypted with " + protection.describe() + ", owner-only") + ")");
      out.println("key " + kid + " (" + describe(alg) + ") signs from " + now);
      if (!alg.isEncrypting()) {
        out.println("note: " + alg.joseName() + " tokens are signed, not encrypted: anyone holding a copy of a"
            + " session cookie can read the session's content; configure the filter with algorithm "
            + alg.joseName() + " (the filter's default is dir, for which keyring init without --alg makes the key)");
      }
    }
    return KeyringCli.OK;
  }

  private static String describe(Algorithm alg) {
    return alg == Algorithm.DIR_A256GCM ? "dir, A256GCM encryption" : alg.joseName();
  }

  static String newKid(Algorithm alg, Instant now, KeySet existing) {
    String prefix = (alg == Algorithm.DIR_A256GCM ? "a256gcm" : alg.joseName().toLowerCase(Locale.ROOT))
        + "-" + KID_TIME.format(now) + "-";
    while (true) {
      byte[] b = new byte[4];
      RANDOM.nextBytes(b);
      String kid = prefix + HexFormat.of().formatHex(b);
      if (existing.key(kid).isEmpty()) {
        return kid;
      }
    }
  }
}
