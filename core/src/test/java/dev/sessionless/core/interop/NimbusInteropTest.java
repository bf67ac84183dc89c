package dev.sessionless.core.interop;

import static dev.sessionless.core.interop.InteropFixtures.AUDIENCE;
import static dev.sessionless.core.interop.InteropFixtures.EC_ROUNDS;
import static dev.sessionless.core.interop.InteropFixtures.ISSUER;
import static dev.sessionless.core.interop.InteropFixtures.OUR_CLAIM_NAMES;
import static dev.sessionless.core.interop.InteropFixtures.PEER_AGE_SECONDS;
import static dev.sessionless.core.interop.InteropFixtures.PEER_REMAINING_SECONDS;
import static dev.sessionless.core.interop.InteropFixtures.PEER_SUBJECT;
import static dev.sessionless.core.interop.InteropFixtures.SUBJECT;
import static dev.sessionless.core.interop.InteropFixtures.assertNoSecretMembers;
import static dev.sessionless.core.interop.InteropFixtures.assertOurHeader;
import static dev.sessionless.core.interop.InteropFixtures.assertPeerReadOurState;
import static dev.sessionless.core.interop.InteropFixtures.assertPeerToken;
import static dev.sessionless.core.interop.InteropFixtures.header;
import static dev.sessionless.core.interop.InteropFixtures.json;
import static dev.sessionless.core.interop.InteropFixtures.lastSegment;
import static dev.sessionless.core.interop.InteropFixtures.ourClaims;
import static dev.sessionless.core.interop.InteropFixtures.stateAsJson;
import static dev.sessionless.core.interop.InteropFixtures.verifierJwk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.CompressionAlgorithm;
import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.DirectDecrypter;
import com.nimbusds.jose.crypto.DirectEncrypter;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tokens made here verify in Nimbus JOSE+JWT with Nimbus's own claim checks, and tokens Nimbus
 * makes decode here, for every kind of token; keys travel between the two as JWK and JWKS only.
 * Nimbus checks {@code exp} and {@code nbf} against the real clock, so each test takes the
 * current second as "now" and fixes our codec's clock to it.
 */
class NimbusInteropTest {
  /** Nimbus needs these in every token of ours; {@code nbf} too where we wrote one. */
  static final Set<String> REQUIRED = Set.of("iss", "aud", "sub", "iat", "exp", "jti");

  // ------------------------------------------------------------- our tokens, read by Nimbus

  /**
   * Our compressed payloads come in two DEFLATE forms: up to 512 bytes one block of fixed
   * Huffman codes from our own encoder, above that zlib's. Nimbus must inflate both.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 40, 300, 3000})
  void nimbusInflatesOurCompressedTokensBothAsFixedCodeBlocksAndAsZlibBlocks(int padding) throws Exception {
    InteropCase c = InteropCase.DIR_A256GCM_DEF;
    Instant now = now();
    TokenKey key = TokenKey.generate("zip-" + padding, c.algorithm);
    String pad = "pad-".repeat(padding / 4);
    String token = c.codec(KeySet.of(key), fixed(now))
        .encode(ourClaims("zip-" + padding, now.minusSeconds(60)).put("pad", pad).build());
    JWT jwt = readWithNimbus(c, token, JWK.parse(verifierJwk(key)));
    int payload = jwt.getJWTClaimsSet().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    assertEquals(padding <= 40, payload <= 512, "a " + payload + "-byte payload is on the "
        + (padding <= 40 ? "fixed-code" : "zlib") + " side of the 512-byte line");
    Map<String, Object> st = new java.util.LinkedHashMap<>(jwt.getJWTClaimsSet().getJSONObjectClaim("st"));
    assertEquals(pad, st.remove("pad"));
    assertPeerReadOurState(st);
  }

  /**
   * A compressed signed token (an extension: RFC 7515 has no {@code zip}): its signature is an
   * ordinary HS256 signature, but Nimbus finds no JSON claims in it, so it reads nothing.
   */
  @org.junit.jupiter.api.Test
  void nimbusVerifiesButCannotReadOurCompressedSignedToken() throws Exception {
    Instant now = now();
    TokenKey key = TokenKey.generate("hs-zip", Algorithm.HS256);
    String token = InteropFixtures.sld1Token(key, fixed(now), now.minusSeconds(60));
    SignedJWT jws = SignedJWT.parse(token);
    assertTrue(jws.verify(new MACVerifier(JWK.parse(verifierJwk(key)).toOctetSequenceKey())));
    java.text.ParseException refused = assertThrows(java.text.ParseException.class, jws::getJWTClaimsSet);
    assertTrue(refused.getMessage().contains("not a valid JSON object"), refused.getMessage());
  }

