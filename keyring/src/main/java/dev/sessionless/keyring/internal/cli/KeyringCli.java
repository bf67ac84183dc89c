package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.Retirement;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code keyring} command-line tool: create, rotate, list, publish, encrypt and decrypt key
 * files, and sign revocation lists.
 *
 * <p>Exit status 0 on success, 1 when the work failed (missing file, wrong password, malformed
 * file), 2 for a command line it cannot act on. Every failure is one line on standard error,
 * without a stack trace and without key material. Files holding keys are written owner-only
 * ({@code rw-------}) from their creation, through a temporary file moved into place.
 */
public final class KeyringCli {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final Duration DEFAULT_ACTIVATE_IN = Duration.ofHours(24);
  static final Duration DEFAULT_MAX_TOKEN_LIFETIME = Duration.ofHours(24);
  static final Duration DEFAULT_GRACE = Duration.ofDays(7);

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final DateTimeFormatter KID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String SECRET_READ_FLAGS = "--password-env VAR | --password-file FILE | --kek-env VAR";

  private static final Map<String, String> HELP = new LinkedHashMap<>();

  static {
    HELP.put("init", String.join("\n",
        "Usage: keyring init --out FILE [--alg ALG] [--kid KID] [--force]",
        "                    [--encrypt (--password-env VAR | --password-file FILE | --kek-env VAR) [--iterations N]]",
        "",
        "Creates a key set with one new key that signs from now on. By default an A256GCM key (dir):",
        "session tokens are encrypted, so a copied cookie does not show the session's content.",
        "",
        "  --out FILE            the key file to create (owner-only, rw-------)",
        "  --alg ALG             dir (A256GCM encryption, the default), HS256, HS384, HS512, ES256 or EdDSA",
        "                        (signed only: anyone holding a token can read it; set the filter's",
        "                        algorithm to match)",
        "  --kid KID             the key ID; default: the algorithm, the time and a random suffix",
        "  --force               replace FILE if it exists (its keys are lost)",
        "  --encrypt             write an encrypted key file (compact JWE) instead of a plain JWKS",
        "  --password-env VAR    the password (12+ characters) is in environment variable VAR",
        "  --password-file FILE  the password is the content of FILE (one trailing newline dropped)",
        "  --kek-env VAR         a 32-byte key-encryption key, base64url, is in environment variable VAR",
        "  --iterations N        PBKDF2 iterations for a password (default 600000)"));
    HELP.put("rotate", String.join("\n",
        "Usage: keyring rotate --in FILE [--out FILE] [--activate-in DURATION] [--max-token-lifetime DURATION]",
        "                      [--grace DURATION] [--alg ALG] [--kid KID] [--refresh-interval DURATION] [--force]",
        "                      [" + SECRET_READ_FLAGS + "] [--encrypt] [--iterations N] [--max-iterations N]",
        "",
        "Adds a new key, published now, that starts signing --activate-in after the new file is in",
        "place (the time spent reading and writing does not count). The keys of the same algorithm",
        "that sign now (or would by then) retire at that instant and expire --max-token-lifetime",
        "later, so tokens they signed keep verifying until they lapse. Keys that expired more than",
        "--grace ago are dropped. Every node holding the file agrees on the signing key from the clock",
        "alone; publish the file to all nodes well within --activate-in. A lead shorter than",
        "2 x --refresh-interval + 5s is refused unless --force.",
        "",
        "  --in FILE                      the key file; rewritten in place unless --out is given",
        "  --out FILE                     where to write the result (owner-only)",
        "  --activate-in DURATION         when the new key starts signing, counted from the moment the",
        "                                 new file is in place (default 24h); e.g. 30m, 24h, 7d",
        "  --refresh-interval DURATION    how often the nodes re-read the file (default 5s, the keyring's",
        "                                 file poll); sets the minimum --activate-in",
        "  --force                        accept an --activate-in below that minimum",
        "  --max-token-lifetime DURATION  the longest lifetime of a token (default 24h)",
        "  --grace DURATION               how long expired keys are kept before being dropped (default 7d)",
        "  --alg ALG                      the new key's algorithm (default: that of the key signing now)",
        "  --kid KID                      the new key's ID",
        "  --password-env/--password-file/--kek-env   open an encrypted FILE; the result is encrypted the same way",
        "  --encrypt                      encrypt the result of a plain FILE with the given secret",
        "  --iterations N                 PBKDF2 iterations when writing with a password (default 600000)",
        "  --max-iterations N             the most PBKDF2 iterations accepted when reading (default 2000000)"));
    HELP.put("list", String.join("\n",
        "Usage: keyring list --in FILE [--max-token-lifetime DURATION] [" + SECRET_READ_FLAGS + "] [--max-iterations N]",
        "",
        "Lists the keys: kid, algorithm, status now, lifecycle instants (UTC) and when the key is safe",
        "to delete. Never prints key material.",
        "Status: SIGNING (signs now), PENDING (activates later), RETIRED (verifies only),",
        "EXPIRED (verifies nothing), PUBLIC (a public key: verifies only).",
        "SAFE-TO-DELETE: yes, the instant from which it is, or never (it never stops signing). A key is",
        "safe to delete once no token it signed can be accepted: its retirement (or expiry) plus",
        "--max-token-lifetime (default 24h, as for rotate) plus 10 minutes of clock skew, or its expiry.",
        "This is the lifecycle alone: the nodes' traffic is in Keyring.status() and the metric",
        "sessionless.keys.safe.to.delete."));
    HELP.put("delete", String.join("\n",
        "Usage: keyring delete --in FILE --kid KID [--out FILE] [--max-token-lifetime DURATION] [--force]",
        "                      [" + SECRET_READ_FLAGS + "] [--iterations N] [--max-iterations N]",
        "",
        "Removes the key KID. Refused unless it is safe to delete (see 'keyring list --help'): a token",
        "it signed could still be valid, and deleting the key would log that user out. --force",
        "deletes it anyway. Check the nodes' sessionless.keys.safe.to.delete metric first: it adds",
        "what the file cannot know, whether tokens under the key are still arriving.",
        "",
        "  --in FILE                      the key file; rewritten in place unless --out is given",
        "  --kid KID                      the key to remove",
        "  --out FILE                     where to write the result (owner-only)",
        "  --max-token-lifetime DURATION  the longest lifetime of a token (default 24h)",
        "  --force                        delete a key that is not yet safe to delete",
        "  --password-env/--password-file/--kek-env   open an encrypted FILE; the result is encrypted the same way"));
    HELP.put("public", String.join("\n",
        "Usage: keyring public --in FILE [--out FILE] [" + SECRET_READ_FLAGS + "] [--max-iterations N]",
        "",
        "Prints (or writes to --out, rw-r--r--) the public JWKS: the public part of every ES256 and",
        "EdDSA key that has not expired, pending keys included. Symmetric keys are never published."));
    HELP.put("encrypt", String.join("\n",
        "Usage: keyring encrypt --in FILE [--out FILE] (--password-env VAR | --password-file FILE | --kek-env VAR)",
        "                       [--iterations N]",
        "",
        "Encrypts a plain JWKS key file (PBES2-HS512+A256KW with a password, A256KW with a",
        "key-encryption key; A256GCM content). Rewrites FILE in place unless --out is given."));
    HELP.put("revocations", String.join("\n",
        "Usage: keyring revocations --in FILE --list LIST.json --out LIST.jwt --issuer ISS --audience AUD",
        "                           [--kid KID | --alg ALG] [--valid-for DURATION] [" + SECRET_READ_FLAGS + "]",
        "",
        "Signs a revocation list for nodes reading it with PublishedRevocations (the way to revoke",
        "sessions without Redis). LIST.json holds revoked sessions and subjects logged out everywhere,",
        "instants in ISO-8601 UTC:",
        "  {\"sessions\": {\"<session id>\": \"<until>\"},",
        "   \"subjects\": {\"<subject>\": {\"notBefore\": \"<instant>\", \"until\": \"<instant>\"}}}",
        "Entries whose until has passed are left out. The signed list (token type sl-revocations+jwt)",
        "is valid for --valid-for: run this again (from cron, say) well before it expires.",
        "",
        "  --in FILE             the key file holding the signing key",
        "  --list LIST.json      the revocations to publish",
        "  --out LIST.jwt        where to write the signed list (rw-r--r--)",
        "  --issuer ISS          the issuer the nodes expect (their PublishedRevocations issuer)",
        "  --audience AUD        the audience the nodes expect",
        "  --kid KID             sign with this key (it must sign now); default: the key signing now",
        "  --alg ALG             sign with the key of this algorithm signing now (when several sign)",
        "  --valid-for DURATION  how long the list may be used (default 5m, whole seconds)"));
    HELP.put("decrypt", String.join("\n",
        "Usage: keyring decrypt --in FILE --out FILE (--password-env VAR | --password-file FILE | --kek-env VAR)",
        "                       [--max-iterations N]",
        "",
        "Decrypts an encrypted key file into a PLAIN JWKS holding every secret, written owner-only to",
        "the --out FILE you name (required). Delete it when you are done."));
  }

