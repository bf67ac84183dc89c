package dev.sessionless.spring.boot;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code sessionless.keys.*} properties. Key sources; several may be combined (their union
 * is used, the first listed here wins a kid). No property holds a secret, only the names of the
 * variables and files that do.
 */
public class KeysProperties {
  /** A JWKS file with the signing keys, re-read when it changes (key rotation, a Kubernetes Secret). */
  private Path file;

  /** How often the key files are checked for changes. */
  private Duration filePollInterval = Duration.ofSeconds(5);

  /** A JWKS file encrypted with the keyring tool (a compact JWE), re-read when it changes. */
  private final EncryptedFile encryptedFile = new EncryptedFile();

  /**
   * The name of an environment variable holding a JWKS or one base64url secret of 32 or more
   * bytes (an HS256 key), read once at startup.
   */
  private String environment;

  /**
   * The name of an environment variable holding the password of an encrypted JWKS in the
   * variable named by sessionless.keys.environment.
   */
  private String environmentPasswordVariable;

  /**
   * An HTTP(S) JWKS URL with further verification keys (usually another service's public
   * keys); never supplies the signing key.
   */
  private URI jwksUrl;

  /**
   * Development only: sign with a random in-memory key, logged loudly. Tokens then survive
   * neither a restart nor a second instance. Refused beside any other key source.
   */
  private boolean ephemeral;

  /** Used by Spring. */
  public KeysProperties() {}

  /** The plain JWKS file, or {@code null}. */
  public Path getFile() {
    return file;
  }

  /** Sets the plain JWKS file. */
  public void setFile(Path file) {
    this.file = file;
  }

  /** How often the key files are checked (5 seconds by default). */
  public Duration getFilePollInterval() {
    return filePollInterval;
  }

  /** Sets how often the key files are checked. */
  public void setFilePollInterval(Duration filePollInterval) {
    this.filePollInterval = filePollInterval;
  }

  /** The encrypted JWKS file ({@code sessionless.keys.encrypted-file.*}). */
  public EncryptedFile getEncryptedFile() {
    return encryptedFile;
  }

  /** The name of the environment variable holding the keys, or {@code null}. */
  public String getEnvironment() {
    return environment;
  }

  /** Sets the name of the environment variable holding the keys. */
  public void setEnvironment(String environment) {
    this.environment = environment;
  }

  /** The name of the environment variable holding that JWKS's password, or {@code null}. */
  public String getEnvironmentPasswordVariable() {
    return environmentPasswordVariable;
  }

  /** Sets the name of the environment variable holding that JWKS's password. */
  public void setEnvironmentPasswordVariable(String environmentPasswordVariable) {
    this.environmentPasswordVariable = environmentPasswordVariable;
  }

  /** The JWKS URL with further verification keys, or {@code null}. */
  public URI getJwksUrl() {
    return jwksUrl;
  }

  /** Sets the JWKS URL with further verification keys. */
  public void setJwksUrl(URI jwksUrl) {
    this.jwksUrl = jwksUrl;
  }

  /** Whether a random in-memory key is used (development only). */
  public boolean isEphemeral() {
    return ephemeral;
  }

  /** Sets whether a random in-memory key is used (development only). */
  public void setEphemeral(boolean ephemeral) {
    this.ephemeral = ephemeral;
  }

  /**
   * An encrypted JWKS file and where its secret comes from: exactly one of a password or a
   * key-encryption key, each from an environment variable or a file (never from the property
   * itself, so the secret stays out of configuration files).
   */
  public static class EncryptedFile {
    /** The encrypted JWKS file. */
    private Path path;

    /** The name of an environment variable holding the file's password. */
    private String passwordVariable;

    /** A file holding the password (trailing line breaks ignored), e.g. a mounted secret. */
    private Path passwordFile;

    /** The name of an environment variable holding a base64url key-encryption key (A256KW). */
    private String kekVariable;

    /** A file holding a base64url key-encryption key (A256KW). */
    private Path kekFile;

    /** Used by Spring. */
    public EncryptedFile() {}

    /** The encrypted JWKS file, or {@code null}. */
    public Path getPath() {
      return path;
    }

    /** Sets the encrypted JWKS file. */
    public void setPath(Path path) {
      this.path = path;
    }

    /** The name of the environment variable holding the password, or {@code null}. */
    public String getPasswordVariable() {
      return passwordVariable;
    }

    /** Sets the name of the environment variable holding the password. */
    public void setPasswordVariable(String passwordVariable) {
      this.passwordVariable = passwordVariable;
    }

    /** The file holding the password, or {@code null}. */
    public Path getPasswordFile() {
      return passwordFile;
    }

    /** Sets the file holding the password. */
    public void setPasswordFile(Path passwordFile) {
      this.passwordFile = passwordFile;
    }

    /** The name of the environment variable holding the key-encryption key, or {@code null}. */
    public String getKekVariable() {
      return kekVariable;
    }

    /** Sets the name of the environment variable holding the key-encryption key. */
    public void setKekVariable(String kekVariable) {
      this.kekVariable = kekVariable;
    }

    /** The file holding the key-encryption key, or {@code null}. */
    public Path getKekFile() {
      return kekFile;
    }

    /** Sets the file holding the key-encryption key. */
    public void setKekFile(Path kekFile) {
      this.kekFile = kekFile;
    }
  }
}
