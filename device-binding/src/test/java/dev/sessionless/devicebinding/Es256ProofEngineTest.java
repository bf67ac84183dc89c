package dev.sessionless.devicebinding;

import static dev.sessionless.devicebinding.ChallengesTest.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.internal.JwsSignatures;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ES256 proofs on both verification paths, core's P-256 engine (the default) and the JDK's
 * {@code Signature} (the {@code dev.sessionless.fastpath.dbsc-es256=off} switch): what one
 * accepts or refuses, so does the other, and device keys off P-256 never reach either.
 */
@Timeout(60)
class Es256ProofEngineTest {
  static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  static final Base64.Decoder B64D = Base64.getUrlDecoder();
  /** The order of P-256's base point. */
  static final BigInteger N = new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);
  /** P-256's field prime. */
  static final BigInteger P = new BigInteger("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF", 16);

  final Challenges challenges = Challenges.builder().keys(KeySet.of(TokenKey.generate("c", Algorithm.HS256)))
      .issuer("https://shop.example").build();
  final DeviceProof proofs = DeviceProof.verifier(challenges).build();
  final SimulatedBrowser browser = new SimulatedBrowser("ES256", Clock.systemUTC());
  final boolean engineBefore = JwsSignatures.engineOn();

  @AfterEach
  void restore() {
    JwsSignatures.useEngine(engineBefore);
  }

  @Test
  void coresEngineIsTheDefault() {
    assertTrue(JwsSignatures.engineOn(), "ES256 proofs run on core's engine unless "
        + JwsSignatures.PROPERTY + "=off");
  }

  @ParameterizedTest(name = "engine {0}")
  @ValueSource(booleans = {true, false})
  void nimbusAndSimulatedBrowserProofsVerifyOnBothPaths(boolean engine) throws Exception {
    JwsSignatures.useEngine(engine);
    ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).jwk(ec.toPublicJWK())
        .type(new JOSEObjectType("dbsc+jwt")).build(),
        new JWTClaimsSet.Builder().jwtID(challenges.issue(Purpose.REGISTRATION, "login-1")).build());
    jwt.sign(new ECDSASigner(ec));
    assertEquals(ec.computeThumbprint().toString(), register(jwt.serialize()).key().thumbprint());

    VerifiedProof registered = register(browser.sign(header(), payload()));
    browser.sessionId = "s-1";
    browser.takeChallenge(DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, "s-1"), "s-1"));
    VerifiedProof refreshed = proofs.verifyRefresh(DbscHeaders.readProof(browser.refreshProof(null)), "s-1",
        registered.key(), java.time.Instant.EPOCH, null);
    assertEquals(registered.key(), refreshed.key());
  }

  @ParameterizedTest(name = "engine {0}")
  @ValueSource(booleans = {true, false})
  void tamperedWrongKeyDerAndOutOfRangeSignaturesAreRefusedOnBothPaths(boolean engine) throws Exception {
    JwsSignatures.useEngine(engine);
    String good = browser.sign(header(), payload());
    String input = good.substring(0, good.lastIndexOf('.'));
    byte[] sig = B64D.decode(good.substring(good.lastIndexOf('.') + 1));

    for (int bit : new int[] {0, 255, 256, 511}) {
      byte[] flipped = sig.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      refused(Reason.BAD_SIGNATURE, () -> register(input + "." + B64.encodeToString(flipped)));
    }
    // Signed by another key than the proof's jwk.
    SimulatedBrowser other = new SimulatedBrowser("ES256", Clock.systemUTC());
    refused(Reason.BAD_SIGNATURE, () -> register(other.sign(header(), payload())));
    // DER (what a plain SHA256withECDSA makes): the right signature in the wrong form.
    String derInput = B64.encodeToString(SimulatedBrowser.JSON.writeValueAsBytes(header())) + "."
        + B64.encodeToString(SimulatedBrowser.JSON.writeValueAsBytes(payload()));
    Signature der = Signature.getInstance("SHA256withECDSA");
    der.initSign(browser.keys.getPrivate());
    der.update(derInput.getBytes(StandardCharsets.US_ASCII));
    String derProof = derInput + "." + B64.encodeToString(der.sign());
    refused(Reason.BAD_SIGNATURE, () -> register(derProof));
    // Too short, too long, r or s zero, r or s at or above the group order.
    byte[] r = java.util.Arrays.copyOfRange(sig, 0, 32);
    byte[] s = java.util.Arrays.copyOfRange(sig, 32, 64);
    for (byte[] bad : new byte[][] {java.util.Arrays.copyOf(sig, 63), java.util.Arrays.copyOf(sig, 65),
        concat(new byte[32], s), concat(r, new byte[32]), concat(fixed(N), s), concat(r, fixed(N)),
        concat(fixed(N.add(new BigInteger(1, r)).mod(BigInteger.TWO.pow(256))), s)}) {
      refused(Reason.BAD_SIGNATURE, () -> register(input + "." + B64.encodeToString(bad)));
    }
  }

  /**
   * The high-S twin {@code (r, n - s)} of a valid signature is itself valid ECDSA, and RFC 7518
   * does not ask for low S: both paths accept it (the challenge, not the signature's bytes, is
   * what makes a proof single-use).
   */
  @ParameterizedTest(name = "engine {0}")
  @ValueSource(booleans = {true, false})
  void theOtherSOfAValidSignatureIsAcceptedOnBothPaths(boolean engine) {
    JwsSignatures.useEngine(engine);
    Map<String, Object> payload = payload();
    String good = browser.sign(header(), payload);
    String input = good.substring(0, good.lastIndexOf('.'));
    byte[] sig = B64D.decode(good.substring(good.lastIndexOf('.') + 1));
    BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(sig, 32, 64));
    byte[] twin = concat(java.util.Arrays.copyOfRange(sig, 0, 32), fixed(N.subtract(s)));
    assertEquals("ES256", register(input + "." + B64.encodeToString(twin)).key().algorithm());
  }

  /**
   * An invalid-curve key: a point that satisfies another curve's equation (same a, another b),
   * the shape of an invalid-curve attack, and coordinates at or above p. Each is {@code BAD_KEY}
   * before any signature is checked, on both paths.
   */
  @ParameterizedTest(name = "engine {0}")
  @ValueSource(booleans = {true, false})
  void aJwkOffP256IsRefusedAsABadKeyOnBothPaths(boolean engine) {
    JwsSignatures.useEngine(engine);
    Map<String, Object> jwk = browser.publicJwk();
    BigInteger x = new BigInteger(1, B64D.decode((String) jwk.get("x")));
    BigInteger y = new BigInteger(1, B64D.decode((String) jwk.get("y")));
    BigInteger[][] points = {
        {x, y.add(BigInteger.ONE).mod(P)},     // on y^2 = x^3 - 3x + b' for another b'
        {BigInteger.ZERO, BigInteger.ZERO},    // how an encoder might write the identity
        {x.add(P), y},                         // x and x + p are the same field element: only x < p is a coordinate
        {x, y.add(P)},
        {P, BigInteger.ZERO}};
    for (BigInteger[] pt : points) {
      Map<String, Object> h = header();
      Map<String, Object> bad = new LinkedHashMap<>(jwk);
      bad.put("x", B64.encodeToString(pt[0].bitLength() > 256 ? pt[0].toByteArray() : fixed(pt[0])));
      bad.put("y", B64.encodeToString(pt[1].bitLength() > 256 ? pt[1].toByteArray() : fixed(pt[1])));
      h.put("jwk", bad);
      refused(Reason.BAD_KEY, () -> register(browser.sign(h, payload())));
      refused(Reason.BAD_KEY, () -> DeviceKey.fromJwk(SimulatedBrowser.JSON.writeValueAsString(bad)));
    }
    assertFalse(JwsSignatures.verify("ES256", browser.keys.getPublic(), new byte[1], new byte[0]));
  }

  private VerifiedProof register(String proof) {
    return proofs.verifyRegistration(proof, "login-1", null, null);
  }

  private Map<String, Object> header() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("alg", "ES256");
    h.put("typ", "dbsc+jwt");
    h.put("jwk", browser.publicJwk());
    return h;
  }

  private Map<String, Object> payload() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("jti", challenges.issue(Purpose.REGISTRATION, "login-1"));
    return p;
  }

  private static byte[] fixed(BigInteger v) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[32];
    int copy = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