  private static final String MAIN_HELP = String.join("\n",
      "Usage: keyring COMMAND [OPTIONS]",
      "",
      "Manages Sessionless key files: plain JWKS or encrypted (compact JWE).",
      "",
      "Commands:",
      "  init      create a key set with one signing key",
      "  rotate    add a key that signs after a delay, retire the current one",
      "  list      show kids, algorithms, status, lifecycle and safe-to-delete (no secrets)",
      "  delete    remove a key, refused while a token it signed could still be valid",
      "  public    print the public JWKS of ES256/EdDSA keys",
      "  encrypt   encrypt a key file with a password or a key-encryption key",
      "  decrypt   decrypt a key file to a plain JWKS",
      "  revocations  sign a revocation list for PublishedRevocations readers",
      "",
      "Run 'keyring COMMAND --help' for a command's options.",
      "Exit status: 0 success, 1 failure, 2 usage error.");

  private KeyringCli() {}

  /**
   * Runs the tool and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    int status = run(args, System.out, System.err, System.getenv(), Clock.systemUTC());
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /**
   * Runs one command in-process.
   *
   * @param args the command line, without the program name
   * @param out where results go
   * @param err where the one-line error (and notices) go
   * @param env the environment variables {@code --password-env} and {@code --kek-env} read
   * @param clock the time that decides key status and lifecycles
   * @return the exit status: 0 success, 1 failure, 2 usage error
   */
  public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env, Clock clock) {
    Objects.requireNonNull(args, "args");
    String command = args.length == 0 ? null : args[0];
    try {
      if (command == null) {
        throw new UsageException("no command given");
      }
      if (command.equals("--help") || command.equals("-h") || command.equals("help")) {
        out.println(MAIN_HELP);
        return OK;
      }
      if (!HELP.containsKey(command)) {
        command = null;
        throw new UsageException("unknown command '" + printable(args[0]) + "'");
      }
      Options o = Options.parse(command, args);
      if (o.help) {
        out.println(HELP.get(command));
        return OK;
      }
      Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
      switch (command) {
        case "init":
          return init(o, out, env, now);
        case "rotate":
          return Rotate.run(o, out, err, env, clock, now);
        case "list":
          return list(o, out, err, env, now);
        case "delete":
          return Delete.run(o, out, err, env, now);
        case "public":
          return publicJwks(o, out, err, env, now);
        case "encrypt":
          return encrypt(o, out, env);
        case "revocations":
          return Revocations.run(o, out, err, env, clock, now);
        default:
          return decrypt(o, out, err, env);
      }
    } catch (UsageException e) {
      String hint = command == null ? "keyring --help" : "keyring " + command + " --help";
      err.println("keyring: " + oneLine(e.getMessage()) + " (see '" + hint + "')");
      return USAGE;
    } catch (KeyringException e) {
      err.println("keyring: error: " + oneLine(e.getMessage()));
      return FAILED;
    } catch (RuntimeException e) {
      // Unexpected: name it, print no stack trace and no message that might hold content.
      err.println("keyring: internal error: " + e.getClass().getName());
      return FAILED;
    }
  }

  // ---- commands -----------------------------------------------------------------------------

  private static int init(Options o, PrintStream out, Map<String, String> env, Instant now) {
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
    return OK;
  }

  private static int list(Options o, PrintStream out, PrintStream err, Map<String, String> env, Instant now) {
    Path in = o.requirePath("--in");
    try (Protection protection = o.readProtection(env)) {
      Loaded loaded = KeyFiles.read(in, protection);
      warnIfExposed(in, loaded, err);
      KeySet keys = loaded.keys;
      Map<Algorithm, TokenKey> signing = new HashMap<>();
      for (Algorithm a : Algorithm.values()) {
        keys.signingKey(a, now).ifPresent(k -> signing.put(a, k));
      }
      int kidWidth = Math.max(3, keys.keys().stream().mapToInt(k -> k.kid().length()).max().orElse(3));
      Duration maxLifetime = o.duration("--max-token-lifetime").orElse(DEFAULT_MAX_TOKEN_LIFETIME);
      String format = "%-" + kidWidth + "s  %-5s  %-7s  %-20s  %-20s  %-20s  %-20s  %s%n";
      out.printf(Locale.ROOT, "%s: %d key(s)%s, status at %s%n", in, keys.keys().size(),
          loaded.encrypted ? ", encrypted" : "", now);
      out.printf(Locale.ROOT, format, "KID", "ALG", "STATUS", "PUBLISHED", "ACTIVATES", "RETIRES", "EXPIRES",
          "SAFE-TO-DELETE");
      List<TokenKey> sorted = new ArrayList<>(keys.keys());
      sorted.sort(Comparator.comparing((TokenKey k) -> k.activates().orElse(Instant.MIN)).thenComparing(TokenKey::kid));
      for (TokenKey k : sorted) {
        out.printf(Locale.ROOT, format, k.kid(), k.algorithm().joseName(), status(k, signing, now),
            show(k.published()), show(k.activates()), show(k.retires()), show(k.expires()),
            safeToDelete(k, maxLifetime, now));
      }
    }
    return OK;
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

  private static int publicJwks(Options o, PrintStream out, PrintStream err, Map<String, String> env, Instant now) {
    Path in = o.requirePath("--in");
    try (Protection protection = o.readProtection(env)) {
      Loaded loaded = KeyFiles.read(in, protection);
      List<TokenKey> published = new ArrayList<>();
      for (TokenKey k : loaded.keys.keys()) {
        if (!k.algorithm().isSymmetric() && k.verifiesAt(now)) {
          published.add(k.publicOnly());
        }
      }
      if (published.isEmpty()) {
        err.println("keyring: note: " + in + " holds no unexpired ES256 or EdDSA key; the public JWKS is empty");
      }
      String jwks = KeySet.of(published).toPublicJwks();
      Optional<Path> target = o.path("--out");
      if (target.isPresent()) {
        KeyFiles.writePublic(target.get(), jwks + "\n");
        out.println("wrote " + published.size() + " public key(s) to " + target.get());
      } else {
        out.println(jwks);
      }
    }
    return OK;
  }

  private static int encrypt(Options o, PrintStream out, Map<String, String> env) {
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElse(in);
    try (Protection protection = o.writeProtection(env, false)) {
      if (protection.isNone()) {
        throw new UsageException("encrypt needs one of --password-env, --password-file or --kek-env");
      }
      Loaded loaded = KeyFiles.read(in, Protection.none());
      if (loaded.encrypted) {
        throw new KeyringException(Reason.CONFIGURATION, in + " is already encrypted");
      }
      KeyFiles.writeSecret(target, protection.encrypt(loaded.keys));
      out.println("wrote " + target + " (encrypted with " + protection.describe() + ", owner-only)");
    }
    return OK;
  }

  private static int decrypt(Options o, PrintStream out, PrintStream err, Map<String, String> env) {
    Path in = o.requirePath("--in");
    Path target = o.path("--out").orElseThrow(() -> new UsageException(
        "decrypt writes plain secrets only to a file you name: give --out FILE"));
    try (Protection protection = o.readProtection(env)) {
      if (protection.isNone()) {
        throw new UsageException("decrypt needs one of --password-env, --password-file or --kek-env");
      }
      Loaded loaded = KeyFiles.read(in, protection);
      if (!loaded.encrypted) {
        throw new KeyringException(Reason.CONFIGURATION, in + " is not encrypted");
      }
      KeyFiles.writeSecret(target, loaded.keys.toJwksWithSecrets());
      out.println("wrote " + target + " (owner-only)");
      err.println("keyring: warning: " + target + " holds every key in PLAIN text; delete it when done");
    }
    return OK;
  }

  // ---- helpers ------------------------------------------------------------------------------

  static void warnIfExposed(Path in, Loaded loaded, PrintStream err) {
    if (!loaded.encrypted && KeyFiles.readableByOthers(in)) {
      err.println("keyring: warning: " + in + " holds plain keys and is readable by others; chmod 600 it");
    }
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

  /**
   * What {@code init} makes without {@code --alg}: an A256GCM key for {@code dir}, the filter's
   * default algorithm, whose tokens hide the session's content.
   */
  static final Algorithm DEFAULT_ALGORITHM = Algorithm.DIR_A256GCM;

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

  private static String show(Optional<Instant> i) {
    return i.map(Instant::toString).orElse("-");
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replace('\r', ' ').replace('\n', ' ');
  }

  static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < 60; i++) {
      char c = s.charAt(i);
      sb.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return sb.toString();
  }

  // ---- options ------------------------------------------------------------------------------

  /** The flags of one command, checked against those the command accepts. */
  static final class Options {
    private static final Set<String> BOOLEAN = Set.of("--help", "-h", "--encrypt", "--force");
    private static final Set<String> READ_SECRET = Set.of("--password-env", "--password-file", "--kek-env", "--max-iterations");
    private static final Map<String, Set<String>> ALLOWED = Map.of(
        "init", Set.of("--out", "--alg", "--kid", "--force", "--encrypt", "--password-env", "--password-file",
            "--kek-env", "--iterations"),
        "rotate", Set.of("--in", "--out", "--activate-in", "--max-token-lifetime", "--grace", "--alg", "--kid",
            "--password-env", "--password-file", "--kek-env", "--encrypt", "--iterations", "--max-iterations",
            "--refresh-interval", "--force"),
        "list", Set.of("--max-token-lifetime"),
        "delete", Set.of("--out", "--kid", "--max-token-lifetime", "--force", "--iterations"),
        "public", Set.of("--out"),
        "encrypt", Set.of("--out", "--password-env", "--password-file", "--kek-env", "--iterations"),
        "decrypt", Set.of("--out", "--password-env", "--password-file", "--kek-env", "--max-iterations"),
        "revocations", Set.of("--list", "--out", "--issuer", "--audience", "--kid", "--alg", "--valid-for"));

    final String command;
    final boolean help;
    private final Map<String, String> values = new HashMap<>();

    private Options(String command, boolean help) {
      this.command = command;
      this.help = help;
    }

    static Options parse(String command, String[] args) {
      boolean help = false;
      for (int i = 1; i < args.length; i++) {
        if (args[i].equals("--help") || args[i].equals("-h")) {
          help = true;
        }
      }
      Options o = new Options(command, help);
      if (help) {
        return o;
      }
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        String name = arg;
        String value = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          name = arg.substring(0, eq);
          value = arg.substring(eq + 1);
        }
        if (!name.startsWith("-")) {
          throw new UsageException("unexpected argument '" + printable(arg) + "'");
        }
        if (!accepts(command, name)) {
          throw new UsageException("unknown option " + printable(name) + " for " + command);
        }
        if (o.values.containsKey(name)) {
          throw new UsageException(name + " is given twice");
        }
        if (BOOLEAN.contains(name)) {
          if (value != null) {
            throw new UsageException(name + " takes no value");
          }
          value = "";
        } else if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException(name + " needs a value");
          }
          value = args[++i];
          if (value.startsWith("--")) {
            throw new UsageException(name + " needs a value, not the option " + printable(value));
          }
        }
        if (!BOOLEAN.contains(name) && value.isEmpty()) {
          throw new UsageException(name + " needs a non-empty value");
        }
        o.values.put(name, value);
      }
      return o;
    }

    private static boolean accepts(String command, String name) {
      if (name.equals("--in") && !command.equals("init")) {
        return true;
      }
      return ALLOWED.get(command).contains(name)
          || (!command.equals("init") && !command.equals("encrypt") && READ_SECRET.contains(name));
    }

    boolean has(String name) {
      return values.containsKey(name);
    }

    Optional<Path> path(String name) {
      return Optional.ofNullable(values.get(name)).map(Path::of);
    }

    Path requirePath(String name) {
      return path(name).orElseThrow(() -> new UsageException(command + " needs " + name + " FILE"));
    }

    String require(String name) {
      String v = values.get(name);
      if (v == null || v.isEmpty()) {
        throw new UsageException(command + " needs " + name + " VALUE");
      }
      return v;
    }

    Optional<Duration> duration(String name) {
      return Optional.ofNullable(values.get(name)).map(v -> Durations.parse(name, v));
    }

    Optional<Algorithm> algorithm() {
      String v = values.get("--alg");
      if (v == null) {
        return Optional.empty();
      }
      for (Algorithm a : Algorithm.values()) {
        if (a.joseName().equalsIgnoreCase(v)) {
          return Optional.of(a);
        }
      }
      if (v.equalsIgnoreCase("A256GCM")) {
        return Optional.of(Algorithm.DIR_A256GCM); // the key's name for what dir uses
      }
      throw new UsageException("--alg takes HS256, HS384, HS512, ES256, EdDSA or dir, not '" + printable(v) + "'");
    }

    Optional<String> kid() {
      String v = values.get("--kid");
      if (v != null) {
        try {
          TokenKey.generate(v, Algorithm.HS256);
        } catch (IllegalArgumentException e) {
          throw new UsageException("--kid: " + e.getMessage());
        }
      }
      return Optional.ofNullable(v);
    }

    private int intValue(String name, int dflt) {
      String v = values.get(name);
      if (v == null) {
        return dflt;
      }
      try {
        return Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new UsageException(name + " takes a whole number, not '" + printable(v) + "'");
      }
    }

    /** The secret to write with; {@code --encrypt} must accompany it when {@code needsEncryptFlag}. */
    Protection writeProtection(Map<String, String> env, boolean needsEncryptFlag) {
      Protection p = secret(env);
      if (needsEncryptFlag) {
        if (has("--encrypt") && p.isNone()) {
          throw new UsageException("--encrypt needs one of --password-env, --password-file or --kek-env");
        }
        if (!has("--encrypt") && !p.isNone()) {
          p.close();
          throw new UsageException(p.source() + " is only used with --encrypt");
        }
      }
      return p;
    }

    /** The secret to open (and, for rotate, rewrite) an encrypted file with; may be none. */
    Protection readProtection(Map<String, String> env) {
      Protection p = secret(env);
      if (has("--encrypt") && p.isNone()) {
        throw new UsageException("--encrypt needs one of --password-env, --password-file or --kek-env");
      }
      return p;
    }

    private Protection secret(Map<String, String> env) {
      List<String> given = new ArrayList<>();
      for (String s : new String[] {"--password-env", "--password-file", "--kek-env"}) {
        if (has(s)) {
          given.add(s);
        }
      }
      if (given.size() > 1) {
        throw new UsageException("give only one of " + String.join(", ", given));
      }
      int iterations = intValue("--iterations", EncryptedJwks.DEFAULT_ITERATIONS);
      int maxIterations = intValue("--max-iterations", EncryptedJwks.DEFAULT_MAX_ITERATIONS);
      if (maxIterations < EncryptedJwks.MIN_ITERATIONS || maxIterations > EncryptedJwks.MAX_WRITE_ITERATIONS) {
        throw new UsageException("--max-iterations must be in " + EncryptedJwks.MIN_ITERATIONS + ".."
            + EncryptedJwks.MAX_WRITE_ITERATIONS);
      }
      if (has("--iterations") && (iterations < EncryptedJwks.MIN_WRITE_ITERATIONS
          || iterations > EncryptedJwks.MAX_WRITE_ITERATIONS)) {
        throw new UsageException("--iterations must be in " + EncryptedJwks.MIN_WRITE_ITERATIONS + ".."
            + EncryptedJwks.MAX_WRITE_ITERATIONS);
      }
      if (given.isEmpty()) {
        if (has("--iterations")) {
          throw new UsageException("--iterations applies to password encryption only");
        }
        return Protection.none();
      }
      String flag = given.get(0);
      String value = values.get(flag);
      if (flag.equals("--kek-env")) {
        if (has("--iterations")) {
          throw new UsageException("--iterations applies to password encryption only");
        }
        return Protection.kek(KeyFiles.kekFromEnv(env, value), flag);
      }
      char[] password = flag.equals("--password-env")
          ? KeyFiles.passwordFromEnv(env, value) : KeyFiles.readPassword(Path.of(value));
      return Protection.password(password, iterations, maxIterations, flag);
    }
  }
}
