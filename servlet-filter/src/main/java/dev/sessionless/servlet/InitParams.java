package dev.sessionless.servlet;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.KeyIds;
import dev.sessionless.session.internal.SettingsRules;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Reads {@code web.xml} / {@code FilterConfig} init parameters into a filter builder. With {@code
 * sessionless-keyring} on the class path, keys come through a {@code Keyring} ({@link
 * KeyringParams}), the same code as {@code Keyring.builder().jwksFile(...)}, {@code
 * encryptedJwksFile(...)} and {@code environment(...)}; without it, {@code keys.env} is read here,
 * with the keyring's kid rule for a bare secret. This class never touches a keyring type, so it
 * loads without that jar.
 */
final class InitParams {
  /** Shortest secret accepted from a bare base64url value, in bytes (as the keyring's). */
  private static final int MIN_SECRET_BYTES = 32;

  private InitParams() {}

  /**
   * Applies the init parameters to {@code b}; the keyring it starts is returned (the caller
   * closes it), or closed here if a later parameter is refused. Without {@code
   * sessionless-keyring} on the class path only {@code keys.env} works, and nothing is returned.
   *
   * @param params init parameter look-up
   * @param env environment variable look-up
   * @throws IOException if the key file cannot be read
   * @throws IllegalArgumentException if a parameter is invalid
   * @throws IllegalStateException if a required parameter is missing
   */
  static AutoCloseable apply(Function<String, String> params, Function<String, String> env,
      SessionlessFilterBuilder b, ClassLoader loader) throws IOException {
    Algorithm alg = SettingsRules.DEFAULT_ALGORITHM;
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
    if ((v = params.apply("compress")) != null) {
      b.compress(bool("compress", v));
    }
    if ((v = params.apply("compression")) != null) {
      b.compression(dev.sessionless.core.Compression.fromName(v));
    }
    if ((v = params.apply("accept-compressed-signed-tokens")) != null) {
      b.acceptCompressedSignedTokens(bool("accept-compressed-signed-tokens", v));
    }
    if ((v = params.apply("cookie.max-chunks")) != null) {
      b.maxCookieChunks((int) number("cookie.max-chunks", v));
    }
    if ((v = params.apply("max-state-bytes")) != null) {
      try {
        b.maxStateBytes(Integer.parseInt(v.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("max-state-bytes must be a whole number of bytes, got '" + v + "'", e);
      }
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
    if (!KeyringParams.available()) {
      b.keys(withoutKeyring(params, env, file, var, alg));
      return null;
    }
    return KeyringParams.start(params, env, file, var, alg, b);
  }

  /**
   * Without {@code sessionless-keyring} on the class path: {@code keys.env} holding a base64url
   * secret (the keyring's kid rule) or a plain JWKS, read once; everything else names the artifact.
   */
  private static KeySet withoutKeyring(Function<String, String> params, Function<String, String> env,
      String file, String var, Algorithm alg) {
    if (file != null) {
      throw new IllegalStateException("keys.file needs " + KeyringParams.ARTIFACT + " on the class path"
          + " (in WEB-INF/lib); without it, keys.env can name a variable holding a base64url secret or a JWKS");
    }
    for (String p : new String[] {"keys.password-env", "keys.password-file", "keys.kek-env", "keys.kek-file",
      "keys.file.poll-seconds"}) {
      if (trimmed(params.apply(p)) != null) {
        throw new IllegalStateException(p + " (encrypted or live key files) needs " + KeyringParams.ARTIFACT
            + " on the class path (in WEB-INF/lib)");
      }
    }
    String name = var.trim();
    String value = env.apply(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("environment variable " + name + " (keys.env) is not set");
    }
    String t = value.strip();
    KeySet keys;
    if (t.startsWith("{")) {
      try {
        keys = KeySet.fromJwks(t);
      } catch (IllegalStateException e) {
        throw e; // a missing optional jar (BouncyCastle for ES256/EdDSA keys), named in the message
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("environment variable " + name + " (keys.env) is not a usable JWKS", e);
      }
    } else {
      keys = bareSecret(name, t, alg);
    }
    if (keys.signingKey(alg, Instant.now()).isEmpty()) {
      throw noSigningKey("keys.env " + name, alg);
    }
    return keys;
  }

  /**
   * A key for {@code alg} from environment variable {@code name} holding a bare base64url
   * secret, with the keyring's kid rule: for {@code dir} (the default) exactly 32 bytes, for HMAC
   * at least the algorithm's minimum.
   *
   * @throws IllegalArgumentException if it is not canonical base64url or too short, or {@code alg}
   *     takes no secret
   */
  static KeySet bareSecret(String name, String value, Algorithm alg) {
    if (!alg.isSymmetric()) {
      throw new IllegalArgumentException("environment variable " + name + " (keys.env) holds a bare secret, which"
          + " cannot be a key for " + alg.joseName() + ": give a JWKS with its key pair");
    }
    byte[] secret = Base64Url.decodeOptionallyPadded(value);
    if (secret == null) {
      throw new IllegalArgumentException("environment variable " + name
          + " (keys.env) is neither a JWKS nor a canonical base64url secret");
    }
    try {
      int need = Math.max(MIN_SECRET_BYTES, alg.minSecretBytes());
      if (alg == Algorithm.DIR_A256GCM ? secret.length != 32 : secret.length < need) {
        throw new IllegalArgumentException("environment variable " + name + " (keys.env) holds a secret of "
            + secret.length + " bytes; " + alg.joseName() + (alg == Algorithm.DIR_A256GCM
            ? " (A256GCM, the default) needs exactly 32 random bytes" : " needs at least " + need + " random bytes"));
      }
      return KeySet.of(TokenKey.secret(KeyIds.forSecret(secret), alg, secret));
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }

  static IllegalStateException noSigningKey(String source, Algorithm alg) {
    return new IllegalStateException("the keys of " + source + " hold no key that can "
        + (alg.isEncrypting() ? "encrypt " : "sign ") + alg.joseName() + " now"
        + (alg == SettingsRules.DEFAULT_ALGORITHM ? " (dir with A256GCM is the default: keyring init makes such a key)" : "")
        + ": set the algorithm parameter to the keys' algorithm (HS256 keeps tokens signed but readable),"
        + " or add a key for " + alg.joseName());
  }

  static String trimmed(String v) {
    return v == null || v.isBlank() ? null : v.trim();
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

  static long number(String param, String v) {
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(param + " must be a whole number of seconds, got '" + v + "'", e);
    }
  }
}
