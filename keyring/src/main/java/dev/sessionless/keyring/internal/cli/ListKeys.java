package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.internal.Retirement;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code keyring list}: one line per key with its status, lifecycle and whether it is safe to
 * delete; never a secret.
 */
final class ListKeys {
  private ListKeys() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env, Instant now) {
    Loaded loaded = KeyFiles.readIn(o, env, err);
    KeySet keys = loaded.keys();
    Map<Algorithm, TokenKey> signing = new HashMap<>();
    for (Algorithm a : Algorithm.values()) {
      keys.signingKey(a, now).ifPresent(k -> signing.put(a, k));
    }
    int kidWidth = Math.max(3, keys.keys().stream().mapToInt(k -> k.kid().length()).max().orElse(3));
    Duration maxLifetime = o.duration("--max-token-lifetime").orElse(KeyringCli.DEFAULT_MAX_TOKEN_LIFETIME);
    String format = "%-" + kidWidth + "s  %-5s  %-7s  %-20s  %-20s  %-20s  %-20s  %s%n";
    out.printf(Locale.ROOT, "%s: %d key(s)%s, status at %s%n", o.requirePath("--in"), keys.keys().size(),
        loaded.encrypted() ? ", encrypted" : "", now);
    out.printf(Locale.ROOT, format, "KID", "ALG", "STATUS", "PUBLISHED", "ACTIVATES", "RETIRES", "EXPIRES",
        "SAFE-TO-DELETE");
    List<TokenKey> sorted = new ArrayList<>(keys.keys());
    sorted.sort(Comparator.comparing((TokenKey k) -> k.activates().orElse(Instant.MIN)).thenComparing(TokenKey::kid));
    for (TokenKey k : sorted) {
      out.printf(Locale.ROOT, format, k.kid(), k.algorithm().joseName(), status(k, signing, now),
          show(k.published()), show(k.activates()), show(k.retires()), show(k.expires()),
          safeToDelete(k, maxLifetime, now));
    }
    return KeyringCli.OK;
  }

  /** The SAFE-TO-DELETE column: {@code yes}, the instant from which it is, or {@code never}. */
  static String safeToDelete(TokenKey k, Duration maxLifetime, Instant now) {
    Optional<Instant> from = Retirement.safeToDeleteFrom(k, maxLifetime);
    if (from.isEmpty()) {
      return "never";
    }
    return now.isBefore(from.get()) ? from.get().toString() : "yes";
  }

  static String status(TokenKey k, Map<Algorithm, TokenKey> signing, Instant now) {
    if (!k.verifiesAt(now)) {
      return "EXPIRED";
    }
    if (signing.get(k.algorithm()) == k) {
      return "SIGNING";
    }
    if (!k.canSign()) {
      return "PUBLIC";
    }
    if (k.activates().map(now::isBefore).orElse(false)) {
      return "PENDING";
    }
    return "RETIRED";
  }

  private static String show(Optional<Instant> i) {
    return i.map(Instant::toString).orElse("-");
  }
}
