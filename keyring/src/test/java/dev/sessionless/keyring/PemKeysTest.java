package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM fixtures come from OpenSSL 3 ({@code src/test/resources/pem/generate.sh}) and the JDK. */
class PemKeysTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

  static Path fixture(String name) {
    try {
      return Path.of(PemKeysTest.class.getResource("/pem/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static String text(String name) {
    try {
      return Files.readString(fixture(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  static TokenCodec codec(TokenKey key) {
    return TokenCodec.builder().keys(KeySet.of(key)).algorithm(key.algorithm()).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).clock(CLOCK).build();
  }

  static void assertMalformed(String fixture, String messagePart) {
    KeyringException e = assertThrows(KeyringException.class, () -> PemKeys.read("k", fixture(fixture)));
    assertEquals(Reason.MALFORMED, e.reason(), fixture + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(messagePart), fixture + ": " + e.getMessage());
  }

  static String privateMember(TokenKey k) throws IOException {
    return new ObjectMapper().readTree(k.toJwkWithSecrets()).get("d").stringValue();
  }

  // ---- accepted -----------------------------------------------------------------------------

  @Test
  void opensslPkcs8P256KeyIsAnEs256SigningKey() {
    TokenKey k = PemKeys.read("ec", fixture("ec-p256-pkcs8.pem"));
    assertEquals("ec", k.kid());
    assertEquals(Algorithm.ES256, k.algorithm());
    assertTrue(k.canSign());
    assertTrue(k.activates().isEmpty() && k.expires().isEmpty(), "no lifecycle");
  }

  @Test
  void sec1AndSec1WithoutPublicAndEcparamOutputAreTheSameKeyAsPkcs8() {
    TokenKey pkcs8 = PemKeys.read("ec", fixture("ec-p256-pkcs8.pem"));
    for (String f : new String[] {"ec-p256-sec1.pem", "ec-p256-sec1-no-public.pem"}) {
      assertTrue(pkcs8.sameAs(PemKeys.read("ec", fixture(f))), f);
    }
    TokenKey genkey = PemKeys.read("ec", fixture("ec-p256-ecparam-genkey.pem"));
    assertEquals(Algorithm.ES256, genkey.algorithm());
    assertTrue(genkey.canSign());
  }

  @Test
  void publicPemIsTheVerificationOnlyHalfOfThePrivatePem() {
    TokenKey priv = PemKeys.read("ec", fixture("ec-p256-pkcs8.pem"));
    TokenKey pub = PemKeys.read("ec", fixture("ec-p256-public.pem"));
    assertFalse(pub.canSign());
    assertTrue(priv.publicOnly().sameAs(pub));
    assertTrue(pub.sameAs(PemKeys.read("ec", fixture("ec-p256-public-compressed.pem"))), "compressed point");
    TokenKey ed = PemKeys.read("ed", fixture("ed25519-pkcs8.pem"));
    TokenKey edPub = PemKeys.read("ed", fixture("ed25519-public.pem"));
    assertEquals(Algorithm.EDDSA, ed.algorithm());
    assertTrue(ed.canSign());
    assertFalse(edPub.canSign());
    assertTrue(ed.publicOnly().sameAs(edPub));
  }

  @Test
  void pemPrivateKeySignsTokensThatThePublicPemVerifies() {
    for (String[] pair : new String[][] {{"ec-p256-pkcs8.pem", "ec-p256-public.pem"},
        {"ec-p256-sec1.pem", "ec-p256-public-compressed.pem"}, {"ed25519-pkcs8.pem", "ed25519-public.pem"}}) {
      TokenCodec signer = codec(PemKeys.read("k1", fixture(pair[0])));
      TokenCodec verifier = codec(PemKeys.read("k1", fixture(pair[1])));
      String token = signer.encode(Claims.builder().subject("alice").build());
      assertEquals("alice", verifier.decode(token).subject().orElseThrow(), pair[0]);
      assertEquals(TokenException.Reason.NO_SIGNING_KEY,
          assertThrows(TokenException.class, () -> verifier.encode(Claims.builder().build())).reason());
    }
  }

  @Test
  void keyFromAnotherPemDoesNotVerify() {
    TokenCodec signer = codec(PemKeys.read("k1", fixture("ec-p256-pkcs8.pem")));
    TokenCodec other = codec(PemKeys.read("k1", fixture("ec-p256-ecparam-genkey.pem")).publicOnly());
    String token = signer.encode(Claims.builder().build());
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> other.decode(token)).reason());
  }

  @Test
  void jdkGeneratedP256PemSignsWhatTheJdkVerifiesAndViceVersa() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair pair = g.generateKeyPair();
    TokenKey priv = PemKeys.read("jdk", pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    TokenKey pub = PemKeys.read("jdk", pem("PUBLIC KEY", pair.getPublic().getEncoded()));
    assertTrue(priv.publicOnly().sameAs(pub));
    String token = codec(priv).encode(Claims.builder().build());
    assertTrue(jdkVerifies("SHA256withECDSAinP1363Format", pair.getPublic(), token));
    assertEquals("jdk", codec(pub).decode(token).keyId());
  }

  @Test
  void jdkGeneratedEd25519PemSignsWhatTheJdkVerifies() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    TokenKey priv = PemKeys.read("jdk", pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    TokenKey pub = PemKeys.read("jdk", pem("PUBLIC KEY", pair.getPublic().getEncoded()));
    assertTrue(priv.publicOnly().sameAs(pub));
    String token = codec(priv).encode(Claims.builder().build());
    assertTrue(jdkVerifies("Ed25519", pair.getPublic(), token));
  }

  static boolean jdkVerifies(String algorithm, PublicKey key, String token) throws Exception {
    int dot = token.lastIndexOf('.');
    Signature s = Signature.getInstance(algorithm);
    s.initVerify(key);
    s.update(token.substring(0, dot).getBytes(StandardCharsets.US_ASCII));
    return s.verify(Base64.getUrlDecoder().decode(token.substring(dot + 1)));
  }

  @Test
  void textAroundThePemBlockIsIgnored() {
    String pem = "Bag Attributes\n    friendlyName: test\n" + text("ed25519-pkcs8.pem") + "trailing notes\n";
    assertEquals(Algorithm.EDDSA, PemKeys.read("ed", pem).algorithm());
  }

  // ---- refused ------------------------------------------------------------------------------

  @Test
  void otherCurvesAreRejectedAsMalformedNamingTheCurve() {
    assertMalformed("ec-p384-pkcs8.pem", "secp384r1");
    assertMalformed("ec-p384-sec1.pem", "secp384r1");
    assertMalformed("ec-p384-public.pem", "secp384r1");
    assertMalformed("ec-secp256k1-sec1.pem", "secp256k1");
    assertMalformed("ed448-pkcs8.pem", "Ed448");
    assertMalformed("x25519-pkcs8.pem", "X25519");
  }

  @Test
  void rsaKeysAreRejectedAsMalformed() {
    assertMalformed("rsa-pkcs8.pem", "RSA");
    assertMalformed("rsa-public.pem", "RSA");
    assertMalformed("rsa-traditional.pem", "RSA");
  }

  @Test
  void explicitCurveParametersAreRejectedAsMalformed() {
    assertMalformed("ec-p256-sec1-explicit.pem", "explicit");
  }

  @Test
  void encryptedPemIsRejectedAsMalformedWithAHint() {
    assertMalformed("ec-p256-encrypted.pem", "encrypted");
  }

  @Test
  void certificateIsRejectedAsMalformedWithAHint() {
    assertMalformed("ec-p256-cert.pem", "certificate");
  }

  @Test
  void twoKeysInOneFileAreRejectedAsMalformed() {
    assertMalformed("two-private-keys.pem", "more than one");
  }

  @Test
  void emptyGarbageAndBrokenPemAreRejectedAsMalformed() {
    String ed = text("ed25519-pkcs8.pem");
    for (String bad : new String[] {"", "hello", "{\"kty\":\"OKP\"}",
        ed.replace("MC4CAQAw", "MC4C!!Aw"),                       // bad base64
        ed.replace("MC4CAQAw", "MC5CAQAw"),                       // bad DER length
        "-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n",
        text("ec-p256-ecparam-genkey.pem").split("-----BEGIN EC PRIVATE")[0]}) {  // parameters only
      KeyringException e = assertThrows(KeyringException.class, () -> PemKeys.read("k", bad), bad);
      assertEquals(Reason.MALFORMED, e.reason(), bad);
    }
    assertEquals(Reason.MALFORMED, assertThrows(KeyringException.class,
        () -> PemKeys.read("k", "x".repeat(PemKeys.MAX_PEM_CHARS + 1))).reason());
  }

  @Test
  void mismatchedEmbeddedPublicKeyIsRejectedAsMalformed() throws Exception {
    // A PKCS#8 P-256 key whose embedded public point belongs to another key.
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    byte[] a = g.generateKeyPair().getPrivate().getEncoded();
    byte[] sec1 = Files.readAllBytes(fixture("ec-p256-sec1.pem"));
    // Splice: the fixture's SEC1 structure carries its own public key; swap in another scalar.
    org.bouncycastle.asn1.sec.ECPrivateKey fixtureKey = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(
        new org.bouncycastle.openssl.PEMParser(new java.io.StringReader(new String(sec1, StandardCharsets.US_ASCII)))
            .readPemObject().getContent());
    java.math.BigInteger otherD = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(
        org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(a).parsePrivateKey()).getKey();
    org.bouncycastle.asn1.sec.ECPrivateKey spliced = new org.bouncycastle.asn1.sec.ECPrivateKey(256, otherD,
        fixtureKey.getPublicKey(), fixtureKey.getParametersObject());
    KeyringException e = assertThrows(KeyringException.class,
        () -> PemKeys.read("k", pem("EC PRIVATE KEY", spliced.getEncoded())));
    assertEquals(Reason.MALFORMED, e.reason());
    assertTrue(e.getMessage().contains("does not match"), e.getMessage());
  }

  @Test
  void missingFileIsUnavailable(@TempDir Path dir) {
    assertEquals(Reason.UNAVAILABLE, assertThrows(KeyringException.class,
        () -> PemKeys.read("k", dir.resolve("absent.pem"))).reason());
  }

  @Test
  void badKidIsTheCallersError() {
    assertThrows(IllegalArgumentException.class, () -> PemKeys.read("", text("ed25519-pkcs8.pem")));
    assertThrows(IllegalArgumentException.class, () -> PemKeys.read("a b", text("ed25519-pkcs8.pem")));
  }

  @Test
  void neitherKeyNorErrorsPrintThePrivateKey() throws Exception {
    for (String f : new String[] {"ec-p256-pkcs8.pem", "ed25519-pkcs8.pem"}) {
      TokenKey k = PemKeys.read("k", fixture(f));
      String d = privateMember(k);
      assertFalse(k.toString().contains(d));
      String corrupted = text(f).replace("-----END PRIVATE KEY-----", "-----END PRIVATE KEY-----\n" + text(f));
      KeyringException e = assertThrows(KeyringException.class, () -> PemKeys.read("k", corrupted));
      assertFalse(e.toString().contains(d));
      for (String line : text(f).split("\n")) {
        if (!line.startsWith("-----")) {
          assertFalse(e.toString().contains(line), "no PEM content in the message");
        }
      }
    }
  }

  @Test
  void pemKeysJoinAKeySetWithALifecycle() {
    TokenKey k = PemKeys.read("ed-2026", fixture("ed25519-pkcs8.pem"))
        .withLifecycle(null, CLOCK.instant(), null, null);
    KeySet set = KeySet.fromJwks(KeySet.of(k).toJwksWithSecrets());
    assertTrue(k.sameAs(set.key("ed-2026").orElseThrow()));
  }

  @Test
  void pemKeysFollowTheOneKidRuleOfCore() {
    for (String kid : new String[] {"", "has space", "quote\"d", "back\\slash", "x".repeat(129), "caf\u00e9"}) {
      IllegalArgumentException core = assertThrows(IllegalArgumentException.class,
          () -> TokenKey.generate(kid, Algorithm.ES256));
      IllegalArgumentException pem = assertThrows(IllegalArgumentException.class,
          () -> PemKeys.read(kid, fixture("ec-p256-pkcs8.pem")));
      assertEquals(core.getMessage(), pem.getMessage(), "one rule, one message: " + kid);
    }
    assertEquals("x".repeat(128), PemKeys.read("x".repeat(128), fixture("ec-p256-pkcs8.pem")).kid());
  }
}
