package dev.sessionless.devicebinding;

import static dev.sessionless.devicebinding.ChallengesTest.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Registration and refresh proofs as an attacker would craft them, each refused with its reason. */
@Timeout(60)
class DeviceProofAttackTest {
  static final String AUD = "https://shop.example/dbsc/register";
  static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
  final Challenges challenges = Challenges.builder().keys(KeySet.of(TokenKey.generate("c", Algorithm.HS256)))
      .issuer("https://shop.example").clock(clock).build();
  final DeviceProof proofs = DeviceProof.verifier(challenges).clock(clock).build();
  final SimulatedBrowser es = new SimulatedBrowser("ES256", clock);

  Map<String, Object> header(SimulatedBrowser b, boolean withJwk) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("alg", b.algorithm);
    h.put("typ", "dbsc+jwt");
    if (withJwk) {
      h.put("jwk", b.publicJwk());
    }
    return h;
  }

  Map<String, Object> payload(String challenge) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("jti", challenge);
    p.put("aud", AUD);
    return p;
  }

  String regChallenge() {
    return challenges.issue(Purpose.REGISTRATION, "login-1");
  }

  VerifiedProof register(String proof) {
    return proofs.verifyRegistration(proof, "login-1", AUD, null);
  }

  @Test
  void aGoodRegistrationProofIsAcceptedWithEitherAlgorithm() {
    VerifiedProof ok = register(es.sign(header(es, true), payload(regChallenge())));
    assertEquals("ES256", ok.key().algorithm());
    assertTrue(ok.key().hasThumbprint(DeviceKey.of(es.keys.getPublic()).thumbprint()));
    SimulatedBrowser rs = new SimulatedBrowser("RS256", clock);
    assertEquals("RS256", register(rs.sign(header(rs, true), payload(regChallenge()))).key().algorithm());
  }

  @Test
  void algNoneIsRefused() {
    Map<String, Object> h = header(es, true);
    h.put("alg", "none");
    String unsigned = es.sign(h, payload(regChallenge()));
    String stripped = unsigned.substring(0, unsigned.lastIndexOf('.') + 1);
    refused(Reason.UNSUPPORTED_ALGORITHM, () -> register(stripped));
    refused(Reason.UNSUPPORTED_ALGORITHM, () -> register(unsigned));
  }

  @Test
  void hs256WithThePublicKeyAsSecretIsRefused() throws Exception {
    Map<String, Object> h = header(es, true);
    h.put("alg", "HS256");
    String input = b64json(h) + "." + b64json(payload(regChallenge()));
    for (byte[] secret : new byte[][] {es.keys.getPublic().getEncoded(),
        DeviceKey.of(es.keys.getPublic()).toJwk().getBytes(StandardCharsets.UTF_8)}) {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      String forged = input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
      refused(Reason.UNSUPPORTED_ALGORITHM, () -> register(forged));
    }
  }

  @Test
  void aJwkWithPrivateMembersIsRefused() throws Exception {
    Map<String, Object> h = header(es, true);
    @SuppressWarnings("unchecked")
    Map<String, Object> jwk = (Map<String, Object>) h.get("jwk");
    jwk.put("d", B64.encodeToString(new byte[32]));
    refused(Reason.BAD_KEY, () -> register(es.sign(h, payload(regChallenge()))));
  }

  @Test
  void aProofSignedByAnotherKeyThanItsJwkIsRefused() {
    SimulatedBrowser other = new SimulatedBrowser("ES256", clock);
    refused(Reason.BAD_SIGNATURE, () -> register(other.sign(header(es, true), payload(regChallenge()))));
  }

  @Test
  void algMustFitTheKeyType() {
    SimulatedBrowser rs = new SimulatedBrowser("RS256", clock);
    Map<String, Object> h = header(rs, true);
    h.put("alg", "ES256");
    refused(Reason.WRONG_KEY, () -> register(rs.sign(h, payload(regChallenge()))));
  }

  @Test
  void anRsaKeyUnder2048BitsIsRefused() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(1024);
    var pair = g.generateKeyPair();
    var pub = (java.security.interfaces.RSAPublicKey) pair.getPublic();
    Map<String, Object> jwk = Map.of("kty", "RSA", "n", B64.encodeToString(SimulatedBrowser.strip(pub.getModulus().toByteArray())),
        "e", B64.encodeToString(SimulatedBrowser.strip(pub.getPublicExponent().toByteArray())));
    Map<String, Object> h = new LinkedHashMap<>(Map.of("alg", "RS256", "typ", "dbsc+jwt", "jwk", jwk));
    String input = b64json(h) + "." + b64json(payload(regChallenge()));
    Signature s = Signature.getInstance("SHA256withRSA");
    s.initSign(pair.getPrivate());
    s.update(input.getBytes(StandardCharsets.US_ASCII));
    String proof = input + "." + B64.encodeToString(s.sign());
    refused(Reason.BAD_KEY, () -> register(proof));
  }

  @Test
  void aDerEncodedEcdsaSignatureIsRefused() throws Exception {
    String input = b64json(header(es, true)) + "." + b64json(payload(regChallenge()));
    Signature s = Signature.getInstance("SHA256withECDSA");
    s.initSign(es.keys.getPrivate());
    s.update(input.getBytes(StandardCharsets.US_ASCII));
    String proof = input + "." + B64.encodeToString(s.sign());
    refused(Reason.BAD_SIGNATURE, () -> register(proof));
  }

  @Test
  void wrongTypeIsRefused() {
    Map<String, Object> h = header(es, true);
    h.put("typ", "JWT");
    refused(Reason.WRONG_TYPE, () -> register(es.sign(h, payload(regChallenge()))));
    h.remove("typ");
    refused(Reason.WRONG_TYPE, () -> register(es.sign(h, payload(regChallenge()))));
  }

  @Test
  void anOversizedProofIsRefusedBeforeParsing() {
    String huge = "x".repeat(8193);
    refused(Reason.TOO_LARGE, () -> register(huge));
    // Even one that would be a valid JWS: the length alone decides.
    Map<String, Object> p = payload(regChallenge());
    p.put("pad", "y".repeat(9000));
    refused(Reason.TOO_LARGE, () -> register(es.sign(header(es, true), p)));
  }

  @Test
  void malformedProofsAreRefusedAsMalformed() {
    for (String bad : new String[] {"a.b", "a.b.c.d", ".a.b", "!!.e30.AA", "e30=.e30.AA", "W10.e30.AA"}) {
      refused(Reason.MALFORMED, () -> register(bad));
    }
    Map<String, Object> h = header(es, true);
    h.put("crit", java.util.List.of("exp"));
    refused(Reason.MALFORMED, () -> register(es.sign(h, payload(regChallenge()))));
    refused(Reason.MALFORMED, () -> register(es.signRaw("{\"alg\":\"ES256\",\"alg\":\"none\",\"typ\":\"dbsc+jwt\"}",
        "{}")));
    refused(Reason.MALFORMED, () -> register(es.sign(header(es, false), payload(regChallenge()))));
    refused(Reason.MALFORMED, () -> register(es.sign(header(es, true), Map.of("aud", AUD))));
  }

  @Test
  void jsonWithTrailingContentIsMalformed() {
    String c = regChallenge();
    String header = SimulatedBrowser.JSON.writeValueAsString(header(es, true));
    refused(Reason.MALFORMED, () -> register(es.signRaw(header + " {}", "{\"jti\":\"" + c + "\"}")));
    refused(Reason.MALFORMED, () -> register(es.signRaw(header, "{\"jti\":\"" + c + "\"} x")));
  }

  @Test
  void mutatedProofsOnlyEverFailWithATypedRefusal() {
    String good = es.sign(header(es, true), payload(regChallenge()));
    java.util.Random random = new java.util.Random(38);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=\"{}";
    int refusedCount = 0;
    for (int i = 0; i < 3000; i++) {
      StringBuilder b = new StringBuilder(good);
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && b.length() > 0; e++) {
        int at = random.nextInt(b.length());
        switch (random.nextInt(3)) {
          case 0 -> b.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
          case 1 -> b.deleteCharAt(at);
          default -> b.setLength(at);
        }
      }
      String mutated = b.toString();
      try {
        register(mutated);
      } catch (DeviceBindingException expected) {
        refusedCount++;
        assertTrue(expected.reason().isRejection(), expected.toString());
      }
    }
    // Some mutations leave the proof valid (a change in unused trailing bits is refused as
    // MALFORMED; an edit of the signature's last char may not be): nearly all are refused.
    assertTrue(refusedCount > 2900, "refused " + refusedCount);
  }

  @Test
  void aChallengeNotOursOrForAnotherPurposeOrContextIsRefused() {
    refused(Reason.WRONG_CHALLENGE, () -> register(es.sign(header(es, true), payload("cv"))));
    String refresh = challenges.issue(Purpose.REFRESH, "login-1");
    refused(Reason.WRONG_CHALLENGE, () -> register(es.sign(header(es, true), payload(refresh))));
    String otherLogin = challenges.issue(Purpose.REGISTRATION, "login-2");
    refused(Reason.WRONG_SESSION, () -> register(es.sign(header(es, true), payload(otherLogin))));
  }

  @Test
  void anExpiredOrStaleProofIsRefused() {
    String proof = es.sign(header(es, true), payload(regChallenge()));
    clock.advance(Duration.ofMinutes(3));
    refused(Reason.EXPIRED, () -> register(proof));
    Map<String, Object> p = payload(regChallenge());
    p.put("iat", clock.instant().minus(Duration.ofHours(1)).getEpochSecond());
    refused(Reason.STALE, () -> register(es.sign(header(es, true), p)));
    p.put("iat", String.valueOf(clock.instant().getEpochSecond()));
    assertEquals("ES256", register(es.sign(header(es, true), p)).key().algorithm());
  }

  @Test
  void aProofForAnotherAudienceIsRefusedAndAMissingOneOnlyWhenRequired() {
    Map<String, Object> p = payload(regChallenge());
    p.put("aud", "https://evil.example/dbsc/register");
    refused(Reason.WRONG_AUDIENCE, () -> register(es.sign(header(es, true), p)));
    p.remove("aud");
    String noAud = es.sign(header(es, true), p);
    assertEquals("ES256", register(noAud).key().algorithm());
    DeviceProof strict = DeviceProof.verifier(challenges).clock(clock).requireAudience(true).build();
    refused(Reason.WRONG_AUDIENCE, () -> strict.verifyRegistration(noAud, "login-1", AUD, null));
  }

  @Test
  void theAuthorizationMustBeCopiedUnchanged() {
    Map<String, Object> p = payload(regChallenge());
    refused(Reason.WRONG_AUTHORIZATION, () -> proofs.verifyRegistration(es.sign(header(es, true), p), "login-1",
        AUD, "ac"));
    p.put("authorization", "ad");
    refused(Reason.WRONG_AUTHORIZATION, () -> proofs.verifyRegistration(es.sign(header(es, true), p), "login-1",
        AUD, "ac"));
    p.put("authorization", "ac");
    assertEquals("ac", proofs.verifyRegistration(es.sign(header(es, true), p), "login-1", AUD, "ac")
        .authorization().orElseThrow());
  }

  @Test
  void aRefreshProofIsCheckedAgainstTheSessionKeyNotItsOwnJwk() {
    DeviceKey sessionKey = DeviceKey.of(es.keys.getPublic());
    SimulatedBrowser thief = new SimulatedBrowser("ES256", clock);
    String c = challenges.issue(Purpose.REFRESH, "s-1");
    // The thief's own key, announced in the header: thumbprint mismatch.
    refused(Reason.WRONG_KEY, () -> proofs.verifyRefresh(thief.sign(header(thief, true), payload(c)), "s-1",
        sessionKey, Instant.EPOCH, null));
    // Without a jwk: the signature does not verify with the session's key.
    refused(Reason.BAD_SIGNATURE, () -> proofs.verifyRefresh(thief.sign(header(thief, false), payload(c)), "s-1",
        sessionKey, Instant.EPOCH, null));
    // The device's own proof, with or without its jwk, is accepted.
    assertEquals(sessionKey, proofs.verifyRefresh(es.sign(header(es, true), payload(c)), "s-1", sessionKey,
        Instant.EPOCH, null).key());
    clock.advance(Duration.ofMillis(1));
    String c2 = challenges.issue(Purpose.REFRESH, "s-1");
    assertEquals(sessionKey, proofs.verifyRefresh(es.sign(header(es, false), payload(c2)), "s-1", sessionKey,
        Instant.EPOCH, null).key());
    // A registration challenge is no refresh challenge.
    String reg = challenges.issue(Purpose.REGISTRATION, "s-1");
    refused(Reason.WRONG_CHALLENGE, () -> proofs.verifyRefresh(es.sign(header(es, false), payload(reg)), "s-1",
        sessionKey, Instant.EPOCH, null));
  }

  @Test
  void refusalsSayNothingSecret() {
    String c = regChallenge();
    DeviceBindingException e = org.junit.jupiter.api.Assertions.assertThrows(DeviceBindingException.class,
        () -> proofs.verifyRegistration(es.sign(header(es, true), payload(c)), "login-2", AUD, "secret-ac"));
    assertFalse(e.getMessage().contains(c));
    assertFalse(e.toString().contains("login-2"));
    assertFalse(e.toString().contains("secret-ac"));
  }

  static String b64json(Map<String, Object> m) {
    return B64.encodeToString(SimulatedBrowser.JSON.writeValueAsString(m).getBytes(StandardCharsets.UTF_8));
  }
}
