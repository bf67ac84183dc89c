package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.internal.KeyContent;
import dev.sessionless.testing.FuzzSeeds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of the key-file readers: a JWKS ({@link KeySet#fromJwks},
 * and {@link KeyContent#parse} as the keyring reads a file), an encrypted JWKS ({@link
 * EncryptedJwks#decrypt}) and a PEM document ({@link PemKeys#read(String, String)}). Each answers
 * a key set (key) or its documented exception: {@link IllegalArgumentException} from {@code
 * KeySet.fromJwks}, {@link KeyringException} from the keyring's own readers. Anything else
 * escaping is a finding.
 *
 * <p>Saved inputs live under {@code
 * src/test/resources/dev/sessionless/keyring/KeyFilesFuzzTestInputs/<method>/}.
 */
@Timeout(120)
class KeyFilesFuzzTest {
  /** The key-encryption key the encrypted inputs are sealed with (a fixed test value). */
  static final byte[] KEK = new byte[32];
  /** The password tried on password-encrypted inputs. */
  static final char[] PASSWORD = "correct horse battery".toCharArray();
  /** The header {@link EncryptedJwks#encrypt(KeySet, byte[])} writes. */
  static final String KW_HEADER = b64("{\"alg\":\"A256KW\",\"enc\":\"A256GCM\",\"cty\":\"jwk-set+json\"}");

  static {
    for (int i = 0; i < KEK.length; i++) {
      KEK[i] = (byte) (i * 7 + 1);
    }
  }

  /**
   * The input as text: a JWKS read by {@code KeySet.fromJwks} (a key set, or {@link
   * IllegalArgumentException}; a set read back from its own JWKS has the same keys) and by the
   * keyring's file reader (a key set, or {@link KeyringException}).
   */
  @FuzzTest(maxDuration = "5m")
  void jwksIsReadOrRefusedWithItsDocumentedException(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    try {
      KeySet keys = KeySet.fromJwks(text);
      KeySet again = KeySet.fromJwks(keys.toJwksWithSecrets());
      assertEquals(kids(keys), kids(again), "a key set read back from its own JWKS has other keys");
    } catch (IllegalArgumentException expected) {
      // documented: not valid JSON, a key invalid or unsupported, or two keys share a kid
    }
    try {
      KeyContent.parse(text, KeyContent.Unlock.none(), true, "fuzz input");
    } catch (KeyringException expected) {
      // documented: MALFORMED, DECRYPTION_FAILED or CONFIGURATION
    }
    java.util.Map<String, String> skipped = new java.util.LinkedHashMap<>();
    try {
      KeySet published = KeyContent.parsePublished(text, "fuzz input", skipped);
      assertTrue(!published.keys().isEmpty(), "a remote JWKS read as empty instead of refused");
    } catch (KeyringException expected) {
      // documented: MALFORMED (no usable key included) or CONFIGURATION
    }
    for (String why : skipped.values()) {
      assertTrue(why.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "a skip reason that is not printable ASCII");
    }
  }

  /**
   * Byte 0, bit 0 clear: the rest is a compact JWE given to both {@code decrypt}s (the
   * password's with the least iteration count, so a hostile header cannot buy minutes of
   * PBKDF2). Set: the rest is sealed as the content of a valid {@code A256KW} file, so the
   * fuzzer reaches the key-set parsing behind the decryption.
   */
  @FuzzTest(maxDuration = "5m")
  void encryptedJwksIsDecryptedOrRefusedWithKeyringException(byte[] input) {
    if (input.length == 0) {
      return;
    }
    byte[] rest = Arrays.copyOfRange(input, 1, input.length);
    if ((input[0] & 1) == 0) {
      String text = new String(rest, StandardCharsets.UTF_8);
      try {
        EncryptedJwks.decrypt(text, KEK);
      } catch (KeyringException expected) {
        // documented: MALFORMED, UNSAFE_PARAMETERS, DECRYPTION_FAILED
      }
      try {
        EncryptedJwks.decrypt(text, PASSWORD, EncryptedJwks.MIN_ITERATIONS);
      } catch (KeyringException expected) {
        // documented, as above
      }
    } else {
      try {
        EncryptedJwks.decrypt(sealWithKek(rest), KEK);
      } catch (KeyringException expected) {
        // documented: the content is not a valid key set
      }
    }
  }

  /** The input as a PEM document: one ES256 or EdDSA key, or {@link KeyringException}. */
  @FuzzTest(maxDuration = "5m")
  void pemIsReadOrRefusedWithKeyringException(byte[] input) {
    String text = new String(input, StandardCharsets.ISO_8859_1);
    try {
      TokenKey key = PemKeys.read("fuzz", text);
      assertTrue(key.algorithm() == Algorithm.ES256 || key.algorithm() == Algorithm.EDDSA, key.algorithm().name());
    } catch (KeyringException expected) {
      // documented: MALFORMED
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  static List<String> kids(KeySet keys) {
    return keys.keys().stream().map(TokenKey::kid).sorted().toList();
  }

  static String b64(String s) {
    return b64(s.getBytes(StandardCharsets.UTF_8));
  }

  static String b64(byte[] b) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * {@code content} as an A256KW + A256GCM compact JWE under {@link #KEK}, built here with the
   * JDK's ciphers, not by {@link EncryptedJwks}; the content key and IV are derived from the
   * content, so the same input is the same file.
   */
  static String sealWithKek(byte[] content) {
    try {
      byte[] cek = new byte[32];
      byte[] iv = new byte[12];
      for (int i = 0; i < content.length; i++) {
        cek[i % 32] ^= content[i];
        iv[i % 12] += content[i];
      }
      Cipher wrap = Cipher.getInstance("AESWrap");
      wrap.init(Cipher.WRAP_MODE, new SecretKeySpec(KEK, "AES"));
      byte[] wrapped = wrap.wrap(new SecretKeySpec(cek, "AES"));
      Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, iv));
      gcm.updateAAD(KW_HEADER.getBytes(StandardCharsets.US_ASCII));
      byte[] sealed = gcm.doFinal(content);
      int ct = sealed.length - 16;
      return KW_HEADER + "." + b64(wrapped) + "." + b64(iv) + "." + b64(Arrays.copyOfRange(sealed, 0, ct)) + "."
          + b64(Arrays.copyOfRange(sealed, ct, sealed.length));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aContentSealedHereIsReadByEncryptedJwksSoTheFuzzerReachesTheKeySet() {
    KeySet keys = KeySet.of(TokenKey.generate("h", Algorithm.HS256), TokenKey.generate("e", Algorithm.ES256));
    KeySet read = EncryptedJwks.decrypt(sealWithKek(keys.toJwksWithSecrets().getBytes(StandardCharsets.UTF_8)), KEK);
    assertEquals(kids(keys), kids(read));
  }

  /**
   * Found by {@link #pemIsReadOrRefusedWithKeyringException} (saved as its {@code crash-82cb324b...}
   * input): a SEC1 key whose privateKey member is a tagged object, not an OCTET STRING. Bouncy
   * Castle reads that member lazily, so the ClassCastException came out of {@code PemKeys.read}
   * instead of {@code MALFORMED}.
   */
  @Test
  void aSec1KeyWhosePrivateKeyIsNotAnOctetStringIsRefusedAsMalformed() {
    String pem = "-----BEGIN EC PRIVATE KEY-----\n"
        + "MHcCAQDEIESkZpFrvDyAYbUyoGuS+vya3EnEu2rNLnd+axz67WSsoAoGCCqGSM49\n"
        + "AwEHoUQDQgQEImlv2Zvom6P3RW26glY+HMEbUNk+mCWqiY2neJykOXgRa+fWeVzn\n"
        + "yV0A9TAN6PhR6JpF7KjK3QpnFonrliSOiA==\n"
        + "-----END EC PRIVATE KEY-----\n";
    KeyringException e = org.junit.jupiter.api.Assertions.assertThrows(KeyringException.class,
        () -> PemKeys.read("fuzz", pem));
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
  }

  /**
   * Found by the second campaign of {@link #pemIsReadOrRefusedWithKeyringException} (saved as its
   * {@code crash-52bd5a60...} input): a public key whose BIT STRING has unused bits. Bouncy
   * Castle refuses to give its octets only when asked, with an IllegalStateException that came
   * out of {@code PemKeys.read} instead of {@code MALFORMED}.
   */
  @Test
  void aPublicKeyWhoseBitStringIsNotWholeBytesIsRefusedAsMalformed() {
    String pem = "-----BEGIN PUBLIC KEY-----\n"
        + "MDkwEwYHKoUIzj0CAQYIKoZIzj0DAQcDIgPUBLlv2Zvom6P3RW26glY+HMEbUNk+\n"
        + "mCWqiY2neJykOXg=\n"
        + "-----END PUBLIC KEY-----\n";
    KeyringException e = org.junit.jupiter.api.Assertions.assertThrows(KeyringException.class,
        () -> PemKeys.read("fuzz", pem));
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
  }

  static final FuzzSeeds INPUTS = FuzzSeeds.of(KeyFilesFuzzTest.class);

  @Test
  void theCheckedInSeedsAreThere() throws IOException {
    for (String m : List.of("jwksIsReadOrRefusedWithItsDocumentedException",
        "encryptedJwksIsDecryptedOrRefusedWithKeyringException", "pemIsReadOrRefusedWithKeyringException")) {
      try (var files = Files.list(INPUTS.dir(m))) {
        assertTrue(files.count() >= 3, m);
      }
    }
  }

  /**
   * Rewrites the checked-in seeds: key sets of every algorithm as JWKS (with and without
   * secrets), encrypted with the KEK and a password, and a few of the PEM test files. The keys,
   * IVs and salts are fresh on every run, so the JWKS seeds differ each time (the PEM ones do
   * not); the command is in docs/FUZZING.md.
   */
  public static void main(String[] args) throws IOException {
    KeySet all = KeySet.of(TokenKey.generate("hs", Algorithm.HS256), TokenKey.generate("es", Algorithm.ES256),
        TokenKey.generate("ed", Algorithm.EDDSA), TokenKey.generate("aes", Algorithm.DIR_A256GCM));
    KeySet one = KeySet.of(TokenKey.generate("k1", Algorithm.HS512));
    INPUTS.writeTexts("jwksIsReadOrRefusedWithItsDocumentedException",
        List.of(all.toJwksWithSecrets(), all.toPublicJwks(), one.toJwksWithSecrets()), StandardCharsets.UTF_8);
    INPUTS.write("encryptedJwksIsDecryptedOrRefusedWithKeyringException", List.of(
        utf8(0, EncryptedJwks.encrypt(one, KEK)),
        utf8(0, EncryptedJwks.encrypt(one, PASSWORD, EncryptedJwks.MIN_WRITE_ITERATIONS)),
        utf8(1, all.toJwksWithSecrets()),
        utf8(1, one.toJwksWithSecrets())));
    List<byte[]> pems = new ArrayList<>();
    for (String file : List.of("ec-p256-pkcs8.pem", "ec-p256-public.pem", "ec-p256-sec1.pem",
        "ec-p256-public-compressed.pem", "ed25519-pkcs8.pem", "ed25519-public.pem", "ec-p384-public.pem")) {
      try (InputStream in = KeyFilesFuzzTest.class.getResourceAsStream("/pem/" + file)) {
        pems.add(Objects.requireNonNull(in, file).readAllBytes());
      }
    }
    INPUTS.write("pemIsReadOrRefusedWithKeyringException", pems);
  }

  static byte[] utf8(int first, String rest) {
    return FuzzSeeds.prefixed(first, rest.getBytes(StandardCharsets.UTF_8));
  }
}
