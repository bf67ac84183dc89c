package dev.sessionless.servlet;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The init parameters that need {@code sessionless-keyring}: {@code keys.file} (live, encrypted or
 * not) and {@code keys.env} through a {@link Keyring}. The keyring is an optional dependency of
 * the filter, so only this class links against it, and {@link InitParams} calls it only after
 * {@link #available()} said the jar is there.
 */
final class KeyringParams {
  /** What to add, in the words of a build file. */
  static final String ARTIFACT = "sessionless-keyring (dev.sessionless:sessionless-keyring)";

  private static final boolean AVAILABLE = present();

  private KeyringParams() {}

  /** Whether {@code sessionless-keyring} can be loaded by the filter's class loader. */
  static boolean available() {
    return AVAILABLE;
  }

  private static boolean present() {
    try {
      Class.forName("dev.sessionless.keyring.Keyring", false, KeyringParams.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Starts the keyring the parameters describe and gives it to {@code b}; returns it (the caller
   * closes it), or closes it if its keys cannot sign {@code alg}. A bare secret in {@code
   * keys.env} needs no keyring: it becomes a key for {@code alg} and {@code null} is returned.
   */
  static AutoCloseable start(Function<String, String> params, Function<String, String> env, String file,
      String var, Algorithm alg, SessionlessFilterBuilder b) throws IOException {
    if (var != null && trimmed(params.apply("keys.password-env")) == null) {
      String value = env.apply(var.trim());
      if (value != null && !value.isBlank() && !value.strip().startsWith("{")) {
        // A bare secret is read once either way: made a key for the filter's algorithm here (the
        // keyring would make it an HS256 key, and dir is the default).
        b.keys(InitParams.bareSecret(var.trim(), value.strip(), alg));
        return null;
      }
    }
    Keyring keyring = keyring(params, env, file, var);
    try {
      if (!keyring.status().signingKeyIds().containsKey(alg)) {
        throw InitParams.noSigningKey(file != null ? "keys.file " + file.trim() : "keys.env " + var.trim(), alg);
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
    KeyringBuilder k = Keyring.builder().environmentReader(env);
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
      long seconds = InitParams.number("keys.file.poll-seconds", v);
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

  private static String trimmed(String v) {
    return InitParams.trimmed(v);
  }
}
