package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.internal.cli.KeyFiles.Protection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The flags of one command, checked against those the command accepts. */
final class Options {
  private static final Set<String> BOOLEAN = Set.of("--help", "-h", "--encrypt", "--force");
  private static final Set<String> READ_SECRET = Set.of("--password-env", "--password-file", "--kek-env", "--max-iterations");
  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "init", Set.of("--out", "--alg", "--kid", "--force", "--encrypt", "--password-env", "--password-file",
          "--kek-env", "--iterations"),
      "rotate", Set.of("--in", "--out", "--activate-in", "--max-token-lifetime", "--grace", "--alg", "--kid",
          "--password-env", "--password-file", "--kek-env", "--encrypt", "--iterations", "--max-iterations",
          "--refresh-interval", "--jwks-url", "--jwks-max-age", "--force"),
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
        throw new UsageException("unexpected argument '" + KeyringCli.printable(arg) + "'");
      }
      if (!accepts(command, name)) {
        throw new UsageException("unknown option " + KeyringCli.printable(name) + " for " + command);
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
          throw new UsageException(name + " needs a value, not the option " + KeyringCli.printable(value));
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
    throw new UsageException("--alg takes HS256, HS384, HS512, ES256, EdDSA or dir, not '" + KeyringCli.printable(v) + "'");
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
      throw new UsageException(name + " takes a whole number, not '" + KeyringCli.printable(v) + "'");
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
