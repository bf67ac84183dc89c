package dev.sessionless.keyring;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.KeyFileJwe;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Encrypts a whole key set (secrets included) into one compact JWE, and back: the format of an
 * encrypted key file.
 *
 * <p>Two ways to protect the file:
 *
 * <ul>
 *   <li><b>A password</b>: {@code alg} {@code PBES2-HS512+A256KW} (RFC 7518 section 4.8). The
 *       key-encryption key is derived with PBKDF2-HMAC-SHA512 from the password (as UTF-8, not
 *       normalized), a random 16-byte salt ({@code p2s}) and an iteration count ({@code p2c}).
 *   <li><b>A key-encryption key (KEK)</b>: {@code alg} {@code A256KW} (RFC 7518 section 4.4),
 *       a random 32-byte AES key held elsewhere (a secret store, an environment variable).
 * </ul>
 *
 * <p>Either way the content (the JWKS of {@link KeySet#toJwksWithSecrets()}) is encrypted with
 * a fresh random 256-bit content key under {@code enc} {@code A256GCM}, and the header says
 * {@code cty} {@code jwk-set+json}. Any JOSE library that supports these algorithms (jose4j,
 * Nimbus) reads and writes the same files.
 *
 * <p><b>Security.</b> Decryption checks every header member before doing any work: only the
 * expected {@code alg} and {@code enc}, no {@code zip}, no {@code crit}, no unknown members,
 * and an iteration count between {@value #MIN_ITERATIONS} and the caller's maximum (by default
 * {@value #DEFAULT_MAX_ITERATIONS}), so a hostile file cannot make PBKDF2 run for minutes. Input
 * over {@value #MAX_INPUT_CHARS} characters is refused unread. Wrong passwords and altered files
 * are indistinguishable ({@link Reason#DECRYPTION_FAILED}). Intermediate keys and decrypted bytes
 * are zeroed once used; the caller's password and KEK arrays are left for the caller to clear.
 * Key material exists for a short while as a {@link String}, because {@link KeySet} reads and
 * writes JSON text; a JVM cannot erase a string.
 *
 * <p><b>Limits.</b> A password is only as strong as its entropy: PBKDF2 slows guessing, it does
 * not make a weak password strong. Passwords are not Unicode-normalized, so type them the same
 * way everywhere.
 *
 * <p>Stateless and thread-safe.
 */
public final class EncryptedJwks {
  /** The password-based key management algorithm written and accepted. */
  static final String PBES2_ALG = "PBES2-HS512+A256KW";
  /** The key-wrap algorithm written and accepted for a raw key-encryption key. */
  static final String KW_ALG = "A256KW";
  /** The content encryption written and accepted. */
  static final String ENC = KeyFileJwe.ENC;
  /** The content type written. */
  static final String CTY = KeyFileJwe.CTY;

  /**
   * The default PBKDF2 iteration count: 600,000, OWASP's 2023 recommendation for
   * PBKDF2-HMAC-SHA256 and more than its 210,000 for SHA-512. Deriving takes roughly half a
   * second on a server core, once per load, which is cheap for a key file and expensive for
   * someone guessing passwords.
   */
  public static final int DEFAULT_ITERATIONS = 600_000;
  /** The least iteration count {@link #encrypt(KeySet, char[], int)} writes. */
  public static final int MIN_WRITE_ITERATIONS = 100_000;
  /** The greatest iteration count {@link #encrypt(KeySet, char[], int)} writes. */
  public static final int MAX_WRITE_ITERATIONS = 10_000_000;
  /** The greatest iteration count decryption accepts unless the caller allows more. */
  public static final int DEFAULT_MAX_ITERATIONS = 2_000_000;
  /** The least iteration count decryption accepts: fewer means the file protects nothing. */
  public static final int MIN_ITERATIONS = 1_000;
  /** The least password length, in characters, that encryption accepts. */
  public static final int MIN_PASSWORD_CHARS = 12;
  /** The size of a key-encryption key for {@code A256KW}, in bytes. */
  public static final int KEK_BYTES = 32;
  /** The longest input, in characters, that decryption reads (1 MiB). */
  public static final int MAX_INPUT_CHARS = 1 << 20;

  private static final int SALT_BYTES = 16;
  private static final int MIN_SALT_BYTES = 8;
  private static final int MAX_SALT_BYTES = 1024;
  private static final int CEK_BYTES = 32;
  private static final Set<String> PBES2_MEMBERS = Set.of("alg", "enc", "cty", "p2s", "p2c", "kid", "typ");
  private static final Set<String> KW_MEMBERS = Set.of("alg", "enc", "cty", "kid", "typ");

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private EncryptedJwks() {}

  // ---- encrypt ------------------------------------------------------------------------------

  /**
   * Encrypts {@code keys}, secrets included, under a password with {@value #DEFAULT_ITERATIONS}
   * PBKDF2 iterations.
   *
   * <p><b>Security.</b> The result is only as safe as the password; use a long random one.
   * The password array is not cleared; clear it when done.
   *
   * @param keys the key set to protect
   * @param password at least {@value #MIN_PASSWORD_CHARS} characters
   * @return a compact JWE ({@code PBES2-HS512+A256KW}, {@code A256GCM})
   * @throws KeyringException {@link Reason#UNSAFE_PARAMETERS} if the password is too short
   */
  public static String encrypt(KeySet keys, char[] password) {
    return encrypt(keys, password, DEFAULT_ITERATIONS);
  }

  /**
   * Encrypts {@code keys}, secrets included, under a password with the given PBKDF2 iteration
   * count.
   *
   * <p><b>Security.</b> More iterations make guessing slower and every load slower; readers
   * refuse more than {@value #DEFAULT_MAX_ITERATIONS} unless configured otherwise.
   *
   * @param keys the key set to protect
   * @param password at least {@value #MIN_PASSWORD_CHARS} characters
   * @param iterations from {@value #MIN_WRITE_ITERATIONS} to {@value #MAX_WRITE_ITERATIONS}
   * @return a compact JWE ({@code PBES2-HS512+A256KW}, {@code A256GCM})
   * @throws KeyringException {@link Reason#UNSAFE_PARAMETERS} if the password is too short or
   *     the iteration count out of bounds
   */
  public static String encrypt(KeySet keys, char[] password, int iterations) {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(password, "password");
    if (password.length < MIN_PASSWORD_CHARS) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "the password is shorter than " + MIN_PASSWORD_CHARS + " characters: use a longer one");
    }
    if (iterations < MIN_WRITE_ITERATIONS || iterations > MAX_WRITE_ITERATIONS) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "the PBKDF2 iteration count " + iterations + " is outside " + MIN_WRITE_ITERATIONS
              + ".." + MAX_WRITE_ITERATIONS);
    }
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    ObjectNode header = KeyFileJwe.JSON.createObjectNode()
        .put("alg", PBES2_ALG).put("enc", ENC).put("cty", CTY)
        .put("p2s", B64.encodeToString(salt)).put("p2c", iterations);
    byte[] kek = pbkdf2(password, salt, iterations);
    try {
      return sealKeys(keys, header, kek);
    } finally {
      Arrays.fill(kek, (byte) 0);
    }
  }

  /**
   * Encrypts {@code keys}, secrets included, under a 32-byte AES key-encryption key.
   *
   * <p><b>Security.</b> The KEK must be random (not a password) and kept apart from the file.
   * The array is not cleared; clear it when done.
   *
   * @param keys the key set to protect
   * @param keyEncryptionKey exactly {@value #KEK_BYTES} random bytes
   * @return a compact JWE ({@code A256KW}, {@code A256GCM})
   * @throws KeyringException {@link Reason#UNSAFE_PARAMETERS} if the KEK is not 32 bytes
   */
  public static String encrypt(KeySet keys, byte[] keyEncryptionKey) {
    Objects.requireNonNull(keys, "keys");
    checkKek(keyEncryptionKey);
    ObjectNode header = KeyFileJwe.JSON.createObjectNode().put("alg", KW_ALG).put("enc", ENC).put("cty", CTY);
    return sealKeys(keys, header, keyEncryptionKey);
  }

  private static String sealKeys(KeySet keys, ObjectNode header, byte[] kek) {
    byte[] plaintext = keys.toJwksWithSecrets().getBytes(StandardCharsets.UTF_8);
    try {
      return KeyFileJwe.seal(plaintext, header, kek);
    } finally {
      Arrays.fill(plaintext, (byte) 0);
    }
  }

  // ---- decrypt ------------------------------------------------------------------------------

  /**
   * Decrypts a key file made with a password, accepting up to {@value #DEFAULT_MAX_ITERATIONS}
   * PBKDF2 iterations.
   *
   * <p><b>Security.</b> All header checks run before PBKDF2; see the class description. The
   * password array is not cleared; clear it when done.
   *
   * @param jwe the compact JWE, surrounding white space allowed
   * @param password the password it was encrypted with
   * @return the key set
   * @throws KeyringException {@link Reason#MALFORMED} if it is not a compact JWE of the expected
   *     algorithms or the content is not a valid key set; {@link Reason#UNSAFE_PARAMETERS} if the
   *     iteration count or salt is out of bounds, or the password is empty; {@link
   *     Reason#DECRYPTION_FAILED} if the password is wrong, the file was altered, or it was
   *     encrypted with a key-encryption key instead
   */
  public static KeySet decrypt(String jwe, char[] password) {
    return decrypt(jwe, password, DEFAULT_MAX_ITERATIONS);
  }

  /**
   * Decrypts a key file made with a password, accepting up to {@code maxIterations} PBKDF2
   * iterations.
   *
   * <p><b>Security.</b> {@code maxIterations} bounds the work a file can demand before its
   * password is checked: raise it only for files you made yourself.
   *
   * @param jwe the compact JWE, surrounding white space allowed
   * @param password the password it was encrypted with
   * @param maxIterations the greatest {@code p2c} accepted, from {@value #MIN_ITERATIONS} to
   *     {@value #MAX_WRITE_ITERATIONS}
   * @return the key set
   * @throws IllegalArgumentException if {@code maxIterations} is out of bounds
   * @throws KeyringException as {@link #decrypt(String, char[])}
   */
  public static KeySet decrypt(String jwe, char[] password, int maxIterations) {
    Objects.requireNonNull(jwe, "jwe");
    Objects.requireNonNull(password, "password");
    if (maxIterations < MIN_ITERATIONS || maxIterations > MAX_WRITE_ITERATIONS) {
      throw new IllegalArgumentException("maxIterations must be in " + MIN_ITERATIONS + ".."
          + MAX_WRITE_ITERATIONS + ", got " + maxIterations);
    }
    KeyFileJwe c = parse(jwe, PBES2_ALG, PBES2_MEMBERS);
    JsonNode p2c = c.member("p2c");
    if (p2c == null || !p2c.isIntegralNumber()) {
      throw new KeyringException(Reason.MALFORMED, "the key file header has no integer \"p2c\"");
    }
    if (!p2c.canConvertToInt() || p2c.intValue() > maxIterations) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "the key file asks for more than " + maxIterations + " PBKDF2 iterations: refused");
    }
    int iterations = p2c.intValue();
    if (iterations < MIN_ITERATIONS) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "the key file uses fewer than " + MIN_ITERATIONS + " PBKDF2 iterations: refused");
    }
    JsonNode p2s = c.member("p2s");
    if (p2s == null || !p2s.isString()) {
      throw new KeyringException(Reason.MALFORMED, "the key file header has no string \"p2s\"");
    }
    byte[] salt = KeyFileJwe.decode(p2s.stringValue(), "p2s");
    if (salt.length < MIN_SALT_BYTES) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "the key file uses a salt shorter than " + MIN_SALT_BYTES + " bytes: refused");
    }
    if (salt.length > MAX_SALT_BYTES) {
      throw new KeyringException(Reason.MALFORMED, "the key file's salt is implausibly long");
    }
    if (password.length == 0) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS, "the password is empty");
    }
    byte[] kek = pbkdf2(password, salt, iterations);
    try {
      return c.open(kek);
    } finally {
      Arrays.fill(kek, (byte) 0);
    }
  }

  /**
   * Decrypts a key file made with a 32-byte key-encryption key.
   *
   * <p><b>Security.</b> The header is checked before any decryption; the KEK array is not
   * cleared.
   *
   * @param jwe the compact JWE, surrounding white space allowed
   * @param keyEncryptionKey the {@value #KEK_BYTES}-byte key it was encrypted with
   * @return the key set
   * @throws KeyringException {@link Reason#MALFORMED} if it is not a compact JWE of the expected
   *     algorithms or the content is not a valid key set; {@link Reason#UNSAFE_PARAMETERS} if
   *     the KEK is not 32 bytes; {@link Reason#DECRYPTION_FAILED} if the KEK is wrong, the file
   *     was altered, or it was encrypted with a password instead
   */
  public static KeySet decrypt(String jwe, byte[] keyEncryptionKey) {
    Objects.requireNonNull(jwe, "jwe");
    checkKek(keyEncryptionKey);
    return parse(jwe, KW_ALG, KW_MEMBERS).open(keyEncryptionKey);
  }

  /**
   * Whether {@code content} looks like an encrypted key file: after trimming, five
   * dot-separated base64url segments (a compact JWE), as opposed to a JSON document.
   *
   * <p>A cheap shape test that decrypts nothing: a {@code true} answer does not mean the
   * content is valid.
   *
   * @param content a key file's content
   * @return whether to decrypt it rather than parse it as JSON
   */
  public static boolean isEncrypted(String content) {
    Objects.requireNonNull(content, "content");
    String s = content.strip();
    if (s.isEmpty() || s.charAt(0) == '{' || s.length() > MAX_INPUT_CHARS) {
      return false;
    }
    int dots = 0;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '.') {
        dots++;
      } else if (!isBase64Url(ch)) {
        return false;
      }
    }
    return dots == 4 && s.charAt(0) != '.';
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * The key file, with its header checked for {@code alg} and its {@code members}: a file of the
   * other algorithm is the wrong kind of secret ({@code DECRYPTION_FAILED}), any other unsupported.
   */
  private static KeyFileJwe parse(String jwe, String alg, Set<String> members) {
    KeyFileJwe c = KeyFileJwe.parse(jwe);
    String found = c.alg();
    if (!alg.equals(found)) {
      if (PBES2_ALG.equals(found) || KW_ALG.equals(found)) {
        throw new KeyringException(Reason.DECRYPTION_FAILED, PBES2_ALG.equals(found)
            ? "the key file is encrypted with a password (PBES2), not a key-encryption key"
            : "the key file is encrypted with a key-encryption key (A256KW), not a password");
      }
      throw unsupportedAlg(found);
    }
    c.checkHeader(members);
    return c;
  }

  private static KeyringException unsupportedAlg(String alg) {
    return new KeyringException(Reason.MALFORMED, "the key file uses the unsupported algorithm \""
        + KeyFileJwe.printable(alg) + "\"; expected " + PBES2_ALG + " or " + KW_ALG);
  }

  private static void checkKek(byte[] kek) {
    Objects.requireNonNull(kek, "keyEncryptionKey");
    if (kek.length != KEK_BYTES) {
      throw new KeyringException(Reason.UNSAFE_PARAMETERS,
          "a key-encryption key must be exactly " + KEK_BYTES + " bytes, got " + kek.length);
    }
  }

  private static byte[] pbkdf2(char[] password, byte[] salt, int iterations) {
    byte[] saltInput = new byte[PBES2_ALG.length() + 1 + salt.length];
    byte[] alg = PBES2_ALG.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(alg, 0, saltInput, 0, alg.length);
    System.arraycopy(salt, 0, saltInput, alg.length + 1, salt.length);
    PBEKeySpec spec = new PBEKeySpec(password, saltInput, iterations, CEK_BYTES * 8);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA512").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM lacks PBKDF2WithHmacSHA512", e);
    } finally {
      spec.clearPassword();
    }
  }

  private static boolean isBase64Url(char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')
        || ch == '-' || ch == '_';
  }


}
