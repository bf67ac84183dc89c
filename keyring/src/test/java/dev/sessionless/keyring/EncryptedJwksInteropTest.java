package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.AESDecrypter;
import com.nimbusds.jose.crypto.AESEncrypter;
import com.nimbusds.jose.crypto.PasswordBasedDecrypter;
import com.nimbusds.jose.crypto.PasswordBasedEncrypter;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.security.SecureRandom;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.JsonWebEncryption;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.OctetSequenceJsonWebKey;
import org.jose4j.jwx.HeaderParameterNames;
import org.jose4j.keys.PbkdfKey;
import org.junit.jupiter.api.Test;

/** Encrypted key files made here open in jose4j and Nimbus, and theirs open here. */
class EncryptedJwksInteropTest {
  static final String PASSWORD = "pässwörd – with ünicode and length";
  static final int ITERATIONS = 100_000;
  static final KeySet KEYS = KeySet.of(
      TokenKey.generate("hs", Algorithm.HS256),
      TokenKey.generate("es", Algorithm.ES256),
      TokenKey.generate("ed", Algorithm.EDDSA));

  static final AlgorithmConstraints PBES2_ONLY = new AlgorithmConstraints(
      AlgorithmConstraints.ConstraintType.PERMIT, KeyManagementAlgorithmIdentifiers.PBES2_HS512_A256KW);

  static byte[] kek() {
    byte[] k = new byte[32];
    new SecureRandom().nextBytes(k);
    return k;
  }

  static void assertSameKeys(KeySet expected, KeySet actual) {
    assertEquals(expected.keys().size(), actual.keys().size());
    for (TokenKey k : expected.keys()) {
      assertTrue(k.sameAs(actual.key(k.kid()).orElseThrow()), k.kid());
    }
  }

  // ---- jose4j -------------------------------------------------------------------------------

  @Test
  void jose4jPasswordFileDecryptsHere() throws Exception {
    JsonWebEncryption jwe = new JsonWebEncryption();
    jwe.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.PBES2_HS512_A256KW);
    jwe.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    jwe.setContentTypeHeaderValue("jwk-set+json");
    jwe.getHeaders().setObjectHeaderValue(HeaderParameterNames.PBES2_ITERATION_COUNT, (long) ITERATIONS);
    jwe.setKey(new PbkdfKey(PASSWORD));
    jwe.setAlgorithmConstraints(PBES2_ONLY); // jose4j blocks PBES2 unless asked
    jwe.setPayload(KEYS.toJwksWithSecrets());
    assertSameKeys(KEYS, EncryptedJwks.decrypt(jwe.getCompactSerialization(), PASSWORD.toCharArray()));
  }

  @Test
  void ourPasswordFileDecryptsInJose4j() throws Exception {
    String ours = EncryptedJwks.encrypt(KEYS, PASSWORD.toCharArray(), ITERATIONS);
    JsonWebEncryption jwe = new JsonWebEncryption();
    jwe.setCompactSerialization(ours);
    jwe.setKey(new PbkdfKey(PASSWORD));
    jwe.setAlgorithmConstraints(PBES2_ONLY);
    String plaintext = jwe.getPayload();
    assertEquals("jwk-set+json", jwe.getContentTypeHeaderValue());
    assertSameKeys(KEYS, KeySet.fromJwks(plaintext));
    assertEquals(3, new JsonWebKeySet(plaintext).getJsonWebKeys().size());
  }

  @Test
  void jose4jKekFileDecryptsHereAndOursThere() throws Exception {
    byte[] kek = kek();
    JsonWebEncryption theirs = new JsonWebEncryption();
    theirs.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.A256KW);
    theirs.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    theirs.setKey(new OctetSequenceJsonWebKey(new SecretKeySpec(kek, "AES")).getKey());
    theirs.setPayload(KEYS.toJwksWithSecrets());
    assertSameKeys(KEYS, EncryptedJwks.decrypt(theirs.getCompactSerialization(), kek));

    JsonWebEncryption reader = new JsonWebEncryption();
    reader.setCompactSerialization(EncryptedJwks.encrypt(KEYS, kek));
    reader.setKey(new SecretKeySpec(kek, "AES"));
    assertSameKeys(KEYS, KeySet.fromJwks(reader.getPayload()));
  }

  // ---- Nimbus -------------------------------------------------------------------------------

  @Test
  void nimbusPasswordFileDecryptsHere() throws Exception {
    JWEObject jwe = new JWEObject(
        new JWEHeader.Builder(JWEAlgorithm.PBES2_HS512_A256KW, EncryptionMethod.A256GCM)
            .contentType("jwk-set+json").build(),
        new Payload(KEYS.toJwksWithSecrets()));
    jwe.encrypt(new PasswordBasedEncrypter(PASSWORD, 16, ITERATIONS));
    assertSameKeys(KEYS, EncryptedJwks.decrypt(jwe.serialize(), PASSWORD.toCharArray()));
  }

  @Test
  void ourPasswordFileDecryptsInNimbus() throws Exception {
    JWEObject jwe = JWEObject.parse(EncryptedJwks.encrypt(KEYS, PASSWORD.toCharArray(), ITERATIONS));
    jwe.decrypt(new PasswordBasedDecrypter(PASSWORD));
    assertEquals(ITERATIONS, jwe.getHeader().getPBES2Count());
    assertSameKeys(KEYS, KeySet.fromJwks(jwe.getPayload().toString()));
  }

  @Test
  void ourDefaultIterationCountIsWithinNimbusLimit() throws Exception {
    JWEObject jwe = JWEObject.parse(EncryptedJwks.encrypt(KEYS, PASSWORD.toCharArray()));
    jwe.decrypt(new PasswordBasedDecrypter(PASSWORD));
    assertSameKeys(KEYS, KeySet.fromJwks(jwe.getPayload().toString()));
  }

  @Test
  void nimbusKekFileDecryptsHereAndOursThere() throws Exception {
    byte[] kek = kek();
    JWEObject theirs = new JWEObject(new JWEHeader(JWEAlgorithm.A256KW, EncryptionMethod.A256GCM),
        new Payload(KEYS.toJwksWithSecrets()));
    theirs.encrypt(new AESEncrypter(kek));
    assertSameKeys(KEYS, EncryptedJwks.decrypt(theirs.serialize(), kek));

    JWEObject ours = JWEObject.parse(EncryptedJwks.encrypt(KEYS, kek));
    ours.decrypt(new AESDecrypter(kek));
    assertSameKeys(KEYS, KeySet.fromJwks(ours.getPayload().toString()));
  }
}