  /** {@code zip: SLD1} is Sessionless's own: Nimbus refuses it rather than read something else. */
  @org.junit.jupiter.api.Test
  void nimbusRefusesOurDictionaryCompressedToken() throws Exception {
    InteropCase c = InteropCase.DIR_A256GCM_DEF;
    Instant now = now();
    TokenKey key = TokenKey.generate("sld1", c.algorithm);
    String token = InteropFixtures.sld1Token(key, fixed(now), now.minusSeconds(60));
    EncryptedJWT jwe = EncryptedJWT.parse(token);
    assertEquals(new CompressionAlgorithm("SLD1"), jwe.getHeader().getCompressionAlgorithm());
    OctetSequenceKey secret = JWK.parse(verifierJwk(key)).toOctetSequenceKey();
    JOSEException refused = org.junit.jupiter.api.Assertions.assertThrows(JOSEException.class,
        () -> jwe.decrypt(new DirectDecrypter(secret)));
    assertTrue(refused.getMessage().contains("SLD1"), refused.getMessage());
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusVerifiesOurTokenAndReadsEveryClaim(InteropCase c) throws Exception {
    Instant now = now();
    Instant nbf = now.minusSeconds(60);
    TokenKey key = TokenKey.generate("ours-" + c, c.algorithm);
    String sessionId = "session-" + c;
    String token = c.codec(KeySet.of(key), fixed(now)).encode(ourClaims(sessionId, nbf).build());

    JWK jwk = JWK.parse(verifierJwk(key)); // our JWK, parsed by Nimbus
    assertEquals(key.kid(), jwk.getKeyID());
    assertEquals(c.alg(), jwk.getAlgorithm().getName());
    assertEquals(c.signs() ? KeyUse.SIGNATURE : KeyUse.ENCRYPTION, jwk.getKeyUse());
    JWT jwt = readWithNimbus(c, token, jwk);

    assertOurHeader(jwt.getHeader().toJSONObject(), c, key.kid());
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    new DefaultJWTClaimsVerifier<>(AUDIENCE, exactly(SUBJECT, sessionId), union(REQUIRED, "nbf")).verify(claims, null);
    assertEquals(OUR_CLAIM_NAMES, claims.getClaims().keySet());
    assertEquals(ISSUER, claims.getIssuer());
    assertEquals(List.of(AUDIENCE), claims.getAudience());
    assertEquals(SUBJECT, claims.getSubject());
    assertEquals(sessionId, claims.getJWTID());
    assertEquals(now, claims.getIssueTime().toInstant());
    assertEquals(now.plus(InteropCase.TTL), claims.getExpirationTime().toInstant());
    assertEquals(nbf, claims.getNotBeforeTime().toInstant());
    assertPeerReadOurState(claims.getJSONObjectClaim("st"));
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusRefusesOurTokenUnderAnotherKeyOfTheSameKid(InteropCase c) throws Exception {
    Instant now = now();
    TokenKey key = TokenKey.generate("shared-kid", c.algorithm);
    TokenKey impostor = TokenKey.generate("shared-kid", c.algorithm);
    String token = c.codec(KeySet.of(key), fixed(now)).encode(ourClaims("s-1", now).build());

    assertEquals("s-1", readWithNimbus(c, token, JWK.parse(verifierJwk(key))).getJWTClaimsSet().getJWTID());
    JWK wrong = JWK.parse(verifierJwk(impostor));
    if (c.signs()) {
      assertFalse(SignedJWT.parse(token).verify(verifier(wrong)), "Nimbus refuses the signature");
    } else {
      assertThrows(JOSEException.class, () -> EncryptedJWT.parse(token).decrypt(new DirectDecrypter((OctetSequenceKey) wrong)));
    }
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusEnforcesTheExpAndNbfWeWrote(InteropCase c) throws Exception {
    Instant now = now();
    TokenKey key = TokenKey.generate("k-" + c, c.algorithm);
    JWK jwk = JWK.parse(verifierJwk(key));
    DefaultJWTClaimsVerifier<?> verifier = new DefaultJWTClaimsVerifier<>(AUDIENCE, null, REQUIRED);

    // Issued two hours ago with our ten-minute lifetime: long expired, beyond Nimbus's skew.
    String stale = c.codec(KeySet.of(key), fixed(now.minus(Duration.ofHours(2)))).encode(ourClaims("old", now.minus(Duration.ofHours(2))).build());
    JWTClaimsSet staleClaims = readWithNimbus(c, stale, jwk).getJWTClaimsSet();
    BadJWTException expired = assertThrows(BadJWTException.class, () -> verifier.verify(staleClaims, null));
    assertTrue(expired.getMessage().contains("xpired"), expired.getMessage());

    // Not before an hour from now (living two hours, or it would never be valid at all).
    String early = c.codec(KeySet.of(key), fixed(now)).encode(
        ourClaims("early", now.plus(Duration.ofHours(1))).timeToLive(Duration.ofHours(2)).build());
    JWTClaimsSet earlyClaims = readWithNimbus(c, early, jwk).getJWTClaimsSet();
    assertThrows(BadJWTException.class, () -> verifier.verify(earlyClaims, null));

    // And the one issued now passes the same verifier.
    String fresh = c.codec(KeySet.of(key), fixed(now)).encode(ourClaims("fresh", now).build());
    verifier.verify(readWithNimbus(c, fresh, jwk).getJWTClaimsSet(), null);
  }

  // ------------------------------------------------------------ Nimbus's tokens, read here

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusTokenDecodesHereWithNimbusGeneratedKey(InteropCase c) throws Exception {
    Instant now = now();
    JWK theirs = generate(c, "nimbus-" + c);
    TokenKey imported = TokenKey.fromJwk(exportForVerifying(theirs));
    assertEquals(c.algorithm, imported.algorithm());
    assertEquals(theirs.getKeyID(), imported.kid());
    assertEquals(c.algorithm.isSymmetric(), imported.canSign(), "a public JWK imports verify-only");

    String sessionId = "nimbus-session-" + c;
    String token = nimbusToken(c, theirs, peerClaims(sessionId, now).build(), false);
    assertEquals(c.zip, header(token).containsKey("zip"));

    SessionToken t = c.codec(KeySet.of(imported), fixed(now)).decode(token);
    assertPeerToken(t, c, theirs.getKeyID(), sessionId, now);
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusTokenWithAudienceListTypHeaderAndUnknownClaimsDecodesHere(InteropCase c) throws Exception {
    Instant now = now();
    JWK theirs = generate(c, "nimbus-" + c);
    TokenCodec ours = c.codec(KeySet.of(TokenKey.fromJwk(exportForVerifying(theirs))), fixed(now));

    JWTClaimsSet claims = peerClaims("nimbus-extra-" + c, now)
        .audience(List.of("another-app", AUDIENCE))
        .claim("scope", "read write")
        .claim("amr", List.of("pwd", "otp"))
        .claim("ctx", Map.of("tenant", "t-1", "roles", List.of("a", "b"), "limits", Map.of("rpm", 60)))
        .build();
    String token = nimbusToken(c, theirs, claims, true);
    assertEquals("JWT", header(token).get("typ"));

    SessionToken t = ours.decode(token);
    assertPeerToken(t, c, theirs.getKeyID(), "nimbus-extra-" + c, now);

    JWTClaimsSet elsewhere = peerClaims("nimbus-elsewhere-" + c, now).audience(List.of("another-app", "a-third-app")).build();
    TokenException e = assertThrows(TokenException.class, () -> ours.decode(nimbusToken(c, theirs, elsewhere, true)));
    assertEquals(TokenException.Reason.WRONG_AUDIENCE, e.reason());
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusTokenUnderAnotherKeyOfTheSameKidIsRefusedHere(InteropCase c) throws Exception {
    Instant now = now();
    JWK theirs = generate(c, "nimbus-kid");
    JWK impostor = generate(c, "nimbus-kid");
    TokenCodec ours = c.codec(KeySet.of(TokenKey.fromJwk(exportForVerifying(theirs))), fixed(now));

    assertEquals("genuine", ours.decode(nimbusToken(c, theirs, peerClaims("genuine", now).build(), false)).id());
    TokenException e = assertThrows(TokenException.class,
        () -> ours.decode(nimbusToken(c, impostor, peerClaims("forged", now).build(), false)));
    assertEquals(c.signs() ? TokenException.Reason.BAD_SIGNATURE : TokenException.Reason.DECRYPTION_FAILED, e.reason());
  }

  @ParameterizedTest
  @EnumSource(value = InteropCase.class, names = {"ES256", "EDDSA"})
  void nimbusVerifiesOurTypedInternalTokenAndReadsItsTypAndClaims(InteropCase c) throws Exception {
    Instant now = now();
    TokenKey key = TokenKey.generate("internal-" + c, c.algorithm);
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(key)).algorithm(c.algorithm)
        .issuer(ISSUER).audience(AUDIENCE).timeToLive(Duration.ofSeconds(60))
        .tokenType("sl-internal+jwt").clock(fixed(now)).build();
    String token = codec.encode(dev.sessionless.core.Claims.builder().subject(SUBJECT).sessionId("jti-internal")
        .claim("sid", "session-1").claim("act", Map.of("sub", "https://edge.example")).build());

    SignedJWT jwt = (SignedJWT) readWithNimbus(c, token, JWK.parse(verifierJwk(key)));
    new com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("sl-internal+jwt"))
        .verify(jwt.getHeader().getType(), null);
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    new DefaultJWTClaimsVerifier<>(AUDIENCE, exactly(SUBJECT, "jti-internal"), REQUIRED).verify(claims, null);
    assertEquals("session-1", claims.getStringClaim("sid"));
    assertEquals(Map.of("sub", "https://edge.example"), claims.getJSONObjectClaim("act"));
    SessionToken back = codec.decode(token);
    assertEquals("\"session-1\"", back.claimJson("sid").orElseThrow());
  }

  // ------------------------------------------------------------------------ keys as JWK

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void ourTokenMadeWithNimbusPrivateJwkVerifiesInNimbus(InteropCase c) throws Exception {
    Instant now = now();
    JWK theirs = generate(c, "nimbus-private-" + c);
    TokenKey imported = TokenKey.fromJwk(theirs.toJSONString()); // Nimbus writes private parts too
    assertTrue(imported.canSign(), "a private or secret JWK imports able to sign");

    String token = c.codec(KeySet.of(imported), fixed(now)).encode(ourClaims("made-with-theirs", now).build());
    JWTClaimsSet claims = readWithNimbus(c, token, theirs).getJWTClaimsSet(); // Nimbus's own key object
    new DefaultJWTClaimsVerifier<>(AUDIENCE, exactly(SUBJECT, "made-with-theirs"), REQUIRED).verify(claims, null);
    assertPeerReadOurState(claims.getJSONObjectClaim("st"));
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void ourJwkSurvivesARoundTripThroughNimbusJwk(Algorithm a) throws Exception {
    TokenKey key = TokenKey.generate("round-trip-" + a, a);
    TokenKey back = TokenKey.fromJwk(JWK.parse(key.toJwkWithSecrets()).toJSONString());
    assertTrue(back.sameAs(key), "secret/private JWK through Nimbus and back: " + back);
    assertTrue(back.canSign());
    if (!a.isSymmetric()) {
      JWK parsed = JWK.parse(key.toPublicJwk());
      assertFalse(parsed.isPrivate());
      String publicOnly = parsed.toPublicJWK().toJSONString();
      assertNoSecretMembers(json(publicOnly));
      TokenKey pub = TokenKey.fromJwk(publicOnly);
      assertTrue(pub.sameAs(key.publicOnly()), "public JWK through Nimbus and back: " + pub);
      assertFalse(pub.canSign());
    }
  }

  // ----------------------------------------------------------------------- keys as JWKS

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusSelectsOurKeyByKidFromOurJwks(InteropCase c) throws Exception {
    Instant now = now();
    KeySet ours = rotatedKeySet(now);
    JWKSet jwks = JWKSet.parse(c.algorithm.isSymmetric() ? ours.toJwksWithSecrets() : ours.toPublicJwks());

    TokenKey current = ours.signingKey(c.algorithm, now).orElseThrow();
    assertEquals(c.alg() + "-next", current.kid());
    // A codec over the retired key alone (without its lifecycle) still signs with it.
    TokenKey stillSigning = ours.key(c.alg() + "-previous").orElseThrow().withLifecycle(null, null, null, null);
    for (TokenKey signer : List.of(current, stillSigning)) {
      TokenCodec codec = c.codec(signer == current ? ours : KeySet.of(stillSigning), fixed(now));
      String token = codec.encode(ourClaims("jwks-" + signer.kid(), now).build());

      JWT jwt = c.signs() ? SignedJWT.parse(token) : EncryptedJWT.parse(token);
      JWKMatcher matcher = c.signs() ? JWKMatcher.forJWSHeader((JWSHeader) jwt.getHeader())
          : JWKMatcher.forJWEHeader((JWEHeader) jwt.getHeader());
      List<JWK> selected = new JWKSelector(matcher).select(jwks);
      assertEquals(List.of(signer.kid()), selected.stream().map(JWK::getKeyID).collect(Collectors.toList()));
      JWTClaimsSet claims = readWithNimbus(c, token, selected.get(0)).getJWTClaimsSet();
      new DefaultJWTClaimsVerifier<>(AUDIENCE, exactly(SUBJECT, "jwks-" + signer.kid()), REQUIRED).verify(claims, null);
      assertPeerReadOurState(claims.getJSONObjectClaim("st"));
    }
  }

  @Test
  void ourPublicJwksGivesNimbusOnlyPublicKeys() throws Exception {
    KeySet ours = rotatedKeySet(now());
    String jwks = ours.toPublicJwks();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> members = (List<Map<String, Object>>) json(jwks).get("keys");
    members.forEach(InteropFixtures::assertNoSecretMembers);

    JWKSet parsed = JWKSet.parse(jwks);
    assertFalse(parsed.containsNonPublicKeys());
    Set<String> expected = ours.keys().stream().filter(k -> !k.algorithm().isSymmetric())
        .map(TokenKey::kid).collect(Collectors.toSet());
    assertEquals(expected, parsed.getKeys().stream().map(JWK::getKeyID).collect(Collectors.toSet()));
    for (JWK k : parsed.getKeys()) {
      assertEquals(KeyUse.SIGNATURE, k.getKeyUse(), k.getKeyID());
    }
    assertTrue(JWKSet.parse(ours.toJwksWithSecrets()).containsNonPublicKeys(), "the secrets JWKS does carry secrets");
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusJwksImportsAsOurKeySetAndItsTokensDecodeHere(InteropCase c) throws Exception {
    Instant now = now();
    Map<InteropCase, JWK> theirs = nimbusKeyPerAlgorithm();
    JWKSet set = new JWKSet(new ArrayList<>(new LinkedHashSet<>(theirs.values())));
    assertEquals(Algorithm.values().length, set.size());

    KeySet withSecrets = KeySet.fromJwks(set.toString(false));
    assertEquals(set.size(), withSecrets.keys().size());
    assertTrue(withSecrets.keys().stream().allMatch(TokenKey::canSign));
    KeySet publicOnly = KeySet.fromJwks(set.toPublicJWKSet().toString());
    assertEquals(Set.of("nimbus-set-ES256", "nimbus-set-EdDSA"),
        publicOnly.keys().stream().map(TokenKey::kid).collect(Collectors.toSet()));
    assertTrue(publicOnly.keys().stream().noneMatch(TokenKey::canSign));

    JWK key = theirs.get(c);
    String sessionId = "nimbus-jwks-" + c;
    String token = nimbusToken(c, key, peerClaims(sessionId, now).build(), false);
    assertPeerToken(c.codec(withSecrets, fixed(now)).decode(token), c, key.getKeyID(), sessionId, now);
    if (!c.algorithm.isSymmetric()) {
      assertPeerToken(c.codec(publicOnly, fixed(now)).decode(token), c, key.getKeyID(), sessionId, now);
    }
  }

  // ------------------------------------------------------------------- ES256 edge shapes

  @Test
  void nimbusVerifiesOurEs256SignaturesWithLeadingZeroBytesAndHighS() throws Exception {
    Instant now = now();
    TokenKey key = TokenKey.generate("ec-shapes", Algorithm.ES256);
    TokenCodec ours = InteropCase.ES256.codec(KeySet.of(key), fixed(now));
    JWSVerifier verifier = new ECDSAVerifier((ECKey) JWK.parse(key.toPublicJwk()));
    InteropFixtures.EcSignatureShapes shapes = new InteropFixtures.EcSignatureShapes();
    for (int i = 0; i < EC_ROUNDS && !shapes.complete(); i++) {
      // Deterministic signatures (RFC 6979): a new session id gives a new message and signature.
      String token = ours.encode(ourClaims("ec-" + i, now).build());
      shapes.add(lastSegment(token));
      assertTrue(SignedJWT.parse(token).verify(verifier), "Nimbus verifies our ES256 signature #" + i);
    }
    shapes.assertComplete();
  }

  @Test
  void nimbusEs256SignaturesWithLeadingZeroBytesAndHighSDecodeHere() throws Exception {
    Instant now = now();
    JWK theirs = generate(InteropCase.ES256, "nimbus-ec-shapes");
    TokenCodec ours = InteropCase.ES256.codec(KeySet.of(TokenKey.fromJwk(exportForVerifying(theirs))), fixed(now));
    InteropFixtures.EcSignatureShapes shapes = new InteropFixtures.EcSignatureShapes();
    for (int i = 0; i < EC_ROUNDS && !shapes.complete(); i++) {
      String token = nimbusToken(InteropCase.ES256, theirs, peerClaims("ec-" + i, now).build(), false);
      shapes.add(lastSegment(token));
      assertEquals("ec-" + i, ours.decode(token).id());
    }
    shapes.assertComplete();
  }

  @Test
  void nimbusEcKeysWhoseCoordinatesOrScalarStartWithZeroImportHere() throws Exception {
    Instant now = now();
    boolean x = false;
    boolean y = false;
    boolean d = false;
    int rounds = 0;
    for (; rounds < EC_ROUNDS && !(x && y && d); rounds++) {
      ECKey theirs = new ECKeyGenerator(Curve.P_256).keyID("ec-zero-" + rounds).generate();
      byte[] bx = theirs.getX().decode();
      byte[] by = theirs.getY().decode();
      byte[] bd = theirs.getD().decode();
      if (bx[0] != 0 && by[0] != 0 && bd[0] != 0) {
        continue;
      }
      x |= bx[0] == 0;
      y |= by[0] == 0;
      d |= bd[0] == 0;
      TokenKey imported = TokenKey.fromJwk(theirs.toJSONString());
      String token = InteropCase.ES256.codec(KeySet.of(imported), fixed(now)).encode(ourClaims("zero", now).build());
      assertTrue(SignedJWT.parse(token).verify(new ECDSAVerifier(theirs.toPublicJWK())), "key #" + rounds);
    }
    assertTrue(x && y && d, "after " + rounds + " keys: x " + x + ", y " + y + ", d " + d);
  }

  // --------------------------------------------------------------------------- helpers

  /** The current second: Nimbus checks against the real clock, our codec is fixed to this. */
  private static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS);
  }

  private static Clock fixed(Instant now) {
    return Clock.fixed(now, ZoneOffset.UTC);
  }

  private static Set<String> union(Set<String> a, String more) {
    Set<String> s = new LinkedHashSet<>(a);
    s.add(more);
    return s;
  }

  /** The claims Nimbus must find exactly so. */
  private static JWTClaimsSet exactly(String subject, String sessionId) {
    return new JWTClaimsSet.Builder().issuer(ISSUER).subject(subject).jwtID(sessionId).build();
  }

  /** Parses and verifies (or decrypts) a token with Nimbus under {@code jwk}; fails if it does not verify. */
  private static JWT readWithNimbus(InteropCase c, String token, JWK jwk) throws Exception {
    if (c.signs()) {
      SignedJWT jws = SignedJWT.parse(token);
      assertEquals(JWSAlgorithm.parse(c.alg()), jws.getHeader().getAlgorithm());
      assertTrue(jws.verify(verifier(jwk)), "Nimbus verifies the signature");
      return jws;
    }
    EncryptedJWT jwe = EncryptedJWT.parse(token);
    assertEquals(JWEAlgorithm.DIR, jwe.getHeader().getAlgorithm());
    assertEquals(EncryptionMethod.A256GCM, jwe.getHeader().getEncryptionMethod());
    assertEquals(c.zip ? CompressionAlgorithm.DEF : null, jwe.getHeader().getCompressionAlgorithm());
    jwe.decrypt(new DirectDecrypter((OctetSequenceKey) jwk));
    return jwe;
  }

  private static JWSVerifier verifier(JWK jwk) throws JOSEException {
    if (jwk instanceof ECKey) {
      return new ECDSAVerifier(((ECKey) jwk).toPublicJWK());
    }
    if (jwk instanceof OctetKeyPair) {
      return new Ed25519Verifier(((OctetKeyPair) jwk).toPublicJWK());
    }
    return new MACVerifier((OctetSequenceKey) jwk);
  }

  private static JWSSigner signer(JWK jwk) throws JOSEException {
    if (jwk instanceof ECKey) {
      return new ECDSASigner((ECKey) jwk);
    }
    if (jwk instanceof OctetKeyPair) {
      return new Ed25519Signer((OctetKeyPair) jwk);
    }
    return new MACSigner((OctetSequenceKey) jwk);
  }

  /** What a verifier of Nimbus's tokens gets: the secret JWK, or the public JWK of a pair. */
  private static String exportForVerifying(JWK jwk) {
    return jwk instanceof OctetSequenceKey ? jwk.toJSONString() : jwk.toPublicJWK().toJSONString();
  }

  /** A key Nimbus generates for this case, with a kid and (as our oct import requires) an alg. */
  private static JWK generate(InteropCase c, String kid) throws JOSEException {
    switch (c.algorithm) {
      case ES256:
        return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
      case EDDSA:
        return new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
      case DIR_A256GCM:
        return new OctetSequenceKeyGenerator(256).keyID(kid).algorithm(JWEAlgorithm.DIR).generate();
      default:
        return new OctetSequenceKeyGenerator(c.algorithm.minSecretBytes() * 8).keyID(kid)
            .algorithm(JWSAlgorithm.parse(c.alg())).generate();
    }
  }

  /** The claims Nimbus puts in its tokens: all of ours, with times around {@code now}. */
  private static JWTClaimsSet.Builder peerClaims(String sessionId, Instant now) {
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .subject(PEER_SUBJECT)
        .jwtID(sessionId)
        .issueTime(Date.from(now.minusSeconds(PEER_AGE_SECONDS)))
        .notBeforeTime(Date.from(now.minusSeconds(PEER_AGE_SECONDS)))
        .expirationTime(Date.from(now.plusSeconds(PEER_REMAINING_SECONDS)))
        .claim("st", stateAsJson());
  }

  /** A compact token Nimbus makes with its key: JWS, or dir+A256GCM JWE (compressed for the DEF case). */
  private static String nimbusToken(InteropCase c, JWK key, JWTClaimsSet claims, boolean typ) throws JOSEException {
    if (c.signs()) {
      JWSHeader.Builder h = new JWSHeader.Builder(JWSAlgorithm.parse(c.alg())).keyID(key.getKeyID());
      if (typ) {
        h.type(JOSEObjectType.JWT);
      }
      SignedJWT jws = new SignedJWT(h.build(), claims);
      jws.sign(signer(key));
      return jws.serialize();
    }
    JWEHeader.Builder h = new JWEHeader.Builder(JWEAlgorithm.DIR, EncryptionMethod.A256GCM).keyID(key.getKeyID());
    if (typ) {
      h.type(JOSEObjectType.JWT);
    }
    if (c.zip) {
      h.compressionAlgorithm(CompressionAlgorithm.DEF);
    }
    EncryptedJWT jwe = new EncryptedJWT(h.build(), claims);
    jwe.encrypt(new DirectEncrypter((OctetSequenceKey) key));
    return jwe.serialize();
  }

  /** Per algorithm, a retired key and the current one, around {@code now}: Nimbus must pick the kid the token names. */
  private static KeySet rotatedKeySet(Instant now) {
    Instant monthAgo = now.minus(Duration.ofDays(30));
    Instant dayAgo = now.minus(Duration.ofDays(1));
    List<TokenKey> keys = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      keys.add(TokenKey.generate(a.joseName() + "-previous", a).withLifecycle(monthAgo, monthAgo, dayAgo, null));
      keys.add(TokenKey.generate(a.joseName() + "-next", a).withLifecycle(monthAgo, dayAgo, null, null));
    }
    return KeySet.of(keys);
  }

  /** One Nimbus key per algorithm; both dir cases share one key, as a JWKS holds a kid once. */
  private static Map<InteropCase, JWK> nimbusKeyPerAlgorithm() throws JOSEException {
    Map<InteropCase, JWK> m = new EnumMap<>(InteropCase.class);
    for (InteropCase c : InteropCase.values()) {
      m.put(c, c == InteropCase.DIR_A256GCM_DEF ? m.get(InteropCase.DIR_A256GCM) : generate(c, "nimbus-set-" + c.alg()));
    }
    return m;
  }
}
