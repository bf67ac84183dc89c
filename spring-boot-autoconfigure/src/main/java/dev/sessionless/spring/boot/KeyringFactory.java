package dev.sessionless.spring.boot;

import dev.sessionless.core.SessionlessListener;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.Function;

/** Makes the live {@link Keyring} the {@code sessionless.keys.*} properties describe. */
final class KeyringFactory {
  /** What a missing key configuration tells the developer to do. */
  public static final String NO_KEYS = "Sessionless has no keys: set sessionless.keys.file (a JWKS file,"
      + " e.g. made by the keyring tool), sessionless.keys.environment (a variable holding a JWKS or a"
      + " base64url secret) or sessionless.keys.encrypted-file.path; for a single development"
      + " instance only, sessionless.keys.ephemeral=true. A service without browser sessions (one that only"
      + " receives internal tokens, sessionless.propagation.receive.*) sets sessionless.enabled=false";

  private KeyringFactory() {}

  /**
   * The keyring, loaded now.
   *
   * @param env environment variable look-up
   * @throws IllegalStateException naming the property to set when no source is configured or
   *     a secret's variable or file is missing
   */
  public static Keyring build(KeysProperties keys, Function<String, String> env) {
    return build(keys, env, SessionlessListener.NONE);
  }

  /**
   * The keyring, loaded now, reporting its source checks and key changes to {@code listener}.
   *
   * @param env environment variable look-up
   * @param listener told of source checks and key-set changes (metrics)
   * @throws IllegalStateException as {@link #build(KeysProperties, Function)}
   */
  public static Keyring build(KeysProperties keys, Function<String, String> env,
      SessionlessListener listener) {
    KeysProperties.EncryptedFile enc = keys.getEncryptedFile();
    boolean any = keys.getFile() != null || keys.getEnvironment() != null || enc.getPath() != null
        || keys.getJwksUrl() != null;
    if (!any && !keys.isEphemeral()) {
      throw new SessionlessStartupException("no session key is configured (" + NO_KEYS + ")",
          "Set sessionless.keys.file to a JWKS file; create one with: java -jar keyring/target/keyring.jar init"
              + " --out keys.jwks (see the keyring README). Or set sessionless.keys.environment, or"
              + " sessionless.keys.encrypted-file.path with one of sessionless.keys.encrypted-file.password-variable,"
              + " .password-file, .kek-variable or .kek-file; for a single development instance only,"
              + " sessionless.keys.ephemeral=true");
    }
    if (keys.getJwksUrl() != null && keys.getFile() == null && keys.getEnvironment() == null
        && enc.getPath() == null && !keys.isEphemeral()) {
      throw new IllegalStateException("sessionless.keys.jwks-url only adds verification keys: a remote"
          + " document never supplies this application's signing key. Also set sessionless.keys.file,"
          + " sessionless.keys.environment or sessionless.keys.encrypted-file.path");
    }
    KeyringBuilder b = Keyring.builder().environmentReader(env).listener(listener)
        .filePollInterval(keys.getFilePollInterval());
    if (keys.isEphemeral()) {
      if (any) {
        throw new IllegalStateException("sessionless.keys.ephemeral=true is for a single development"
            + " instance and cannot be combined with other sessionless.keys.* sources");
      }
      return b.ephemeralDevelopmentKey().build();
    }
    if (keys.getFile() != null) {
      b.jwksFile(keys.getFile());
    }
    if (enc.getPath() != null) {
      addEncrypted(b, enc, env);
    }
    if (keys.getEnvironment() != null) {
      if (keys.getEnvironmentPasswordVariable() != null) {
        b.environment(keys.getEnvironment(), keys.getEnvironmentPasswordVariable());
      } else {
        b.environment(keys.getEnvironment());
      }
    }
    if (keys.getJwksUrl() != null) {
      b.jwksUrl(keys.getJwksUrl());
    }
    try {
      return b.build();
    } catch (SessionlessStartupException e) {
      throw e;
    } catch (RuntimeException e) {
      throw loadFailure(keys, e);
    }
  }

