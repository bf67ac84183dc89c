package dev.sessionless.servlet;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.keyring.Keyring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Reads {@code web.xml} / {@code FilterConfig} init parameters into a filter builder. Keys always
 * come through a {@link Keyring}, the same code (and the same kid rule) as {@code
 * Keyring.builder().jwksFile(...)}, {@code encryptedJwksFile(...)} and {@code environment(...)}.
 */
final class InitParams {
  private InitParams() {}

  /**
   * Applies the init parameters to {@code b}; the keyring it starts is returned (the caller
   * closes it), or closed here if a later parameter is refused.
   *
   * @param params init parameter look-up
   * @param env environment variable look-up
   * @throws IOException if the key file cannot be read
   * @throws IllegalArgumentException if a parameter is invalid
   * @throws IllegalStateException if a required parameter is missing
   */
  static Keyring apply(Function<String, String> params, Function<String, String> env,
      SessionlessFilter.Builder b, ClassLoader loader) throws IOException {
    Algorithm alg = Algorithm.HS256;
    String a = params.apply("algorithm");
    if (a != null) {
      alg = parseAlgorithm(a.trim());
      b.algorithm(alg);
    }
    String file = params.apply("keys.file");
    String var = params.apply("keys.env");
    if ((file == null) == (var == null)) {
      throw new IllegalStateException("set exactly one of the init parameters keys.file and keys.env");
    }
    String v;
    if ((v = params.apply("issuer")) != null) {
      b.issuer(v.trim());
    }
    if ((v = params.apply("audience")) != null) {
      b.audience(v.trim());
    }
    if ((v = params.apply("cookie.name")) != null) {
      b.cookieName(v.trim());
    }
    if ((v = params.apply("cookie.path")) != null) {
      b.cookiePath(v.trim());
    }
    if ((v = params.apply("cookie.domain")) != null) {
      b.cookieDomain(v.trim());
    }
    if ((v = params.apply("cookie.max-age")) != null) {
      b.cookieMaxAge(Duration.ofSeconds(number("cookie.max-age", v)));
    }
    if ((v = params.apply("cookie.same-site")) != null) {
      b.cookieSameSite(v.trim());
    }
    if ((v = params.apply("cookie.secure")) != null) {
      b.cookieSecure(bool("cookie.secure", v));
    }
    if ((v = params.apply("revocation")) != null) {
      if (!v.trim().equals("memory")) {
        throw new IllegalArgumentException("revocation must be memory (or use revocation.context-attribute for"
            + " a shared store), got '" + v.trim() + "'");
      }
      if (params.apply("revocation.context-attribute") != null) {
        throw new IllegalStateException("set at most one of the init parameters revocation and"
            + " revocation.context-attribute");
      }
      b.revocation(dev.sessionless.core.RevocationStore.inMemory(java.time.Clock.systemUTC()));
    }
    if ((v = params.apply("bad-attribute")) != null) {
      switch (v.trim()) {
        case "drop":
          b.onBadAttribute(SessionlessFilter.BadAttribute.DROP);
          break;
        case "new-session":
          b.onBadAttribute(SessionlessFilter.BadAttribute.NEW_SESSION);
          break;
        default:
          throw new IllegalArgumentException("bad-attribute must be drop or new-session, got '" + v + "'");
      }
    }
    if ((v = params.apply("cookie.max-chunks")) != null) {
      b.maxCookieChunks((int) number("cookie.max-chunks", v));
    }
    if ((v = params.apply("header")) != null) {
      b.header(v.trim());
    }
    if ((v = params.apply("max-inactive-interval")) != null) {
      b.maxInactiveInterval(Duration.ofSeconds(number("max-inactive-interval", v)));
    }
    if ((v = params.apply("absolute-lifetime")) != null) {
      b.absoluteLifetime(Duration.ofSeconds(number("absolute-lifetime", v)));
    }
    if ((v = params.apply("renewal-fraction")) != null) {
      try {
        b.renewalFraction(Double.parseDouble(v.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("renewal-fraction must be a number, got '" + v + "'", e);
      }
    }
    if ((v = params.apply("attribute-types")) != null) {
      for (String name : v.split(",")) {
        if (!name.isBlank()) {
          try {
            b.attributeTypes(Class.forName(name.trim(), false, loader));
          } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("attribute-types names class " + name.trim()
                + ", which cannot be found", e);
          }
        }
      }
    }
    Keyring keyring = keyring(params, env, file, var);
    try {
      if (!keyring.status().signingKeyIds().containsKey(alg)) {
        throw new IllegalStateException("the keys of " + (file != null ? "keys.file " + file.trim()
            : "keys.env " + var.trim()) + " hold no key that can sign " + alg.joseName() + " now (a bare"
            + " base64url secret becomes an HS256 key): set the algorithm parameter to the keys' algorithm,"
            + " or add a key for " + alg.joseName());
      }
      b.keys(keyring);
      return keyring;
    } catch (RuntimeException e) {
      keyring.close();
      throw e;
    }
  }

  /**
   * A live keyring over {@code keys.file} (re-read when it changes: key rotation, a Kubernetes
   * Secret update) or {@code keys.env} (read once), unlocked with the secret named by {@code
   * keys.password-env}, {@code keys.password-file}, {@code keys.kek-env} or {@code keys.kek-file}.
   */
  private static Keyring keyring(Function<String, String> params, Function<String, String> env,
      String file, String var) throws IOException {
    String passwordEnv = trimmed(params.apply("keys.password-env"));
    String passwordFile = trimmed(params.apply("keys.password-file"));
    String kekEnv = trimmed(params.apply("keys.kek-env"));
    String kekFile = trimmed(params.apply("keys.kek-file"));
    int secrets = (passwordEnv == null ? 0 : 1) + (passwordFile == null ? 0 : 1) + (kekEnv == null ? 0 : 1)
        + (kekFile == null ? 0 : 1);
    if (secrets > 1) {
      throw new IllegalStateException("set at most one of keys.password-env, keys.password-file, keys.kek-env"
          + " and keys.kek-file");
    }
    Keyring.Builder k = Keyring.builder().environmentReader(env);
    String v = params.apply("keys.file.poll-seconds");
    if (var != null) {
      if (v != null || passwordFile != null || kekEnv != null || kekFile != null) {
        throw new IllegalStateException("keys.env takes keys.password-env for an encrypted JWKS; keys.file.poll-seconds,"
            + " keys.password-file and keys.kek-* apply to keys.file");
      }
      String name = var.trim();
      String value = env.apply(name);
      if (value == null || value.isBlank()) {
        throw new IllegalStateException("environment variable " + name + " (keys.env) is not set");
      }
      if (passwordEnv != null) {
        k.environment(name, passwordEnv);
      } else {
        k.environment(name);
      }
      return k.build();
    }
    Path path = Path.of(file.trim());
    if (v != null) {
      long seconds = number("keys.file.poll-seconds", v);
      if (seconds < 1) {
        throw new IllegalArgumentException("keys.file.poll-seconds must be at least 1, got " + seconds);
      }
      k.filePollInterval(Duration.ofSeconds(seconds));
    }
    if (passwordEnv != null || passwordFile != null) {
      char[] password = passwordEnv != null ? required(env.apply(passwordEnv), "environment variable "
          + passwordEnv + " (keys.password-env)").toCharArray() : secretFile(passwordFile, "keys.password-file").toCharArray();
      try {
        k.encryptedJwksFile(path, password);
      } finally {
        Arrays.fill(password, '\0');
      }
    } else if (kekEnv != null || kekFile != null) {
      String text = kekEnv != null ? required(env.apply(kekEnv), "environment variable " + kekEnv + " (keys.kek-env)")
          : secretFile(kekFile, "keys.kek-file");
      byte[] kek = Base64Url.decodeOptionallyPadded(text.trim());
      if (kek == null) {
        throw new IllegalArgumentException((kekEnv != null ? "keys.kek-env" : "keys.kek-file")
            + " must hold a canonical base64url key-encryption key of 32 bytes");
      }
      try {
        k.encryptedJwksFile(path, kek);
      } finally {
        Arrays.fill(kek, (byte) 0);
      }
    } else {
      k.jwksFile(path);
    }
    return k.build();
  }

  private static String trimmed(String v) {
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static String required(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(what + " is not set");
    }
    return value;
  }

  /** A secret kept in a file, without one trailing line break (as the keyring CLI reads it). */
  private static String secretFile(String file, String param) throws IOException {
    String s = Files.readString(Path.of(file));
    if (s.endsWith("\n")) {
      s = s.substring(0, s.length() - (s.endsWith("\r\n") ? 2 : 1));
    }
    if (s.isEmpty()) {
      throw new IllegalStateException(param + " names an empty file: " + file);
    }
    return s;
  }

  private static Algorithm parseAlgorithm(String a) {
    for (Algorithm x : Algorithm.values()) {
      if (x.name().equalsIgnoreCase(a) || x.joseName().equalsIgnoreCase(a)) {
        return x;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + a + "'");
  }

  private static boolean bool(String param, String v) {
    switch (v.trim()) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(param + " must be true or false, got '" + v + "'");
    }
  }

  private static long number(String param, String v) {
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(param + " must be a whole number of seconds, got '" + v + "'", e);
    }
  }
}
