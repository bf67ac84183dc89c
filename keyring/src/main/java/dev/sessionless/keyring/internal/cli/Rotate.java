package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code keyring rotate}: adds a key that signs after a lead time and retires the keys signing
 * now at that instant.
 *
 * <p><b>The lead counts from the moment the new file is in place.</b> Nodes can only pick the
 * new key up once the file is there, but the file must already name the instant the key
 * activates, and reading and writing an encrypted file costs PBKDF2 twice (seconds, under load).
 * So the activation is set from "now, just before writing" plus an estimate of the write (twice
 * what reading took: writing re-encrypts with the same cost) plus the lead, rounded up to a whole
 * second. After the atomic move the clock is read again: if the lead left is shorter than asked
 * (the write stalled beyond the estimate), the file is rewritten with the <em>same</em> new key
 * and a later activation (its estimate now twice what the last write took, plus a second), up to
 * {@link #ATTEMPTS} times; then the command fails and says so. A rewrite is always safe: a node
 * that read the earlier file holds the same key material under the same kid, only with an
 * earlier activation, and it reads the later file within its refresh interval.
 *
 * <p><b>A safe minimum lead.</b> Without {@code --force}, a lead shorter than {@link SafeLead}
 * allows is refused: the nodes' file refresh interval and, for published keys, the JWKS max-age.
 */
final class Rotate {
  /** Writes tried before giving up on a lead eaten by slow writes. */
  static final int ATTEMPTS = 3;

  private Rotate() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env, Clock clock,
      Instant now) {
    Instant started = clock.instant();
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElse(in);
    Duration activateIn = o.duration("--activate-in").orElse(KeyringCli.DEFAULT_ACTIVATE_IN);
    Duration maxLifetime = o.duration("--max-token-lifetime").orElse(KeyringCli.DEFAULT_MAX_TOKEN_LIFETIME);
    Duration grace = o.duration("--grace").orElse(KeyringCli.DEFAULT_GRACE);
    try (Protection protection = o.readProtection(env)) {
      Loaded loaded = KeyFiles.read(in, protection);
      Duration readTook = nonNegative(Duration.between(started, clock.instant()));
      if (!loaded.encrypted() && !protection.isNone() && !o.has("--encrypt")) {
        throw new UsageException(in + " is not encrypted: add --encrypt to encrypt the result with "
            + protection.describe() + ", or leave out " + protection.source());
      }
      KeyringCli.warnIfExposed(in, loaded, err);
      KeySet keys = loaded.keys();
      Algorithm alg = o.algorithm().orElseGet(() -> currentAlgorithm(keys, now));
      checkLead(activateIn, SafeLead.of(o, alg, keys, now, err), o.has("--force"), err);
      String kid = o.kid().orElseGet(() -> Init.newKid(alg, now, keys));
      if (keys.key(kid).isPresent()) {
        throw new KeyringException(Reason.CONFIGURATION, "the kid " + kid + " is already in " + in);
      }
      TokenKey fresh = TokenKey.generate(kid, alg); // one key for every attempt: rewrites stay safe
      boolean encrypt = loaded.encrypted() || o.has("--encrypt");
      Duration estimate = readTook.multipliedBy(2);
      for (int attempt = 1; ; attempt++) {
        Instant before = clock.instant();
        Instant activation = ceilToSecond(before.plus(estimate).plus(activateIn));
        List<String> report = new ArrayList<>();
        KeySet next = plan(keys, fresh, now, activation, maxLifetime, grace, alg, report);
        KeyFiles.writeSecret(target, encrypt ? protection.encrypt(next) : next.toJwksWithSecrets());
        Instant placed = clock.instant();
        Duration lead = Duration.between(placed, activation);
        if (lead.compareTo(activateIn) >= 0) {
          out.println("added " + kid + " (" + alg.joseName() + "), published " + now + ", signs from " + activation
              + " (" + Durations.show(lead) + " after the file was in place at " + placed.truncatedTo(ChronoUnit.SECONDS) + ")");
          report.forEach(out::println);
          out.println("wrote " + target + (encrypt ? " (encrypted, owner-only)" : " (owner-only)"));
          return KeyringCli.OK;
        }
        Duration took = nonNegative(Duration.between(before, placed));
        if (attempt == ATTEMPTS) {
          throw new KeyringException(Reason.UNAVAILABLE, "writing " + target + " took " + Durations.show(took) + ", so the new key "
              + kid + " in it signs only " + Durations.show(lead) + " after the file was in place, less than --activate-in "
              + Durations.show(activateIn) + ", after " + ATTEMPTS + " attempts. Run rotate again on " + target
              + " once the machine is less busy, or give a longer --activate-in");
        }
        err.println("keyring: note: writing took " + Durations.show(took) + ", longer than estimated, leaving only " + Durations.show(lead)
            + " of lead; rewriting " + target + " with the same key activating later");
        estimate = took.multipliedBy(2).plusSeconds(1);
      }
    }
  }

  /** Refuses a lead below the safe minimum, or with {@code --force} warns of it. */
  private static void checkLead(Duration activateIn, SafeLead safe, boolean force, PrintStream err) {
    if (activateIn.compareTo(safe.minimum) >= 0) {
      return;
    }
    if (!force) {
      throw new UsageException("--activate-in " + Durations.show(activateIn) + " is shorter than the safe minimum of "
          + Durations.show(safe.minimum) + " (" + safe.why + "): a node that has not got the new key when it "
          + "activates rejects the tokens it signs. Give --activate-in " + Durations.show(safe.minimum)
          + " or more, the nodes' real --refresh-interval (and --jwks-max-age or --jwks-url), or --force");
    }
    err.println("keyring: warning: --activate-in " + Durations.show(activateIn) + " is below the safe minimum of "
        + Durations.show(safe.minimum) + " (--force): nodes that have not got the new key in time reject its tokens");
  }

  /** The rotated key set: expired keys past grace dropped, keys signing by then retired at {@code activation}. */
  private static KeySet plan(KeySet keys, TokenKey fresh, Instant now, Instant activation, Duration maxLifetime,
      Duration grace, Algorithm alg, List<String> report) {
    Instant expiry = activation.plus(maxLifetime);
    KeySet next = KeySet.empty();
    for (TokenKey k : keys.keys()) {
      Optional<Instant> expires = k.expires();
      if (expires.isPresent() && expires.get().plus(grace).isBefore(now)) {
        report.add("dropped " + k.kid() + " (expired " + expires.get() + ")");
        continue;
      }
      TokenKey kept = k;
      boolean signsBefore = k.canSign() && k.algorithm() == alg && k.verifiesAt(now)
          && k.activates().map(a -> a.isBefore(activation)).orElse(true)
          && k.retires().map(r -> r.isAfter(activation)).orElse(true);
      if (signsBefore) {
        Instant e = expires.filter(x -> x.isBefore(expiry)).orElse(expiry);
        Instant r = e.isBefore(activation) ? e : activation;
        kept = k.withLifecycle(k.published().orElse(null), k.activates().orElse(null), r, e);
        report.add("retiring " + k.kid() + " at " + r + ", expires " + e);
      }
      next = next.with(kept);
    }
    return next.with(fresh.withLifecycle(now, activation, null, null));
  }

  private static Instant ceilToSecond(Instant i) {
    Instant down = i.truncatedTo(ChronoUnit.SECONDS);
    return down.equals(i) ? i : down.plusSeconds(1);
  }

  private static Duration nonNegative(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  /** The algorithm of the key signing now (the latest activated, if several), else HS256. */
  static Algorithm currentAlgorithm(KeySet keys, Instant now) {
    TokenKey best = null;
    for (Algorithm a : Algorithm.values()) {
      TokenKey k = keys.signingKey(a, now).orElse(null);
      if (k != null && (best == null
          || k.activates().orElse(Instant.MIN).isAfter(best.activates().orElse(Instant.MIN)))) {
        best = k;
      }
    }
    if (best != null) {
      return best.algorithm();
    }
    return keys.keys().stream().filter(TokenKey::canSign).reduce((a, b) -> b)
        .map(TokenKey::algorithm).orElse(Algorithm.HS256);
  }
}
