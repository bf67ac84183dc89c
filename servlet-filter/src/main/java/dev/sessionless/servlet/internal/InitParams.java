package dev.sessionless.servlet.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Function;

/** Reads {@code web.xml} / {@code FilterConfig} init parameters into a filter builder. */
public final class InitParams {
  private InitParams() {}

  /**
   * Applies the init parameters to {@code b}.
   *
   * @param params init parameter look-up
   * @param env environment variable look-up
   * @throws IOException if the key file cannot be read
   * @throws IllegalArgumentException if a parameter is invalid
   * @throws IllegalStateException if a required parameter is missing
   */
  public static Keyring apply(Function<String, String> params, Function<String, String> env,
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
    if (file == null) {
      String value = env.apply(var.trim());
      if (value == null || value.isBlank()) {
        throw new IllegalStateException("environment variable " + var.trim() + " (keys.env) is not set");
      }
      b.keys(keysFromEnv(value.trim(), alg, var.trim()));
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
    if (file == null) {
      return null;
    }
    // keys.file is a live keyring: the file is re-read when it changes (key rotation, a
    // Kubernetes Secret update); the filter's destroy() stops its thread.
    Keyring.Builder k = Keyring.builder().jwksFile(Path.of(file.trim()));
    if ((v = params.apply("keys.file.poll-seconds")) != null) {
      long seconds = number("keys.file.poll-seconds", v);
      if (seconds < 1) {
        throw new IllegalArgumentException("keys.file.poll-seconds must be at least 1, got " + seconds);
      }
      k.filePollInterval(Duration.ofSeconds(seconds));
    }
    Keyring keyring = k.build();
    b.keys(keyring);
    return keyring;
  }

  /** A JWKS (starting with '{') or a base64url secret, given the kid "env". */
  static KeySet keysFromEnv(String value, Algorithm alg, String var) {
    if (value.startsWith("{")) {
      return KeySet.fromJwks(value);
    }
    byte[] secret;
    try {
      secret = Base64.getUrlDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("environment variable " + var
          + " holds neither a JWKS nor a base64url secret");
    }
    return KeySet.of(TokenKey.secret("env", alg, secret));
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
