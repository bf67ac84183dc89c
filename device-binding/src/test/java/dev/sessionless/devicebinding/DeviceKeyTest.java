package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class DeviceKeyTest {
  // RFC 7638 section 3.1: the example RSA key and its SHA-256 thumbprint.
  static final String RFC7638_N = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSo"
      + "c_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQ"
      + "MicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINH"
      + "aQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
  static final String RFC7638_JWK = "{\"kty\":\"RSA\",\"n\":\"" + RFC7638_N + "\",\"e\":\"AQAB\",\"alg\":\"RS256\","
      + "\"kid\":\"2011-04-29\"}";

  @Test
  void rsaThumbprintIsRfc7638sOwnExampleByteForByte() {
    DeviceKey key = DeviceKey.fromJwk(RFC7638_JWK);
    // The hash input, as section 3.1 prints it: required members, sorted, no whitespace.
    assertEquals("{\"e\":\"AQAB\",\"kty\":\"RSA\",\"n\":\"" + RFC7638_N + "\"}", key.toJwk());
    assertEquals("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", key.thumbprint());
    assertEquals("RS256", key.algorithm());
  }

  @Test
  void ecThumbprintMatchesNimbus() throws Exception {
    for (int i = 0; i < 20; i++) {
      KeyPair pair = ecPair();
      DeviceKey ours = DeviceKey.of(pair.getPublic());
      String theirs = new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic()).build()
          .computeThumbprint().toString();
      assertEquals(theirs, ours.thumbprint());
      // And the same key read back from its JWK has the same thumbprint.
      assertEquals(ours, DeviceKey.fromJwk(ours.toJwk()));
      assertTrue(ours.hasThumbprint(theirs));
    }
  }

  @Test
  void rsaThumbprintMatchesNimbus() throws Exception {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
    gen.initialize(2048);
    RSAPublicKey pub = (RSAPublicKey) gen.generateKeyPair().getPublic();
    assertEquals(new RSAKey.Builder(pub).build().computeThumbprint().toString(), DeviceKey.of(pub).thumbprint());
  }

  @Test
  void jwkWithPrivateMembersIsRefused() throws Exception {
    KeyPair pair = ecPair();
    String withD = new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic()).privateKey(pair.getPrivate())
        .build().toJSONString();
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(withD)).reason());
  }

  @Test
  void ecPointOffTheCurveIsRefused() throws Exception {
    String jwk = DeviceKey.of(ecPair().getPublic()).toJwk();
    // Flip the last character of y: still 32 bytes, no longer on the curve.
    int at = jwk.lastIndexOf('"') - 1;
    String bent = jwk.substring(0, at) + (jwk.charAt(at) == 'A' ? 'E' : 'A') + jwk.substring(at + 1);
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(bent)).reason());
  }

  @Test
  void otherCurvesAndShortRsaKeysAreRefused() throws Exception {
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp384r1"));
    KeyPair p384 = ec.generateKeyPair();
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class,
        () -> DeviceKey.of(p384.getPublic())).reason());
    String p384Jwk = new ECKey.Builder(Curve.P_384, (ECPublicKey) p384.getPublic()).build().toJSONString();
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(p384Jwk)).reason());
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(1024);
    RSAPublicKey shortKey = (RSAPublicKey) rsa.generateKeyPair().getPublic();
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class, () -> DeviceKey.of(shortKey)).reason());
    String octJwk = "{\"kty\":\"oct\",\"k\":\"AAAA\"}";
    assertEquals(Reason.BAD_KEY, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(octJwk)).reason());
  }

  @Test
  void paddedOrNonCanonicalBase64IsMalformed() {
    String padded = RFC7638_JWK.replace("\"AQAB\"", "\"AQAB==\"");
    assertEquals(Reason.MALFORMED, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(padded)).reason());
    String dup = "{\"kty\":\"RSA\",\"kty\":\"EC\"}";
    assertEquals(Reason.MALFORMED, assertThrows(DeviceBindingException.class, () -> DeviceKey.fromJwk(dup)).reason());
  }

  static KeyPair ecPair() throws Exception {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
    gen.initialize(new ECGenParameterSpec("secp256r1"));
    return gen.generateKeyPair();
  }
}