  /** A keyring that cannot load, named by the property behind it; the keyring's messages hold no secret. */
  private static SessionlessStartupException loadFailure(KeysProperties keys, RuntimeException e) {
    Path file = keys.getFile();
    if (file != null && !Files.exists(file)) {
      return new SessionlessStartupException("the key file " + file + " named by sessionless.keys.file does not exist",
          "Create it with: java -jar keyring/target/keyring.jar init --out " + file + " (and copy the same file to"
              + " every instance), or set sessionless.keys.file to the file you have", e);
    }
    if (file != null && encrypted(file)) {
      return new SessionlessStartupException("the key file " + file + " named by sessionless.keys.file is encrypted",
          "Name it with sessionless.keys.encrypted-file.path instead, with exactly one of"
              + " sessionless.keys.encrypted-file.password-variable, .password-file, .kek-variable or .kek-file", e);
    }
    Path enc = keys.getEncryptedFile().getPath();
    if (enc != null && !Files.exists(enc)) {
      return new SessionlessStartupException("the encrypted key file " + enc + " named by"
          + " sessionless.keys.encrypted-file.path does not exist", "Create it with: java -jar keyring/target/keyring.jar"
          + " init --out " + enc + " --encrypt --password-env KEYS_PASSWORD, or set"
          + " sessionless.keys.encrypted-file.path to the file you have", e);
    }
    return new SessionlessStartupException("the session keys cannot be loaded (" + e.getMessage() + ")",
        "Check sessionless.keys.file, sessionless.keys.environment, sessionless.keys.encrypted-file.* (its path and"
            + " its password or KEK) and sessionless.keys.jwks-url", e);
  }

  private static boolean encrypted(Path file) {
    try {
      return Files.size(file) < 1_000_000 && EncryptedJwks.isEncrypted(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void addEncrypted(KeyringBuilder b, KeysProperties.EncryptedFile enc,
      Function<String, String> env) {
    int secrets = (enc.getPasswordVariable() == null ? 0 : 1) + (enc.getPasswordFile() == null ? 0 : 1)
        + (enc.getKekVariable() == null ? 0 : 1) + (enc.getKekFile() == null ? 0 : 1);
    if (secrets != 1) {
      throw new SessionlessStartupException("sessionless.keys.encrypted-file.path is set with " + secrets
          + " of its secrets", "Set exactly one of sessionless.keys.encrypted-file.password-variable, .password-file,"
          + " .kek-variable or .kek-file");
    }
    if (enc.getPasswordVariable() != null || enc.getPasswordFile() != null) {
      char[] password = secret(enc.getPasswordVariable(), enc.getPasswordFile(), "password", env).toCharArray();
      b.encryptedJwksFile(enc.getPath(), password);
      Arrays.fill(password, '\0');
    } else {
      String text = secret(enc.getKekVariable(), enc.getKekFile(), "kek", env);
      byte[] kek;
      try {
        kek = Base64.getUrlDecoder().decode(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the key-encryption key of sessionless.keys.encrypted-file is not"
            + " base64url");
      }
      b.encryptedJwksFile(enc.getPath(), kek);
      Arrays.fill(kek, (byte) 0);
    }
  }

  private static String secret(String variable, Path file, String what, Function<String, String> env) {
    String value;
    String property;
    if (variable != null) {
      property = "sessionless.keys.encrypted-file." + what + "-variable";
      value = env.apply(variable);
      if (value == null || value.isEmpty()) {
        throw new SessionlessStartupException("the environment variable " + variable + " named by " + property
            + " is not set", "Set " + variable + " in the environment of this application, or set " + property
            + " to the variable that holds it");
      }
    } else {
      property = "sessionless.keys.encrypted-file." + what + "-file";
      try {
        value = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the file named by " + property + ": " + file, e);
      }
    }
    String trimmed = value.replaceAll("[\\r\\n]+$", "");
    if (trimmed.isEmpty()) {
      throw new IllegalStateException("the secret named by " + property + " is empty");
    }
    return trimmed;
  }
}
