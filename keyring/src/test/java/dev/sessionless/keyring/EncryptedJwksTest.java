package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class EncryptedJwksTest {
  static final int FAST = EncryptedJwks.MIN_WRITE_ITERATIONS;
  static final char[] PASSWORD = "correct horse battery staple".toCharArray();
  static final ObjectMapper JSON = new ObjectMapper();
  static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  static final Base64.Decoder D64 = Base64.getUrlDecoder();

  static final KeySet KEYS = KeySet.of(
      TokenKey.generate("hs", Algorithm.HS256).withLifecycle(
          Instant.ofEpochSecond(1_700_000_000L), Instant.ofEpochSecond(1_700_086_400L), null, null),
      TokenKey.generate("es", Algorithm.ES256),
      TokenKey.generate("ed", Algorithm.EDDSA),
      TokenKey.generate("aes", Algorithm.DIR_A256GCM));

  static byte[] kek() {
    byte[] k = new byte[32];
    new SecureRandom().nextBytes(k);
    return k;
  }

  static void assertSameKeys(KeySet expected, KeySet actual) {
    assertEquals(expected.keys().size(), actual.keys().size());
    for (TokenKey k : expected.keys()) {
      assertTrue(k.sameAs(actual.key(k.kid()).orElseThrow()), "key " + k.kid() + " survives");
    }
  }

  static void assertReason(Reason reason, Executable e) {
    KeyringException x = assertThrows(KeyringException.class, e);
    assertEquals(reason, x.reason(), x.getMessage());
  }

  static ObjectNode header(String jwe) throws Exception {
    return (ObjectNode) JSON.readTree(D64.decode(jwe.split("\\.")[0]));
  }

  static String withHeader(String jwe, Consumer<ObjectNode> change) throws Exception {
    ObjectNode h = header(jwe);
    change.accept(h);
    String[] p = jwe.split("\\.");
    p[0] = B64.encodeToString(JSON.writeValueAsBytes(h));
    return String.join(".", p);
  }

  static String flipBit(String jwe, int part, int index) {
    String[] p = jwe.split("\\.");
    byte[] b = D64.decode(p[part]);
    b[index] ^= 1;
    p[part] = B64.encodeToString(b);
    return String.join(".", p);
  }

  // ---- round trips ------------------------------------------------------------------------

  @Test
  void passwordRoundTripKeepsEveryKeyAndLifecycle() {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertSameKeys(KEYS, EncryptedJwks.decrypt(jwe, PASSWORD));
  }

  @Test
  void kekRoundTripKeepsEveryKeyAndLifecycle() {
    byte[] kek = kek();
    assertSameKeys(KEYS, EncryptedJwks.decrypt(EncryptedJwks.encrypt(KEYS, kek), kek));
  }

  @Test
  void defaultEncryptionUses600000IterationsAndTheDocumentedHeader() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD);
    ObjectNode h = header(jwe);
    assertEquals("PBES2-HS512+A256KW", h.get("alg").stringValue());
    assertEquals("A256GCM", h.get("enc").stringValue());
    assertEquals("jwk-set+json", h.get("cty").stringValue());
    assertEquals(600_000, h.get("p2c").intValue());
    assertTrue(D64.decode(h.get("p2s").stringValue()).length >= 16, "salt of 16+ bytes");
    assertEquals(5, jwe.split("\\.", -1).length);
    assertSameKeys(KEYS, EncryptedJwks.decrypt(jwe, PASSWORD));
  }

  @Test
  void kekHeaderNamesA256kwAndA256gcm() throws Exception {
    ObjectNode h = header(EncryptedJwks.encrypt(KEYS, kek()));
    assertEquals("A256KW", h.get("alg").stringValue());
    assertEquals("A256GCM", h.get("enc").stringValue());
    assertEquals("jwk-set+json", h.get("cty").stringValue());
    assertFalse(h.has("p2c"));
  }

  @Test
  void everyEncryptionUsesAFreshSaltAndContentKey() throws Exception {
    byte[] kek = kek();
    assertNotEquals(EncryptedJwks.encrypt(KEYS, kek), EncryptedJwks.encrypt(KEYS, kek));
    assertNotEquals(header(EncryptedJwks.encrypt(KEYS, PASSWORD, FAST)).get("p2s"),
        header(EncryptedJwks.encrypt(KEYS, PASSWORD, FAST)).get("p2s"));
  }

  @Test
  void encryptedFileHoldsNoSecretInTheClear() {
    String jwks = KEYS.toJwksWithSecrets();
    String jwe = EncryptedJwks.encrypt(KEYS, kek());
    for (TokenKey k : KEYS.keys()) {
      String secret = secretOf(k);
      assertFalse(jwe.contains(secret), "secret of " + k.kid() + " not in the file");
      assertFalse(new String(D64.decode(jwe.split("\\.")[0]), StandardCharsets.UTF_8).contains(k.kid()));
    }
    assertTrue(jwks.length() > 0);
  }

  static String secretOf(TokenKey k) {
    try {
      ObjectNode n = (ObjectNode) JSON.readTree(k.toJwkWithSecrets());
      return n.has("k") ? n.get("k").stringValue() : n.get("d").stringValue();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void surroundingWhiteSpaceIsAccepted() {
    byte[] kek = kek();
    assertSameKeys(KEYS, EncryptedJwks.decrypt("\n  " + EncryptedJwks.encrypt(KEYS, kek) + "\n", kek));
  }

  @Test
  void aDecryptedFileMayAllowMoreIterationsWhenTheCallerSaysSo() {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, 150_000);
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.decrypt(jwe, PASSWORD, 120_000));
    assertSameKeys(KEYS, EncryptedJwks.decrypt(jwe, PASSWORD, 150_000));
  }

  // ---- encryption refusals ------------------------------------------------------------------

  @Test
  void passwordShorterThan12CharactersIsRefusedAsUnsafe() {
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.encrypt(KEYS, "elevenchars".toCharArray()));
    assertEquals(12, "twelve chars".length());
    EncryptedJwks.encrypt(KEYS, "twelve chars".toCharArray(), FAST); // the bound itself is fine
  }

  @Test
  void iterationCountOutsideTheWriteBoundsIsRefusedAsUnsafe() {
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.encrypt(KEYS, PASSWORD, 99_999));
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.encrypt(KEYS, PASSWORD, 10_000_001));
  }

  @Test
  void kekOfAnotherSizeIsRefusedAsUnsafe() {
    for (int size : new int[] {0, 16, 24, 31, 33, 64}) {
      assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.encrypt(KEYS, new byte[size]));
      String jwe = EncryptedJwks.encrypt(KEYS, kek());
      assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.decrypt(jwe, new byte[size]));
    }
  }

  // ---- decryption refusals ------------------------------------------------------------------

  @Test
  void wrongPasswordIsRejectedAsDecryptionFailed() {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertReason(Reason.DECRYPTION_FAILED,
        () -> EncryptedJwks.decrypt(jwe, "correct horse battery stapler".toCharArray()));
  }

  @Test
  void wrongKekIsRejectedAsDecryptionFailed() {
    String jwe = EncryptedJwks.encrypt(KEYS, kek());
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(jwe, kek()));
  }

  @Test
  void passwordFileOpenedWithAKekAndViceVersaIsDecryptionFailed() {
    String byPassword = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    String byKek = EncryptedJwks.encrypt(KEYS, kek());
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(byPassword, kek()));
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(byKek, PASSWORD));
  }

  @Test
  void everyAlteredByteOfAKekFileIsRejectedAsDecryptionFailed() {
    byte[] kek = kek();
    String jwe = EncryptedJwks.encrypt(KEYS, kek);
    String[] parts = jwe.split("\\.");
    for (int part = 1; part < 5; part++) {
      int len = D64.decode(parts[part]).length;
      for (int i = 0; i < len; i++) {
        String altered = flipBit(jwe, part, i);
        int p = part;
        int at = i;
        KeyringException e = assertThrows(KeyringException.class, () -> EncryptedJwks.decrypt(altered, kek),
            "part " + p + " byte " + at);
        assertEquals(Reason.DECRYPTION_FAILED, e.reason(), "part " + p + " byte " + at);
      }
    }
  }

  @Test
  void alteredHeaderIsRejectedAsDecryptionFailed() throws Exception {
    byte[] kek = kek();
    String jwe = EncryptedJwks.encrypt(KEYS, kek);
    assertReason(Reason.DECRYPTION_FAILED,
        () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("kid", "x")), kek));
    assertReason(Reason.DECRYPTION_FAILED,
        () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.remove("cty")), kek));
  }

  @Test
  void alteredSaltIterationsCiphertextOrTagOfAPasswordFileIsDecryptionFailed() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> {
      byte[] salt = D64.decode(h.get("p2s").stringValue());
      salt[0] ^= 1;
      h.put("p2s", B64.encodeToString(salt));
    }), PASSWORD));
    assertReason(Reason.DECRYPTION_FAILED,
        () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("p2c", FAST + 1)), PASSWORD));
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(flipBit(jwe, 1, 0), PASSWORD));
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(flipBit(jwe, 3, 5), PASSWORD));
    assertReason(Reason.DECRYPTION_FAILED, () -> EncryptedJwks.decrypt(flipBit(jwe, 4, 15), PASSWORD));
  }

  @Test
  void hugeIterationCountIsRefusedBeforeAnyWork() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    // 2^31-1 iterations would run PBKDF2 for hours; the refusal comes from the header alone.
    for (long p2c : new long[] {2_000_001L, Integer.MAX_VALUE, 1L << 40}) {
      assertReason(Reason.UNSAFE_PARAMETERS,
          () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("p2c", p2c)), PASSWORD));
    }
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.decrypt(
        withHeader(jwe, h -> h.put("p2c", new java.math.BigInteger("1000000000000000000000000"))), PASSWORD));
  }

  @Test
  void tinyIterationCountIsRefusedAsUnsafe() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    for (int p2c : new int[] {999, 1, 0, -5}) {
      assertReason(Reason.UNSAFE_PARAMETERS,
          () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("p2c", p2c)), PASSWORD));
    }
  }

  @Test
  void shortSaltIsRefusedAsUnsafe() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.decrypt(
        withHeader(jwe, h -> h.put("p2s", B64.encodeToString(new byte[7]))), PASSWORD));
  }

  @Test
  void unexpectedAlgorithmsAreRejectedAsMalformed() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    for (String alg : List.of("PBES2-HS256+A128KW", "dir", "none", "RSA-OAEP", "A128KW")) {
      assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("alg", alg)), PASSWORD));
      assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("alg", alg)), kek()));
    }
    for (String enc : List.of("A128GCM", "A256CBC-HS512", "")) {
      assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("enc", enc)), PASSWORD));
    }
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.remove("enc")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.remove("alg")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("alg", 5)), PASSWORD));
  }

  @Test
  void zipCritAndUnknownHeaderMembersAreRejectedAsMalformed() throws Exception {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("zip", "DEF")), PASSWORD));
    assertReason(Reason.MALFORMED,
        () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.putArray("crit").add("p2c")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("jku", "https://x")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("cty", "JWT")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("p2c", "100000")), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.put("p2c", 100000.5)), PASSWORD));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(jwe, h -> h.remove("p2s")), PASSWORD));
    byte[] kek = kek();
    String kw = EncryptedJwks.encrypt(KEYS, kek);
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(kw, h -> h.put("zip", "DEF")), kek));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(withHeader(kw, h -> h.put("p2c", 100000)), kek));
  }

  @Test
  void duplicatedHeaderMemberIsRejectedAsMalformed() {
    byte[] kek = kek();
    String[] p = EncryptedJwks.encrypt(KEYS, kek).split("\\.");
    p[0] = B64.encodeToString("{\"alg\":\"A256KW\",\"enc\":\"A256GCM\",\"enc\":\"A256GCM\"}".getBytes(StandardCharsets.UTF_8));
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(String.join(".", p), kek));
  }

  @Test
  void badStructureIsRejectedAsMalformed() {
    byte[] kek = kek();
    String jwe = EncryptedJwks.encrypt(KEYS, kek);
    String[] p = jwe.split("\\.");
    for (String bad : List.of("", "{\"keys\":[]}", "a.b.c.d", jwe + ".x", jwe.replace('.', ','),
        p[0] + ".." + p[2] + "." + p[3] + "." + p[4],         // empty encrypted key
        p[0] + "." + p[1] + "." + p[2] + ".." + p[4],          // empty ciphertext
        p[0] + "." + p[1] + "." + p[2] + p[2] + "." + p[3] + "." + p[4], // 24-byte IV
        p[0] + "." + p[1] + "." + p[2] + "." + p[3] + "." + p[4].substring(2), // short tag
        p[0] + "=." + p[1] + "." + p[2] + "." + p[3] + "." + p[4],
        p[0] + "." + p[1] + "." + p[2] + "." + p[3] + " ." + p[4],
        "bm90IGpzb24." + p[1] + "." + p[2] + "." + p[3] + "." + p[4],   // "not json"
        "WzFd." + p[1] + "." + p[2] + "." + p[3] + "." + p[4])) {    // [1]
      assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(bad, kek));
    }
  }

  @Test
  void nonCanonicalBase64IsRejectedAsMalformed() {
    byte[] kek = kek();
    String[] p = EncryptedJwks.encrypt(KEYS, kek).split("\\.");
    // The IV is 12 bytes = 16 characters, no spare bits; the 16-byte tag has 22 characters with
    // 4 spare bits, which a canonical encoding leaves zero.
    char last = p[4].charAt(21);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char other = alphabet.charAt(alphabet.indexOf(last) ^ 1);
    p[4] = p[4].substring(0, 21) + other;
    assertReason(Reason.MALFORMED, () -> EncryptedJwks.decrypt(String.join(".", p), kek));
  }

  @Test
  void oversizedInputIsRefusedUnread() {
    String huge = "a".repeat(EncryptedJwks.MAX_INPUT_CHARS + 1);
    KeyringException e = assertThrows(KeyringException.class, () -> EncryptedJwks.decrypt(huge, kek()));
    assertEquals(Reason.MALFORMED, e.reason());
    assertTrue(e.getMessage().contains("larger"), e.getMessage());
  }

  @Test
  void contentThatIsNotAKeySetIsRejectedAsMalformedAfterDecryption() throws Exception {
    // Seal "not a key set" the same way with jose4j, so the only fault is the content.
    byte[] kek = kek();
    org.jose4j.jwe.JsonWebEncryption jwe = new org.jose4j.jwe.JsonWebEncryption();
    jwe.setAlgorithmHeaderValue("A256KW");
    jwe.setEncryptionMethodHeaderParameter("A256GCM");
    jwe.setKey(new javax.crypto.spec.SecretKeySpec(kek, "AES"));
    jwe.setPayload("{\"keys\":[{\"kty\":\"oct\",\"kid\":\"short\",\"alg\":\"HS256\",\"k\":\"AAAA\"}]}");
    KeyringException e = assertThrows(KeyringException.class,
        () -> EncryptedJwks.decrypt(jwe.getCompactSerialization(), kek));
    assertEquals(Reason.MALFORMED, e.reason());
    assertFalse(e.getMessage().contains("AAAA"));
  }

  @Test
  void emptyPasswordIsRefusedAsUnsafeOnDecryption() {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    assertReason(Reason.UNSAFE_PARAMETERS, () -> EncryptedJwks.decrypt(jwe, new char[0]));
  }

  @Test
  void maxIterationsOutOfBoundsIsAProgrammerError() {
    String jwe = EncryptedJwks.encrypt(KEYS, kek());
    assertThrows(IllegalArgumentException.class, () -> EncryptedJwks.decrypt(jwe, PASSWORD, 999));
    assertThrows(IllegalArgumentException.class, () -> EncryptedJwks.decrypt(jwe, PASSWORD, 10_000_001));
  }

  @Test
  void errorMessagesNeverQuoteThePasswordOrSecrets() {
    String jwe = EncryptedJwks.encrypt(KEYS, PASSWORD, FAST);
    KeyringException e = assertThrows(KeyringException.class,
        () -> EncryptedJwks.decrypt(jwe, "wrong password here".toCharArray()));
    assertFalse(e.toString().contains("wrong password here"));
    assertFalse(e.toString().contains(new String(PASSWORD)));
    for (TokenKey k : KEYS.keys()) {
      assertFalse(e.toString().contains(secretOf(k)));
    }
  }

  @Test
  void callerPasswordAndKekArraysAreLeftIntact() {
    char[] pw = PASSWORD.clone();
    byte[] kek = kek();
    byte[] kekCopy = kek.clone();
    EncryptedJwks.decrypt(EncryptedJwks.encrypt(KEYS, pw, FAST), pw);
    EncryptedJwks.decrypt(EncryptedJwks.encrypt(KEYS, kek), kek);
    assertTrue(Arrays.equals(PASSWORD, pw));
    assertTrue(Arrays.equals(kekCopy, kek));
  }

  // ---- isEncrypted --------------------------------------------------------------------------

  @Test
  void isEncryptedTellsCompactJweFromJson() {
    assertTrue(EncryptedJwks.isEncrypted(EncryptedJwks.encrypt(KEYS, kek())));
    assertTrue(EncryptedJwks.isEncrypted("\n " + EncryptedJwks.encrypt(KEYS, kek()) + " \n"));
    assertFalse(EncryptedJwks.isEncrypted(KEYS.toJwksWithSecrets()));
    assertFalse(EncryptedJwks.isEncrypted("  {\"keys\":[]}"));
    assertFalse(EncryptedJwks.isEncrypted(""));
    assertFalse(EncryptedJwks.isEncrypted("a.b.c"));          // a JWS
    assertFalse(EncryptedJwks.isEncrypted("a.b.c.d.e.f"));
    assertFalse(EncryptedJwks.isEncrypted("a.b.c.d e.f"));
    assertFalse(EncryptedJwks.isEncrypted(".b.c.d.e"));
    assertTrue(EncryptedJwks.isEncrypted("a..c.d.e"));
  }
}
