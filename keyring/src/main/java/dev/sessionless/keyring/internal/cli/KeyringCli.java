package dev.sessionless.keyring.internal.cli;

import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.internal.cli.KeyFiles.Loaded;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

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
        "                      [--grace DURATION] [--alg ALG] [--kid KID] [--refresh-interval DURATION]",
        "                      [--jwks-url URL | --jwks-max-age DURATION] [--force]",
        "                      [" + SECRET_READ_FLAGS + "] [--encrypt] [--iterations N] [--max-iterations N]",
        "",
        "Adds a new key, published now, that starts signing --activate-in after the new file is in",
        "place (the time spent reading and writing does not count). The keys of the same algorithm",
        "that sign now (or would by then) retire at that instant and expire --max-token-lifetime",
        "later, so tokens they signed keep verifying until they lapse. Keys that expired more than",
        "--grace ago are dropped. Every node holding the file agrees on the signing key from the clock",
        "alone; publish the file to all nodes well within --activate-in. A lead shorter than",
        "2 x --refresh-interval + 5s is refused unless --force; for ES256 and EdDSA keys, whose public",
        "keys verifiers fetch over HTTP, the JWKS max-age comes on top (5m assumed unless given).",
        "",
        "  --in FILE                      the key file; rewritten in place unless --out is given",
        "  --out FILE                     where to write the result (owner-only)",
        "  --activate-in DURATION         when the new key starts signing, counted from the moment the",
        "                                 new file is in place (default 24h); e.g. 30m, 24h, 7d",
        "  --refresh-interval DURATION    how often the nodes re-read the file (default 5s, the keyring's",
        "                                 file poll); sets the minimum --activate-in",
        "  --jwks-url URL                 the live JWKS endpoint publishing these keys: its Cache-Control",
        "                                 max-age (read with one GET) adds to the minimum --activate-in",
        "  --jwks-max-age DURATION        that max-age, given instead of fetched (default 5m, the",
        "                                 JwksServlet and Boot default); ES256 and EdDSA keys only",
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
          return Init.run(o, out, env, now);
        case "rotate":
          return Rotate.run(o, out, err, env, clock, now);
        case "list":
          return ListKeys.run(o, out, err, env, now);
        case "delete":
          return Delete.run(o, out, err, env, now);
        case "public":
          return PublicJwks.run(o, out, err, env, now);
        case "encrypt":
          return Encrypt.run(o, out, env);
        case "revocations":
          return Revocations.run(o, out, err, env, clock, now);
        default:
          return Decrypt.run(o, out, err, env);
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

  // ---- helpers shared by the commands ------------------------------------------------------

  static void warnIfExposed(Path in, Loaded loaded, PrintStream err) {
    if (!loaded.encrypted() && KeyFiles.readableByOthers(in)) {
      err.println("keyring: warning: " + in + " holds plain keys and is readable by others; chmod 600 it");
    }
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
}
