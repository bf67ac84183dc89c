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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import java.security.Key;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jose4j.json.JsonUtil;
import org.jose4j.jwa.AlgorithmConstraints.ConstraintType;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.JsonWebEncryption;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKey.OutputControlLevel;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.OctJwkGenerator;
import org.jose4j.jwk.OctetKeyPairJsonWebKey;
import org.jose4j.jwk.OkpJwkGenerator;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwt.consumer.JwtContext;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.keys.resolvers.JwksDecryptionKeyResolver;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.jose4j.lang.JoseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tokens made here verify in jose4j with jose4j's own claim checks, and tokens jose4j makes
 * decode here, for every kind of token; keys travel between the two as JWK and JWKS only.
 * Time is fixed: our codecs run on a fixed clock and jose4j evaluates at the same instant.
 */
class Jose4jInteropTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final Instant NBF = NOW.minusSeconds(60);

  // ------------------------------------------------------------- our tokens, read by jose4j

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jVerifiesOurTokenAndReadsEveryClaim(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("ours-" + c, c.algorithm);
    String sessionId = "session-" + c;
    String token = c.codec(KeySet.of(key), CLOCK).encode(ourClaims(sessionId, NBF).build());

    JsonWebKey jwk = JsonWebKey.Factory.newJwk(verifierJwk(key)); // our JWK, parsed by jose4j
    assertEquals(key.kid(), jwk.getKeyId());
    assertEquals(c.alg(), jwk.getAlgorithm());
    JwtContext context = consumer(c, NOW).setRequireNotBefore()
        .setExpectedSubject(SUBJECT)
        .setVerificationKey(verificationKey(jwk)).setDecryptionKey(verificationKey(jwk))
        .build().process(token);

    assertOurHeader(headerAsJose4jReadsIt(context), c, key.kid());
    JwtClaims claims = context.getJwtClaims();
    assertEquals(OUR_CLAIM_NAMES, Set.copyOf(claims.getClaimNames()));
    assertEquals(ISSUER, claims.getIssuer());
    assertEquals(AUDIENCE, claims.getClaimValue("aud"), "aud is one string");
    assertEquals(List.of(AUDIENCE), claims.getAudience());
    assertEquals(SUBJECT, claims.getSubject());
    assertEquals(sessionId, claims.getJwtId());
    assertEquals(NOW.getEpochSecond(), claims.getIssuedAt().getValue());
    assertEquals(NOW.plus(InteropCase.TTL).getEpochSecond(), claims.getExpirationTime().getValue());
    assertEquals(NBF.getEpochSecond(), claims.getNotBefore().getValue());
    assertPeerReadOurState(claims.getClaimValue("st"));
  }

  /**
   * Our compressed payloads come in two DEFLATE forms: up to 512 bytes one block of fixed
   * Huffman codes from our own encoder, above that zlib's. jose4j must inflate both.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 40, 300, 3000})
  void jose4jInflatesOurCompressedTokensBothAsFixedCodeBlocksAndAsZlibBlocks(int padding) throws Exception {
    InteropCase c = InteropCase.DIR_A256GCM_DEF;
    TokenKey key = TokenKey.generate("zip-" + padding, c.algorithm);
    String pad = "pad-".repeat(padding / 4);
    String token = c.codec(KeySet.of(key), CLOCK)
        .encode(ourClaims("zip-" + padding, NBF).put("pad", pad).build());
    JsonWebKey jwk = JsonWebKey.Factory.newJwk(verifierJwk(key));
    JwtClaims claims = consumer(c, NOW).setVerificationKey(verificationKey(jwk))
        .setDecryptionKey(verificationKey(jwk)).build().processToClaims(token);
    @SuppressWarnings("unchecked")
    Map<String, Object> st = (Map<String, Object>) claims.getClaimValue("st");
    int payload = claims.getRawJson().getBytes(StandardCharsets.UTF_8).length;
    assertEquals(padding <= 40, payload <= 512, "a " + payload + "-byte payload is on the "
        + (padding <= 40 ? "fixed-code" : "zlib") + " side of the 512-byte line");
    assertEquals(pad, st.get("pad"));
    st.remove("pad");
    assertPeerReadOurState(st);
  }

  /**
   * A compressed signed token (an extension: RFC 7515 has no {@code zip}): jose4j finds no JSON
   * claims in it, so it reads nothing.
   */
  @org.junit.jupiter.api.Test
  void jose4jRefusesOurCompressedSignedToken() throws Exception {
    InteropCase c = InteropCase.HS256;
    TokenKey key = TokenKey.generate("hs-zip", c.algorithm);
    String token = InteropFixtures.sld1Token(key, CLOCK, NBF);
    JsonWebKey jwk = JsonWebKey.Factory.newJwk(verifierJwk(key));
    Exception refused = org.junit.jupiter.api.Assertions.assertThrows(
        org.jose4j.jwt.consumer.InvalidJwtException.class, () -> consumer(c, NOW)
            .setVerificationKey(verificationKey(jwk)).build().processToClaims(token));
    assertTrue(refused.getMessage().contains("Unable to parse what was expected to be the JWT Claim Set JSON"),
        refused.getMessage());
  }

  /** {@code zip: SLD1} is Sessionless's own: jose4j refuses it rather than read something else. */
  @org.junit.jupiter.api.Test
  void jose4jRefusesOurDictionaryCompressedToken() throws Exception {
    InteropCase c = InteropCase.DIR_A256GCM_DEF;
    TokenKey key = TokenKey.generate("sld1", c.algorithm);
    String token = InteropFixtures.sld1Token(key, CLOCK, NBF);
    JsonWebKey jwk = JsonWebKey.Factory.newJwk(verifierJwk(key));
    Exception refused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> consumer(c, NOW)
        .setVerificationKey(verificationKey(jwk)).setDecryptionKey(verificationKey(jwk)).build()
        .processToClaims(token));
    assertTrue(String.valueOf(refused.getMessage()).contains("SLD1"), refused.getMessage());
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jRefusesOurTokenUnderAnotherKeyOfTheSameKid(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("shared-kid", c.algorithm);
    TokenKey impostor = TokenKey.generate("shared-kid", c.algorithm);
    String token = c.codec(KeySet.of(key), CLOCK).encode(ourClaims("s-1", NBF).build());

    Key right = verificationKey(JsonWebKey.Factory.newJwk(verifierJwk(key)));
    Key wrong = verificationKey(JsonWebKey.Factory.newJwk(verifierJwk(impostor)));
    assertEquals("s-1", consumer(c, NOW).setVerificationKey(right).setDecryptionKey(right).build()
        .processToClaims(token).getJwtId());
    assertThrows(InvalidJwtException.class,
        () -> consumer(c, NOW).setVerificationKey(wrong).setDecryptionKey(wrong).build().processToClaims(token));
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jEnforcesTheExpAndNbfWeWrote(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("k-" + c, c.algorithm);
    String token = c.codec(KeySet.of(key), CLOCK).encode(ourClaims("s-2", NBF).build());
    Key k = verificationKey(JsonWebKey.Factory.newJwk(verifierJwk(key)));
    Instant exp = NOW.plus(InteropCase.TTL);

    assertEquals("s-2", jose4jAt(c, k, exp.minusSeconds(1)).processToClaims(token).getJwtId());
    assertEquals("s-2", jose4jAt(c, k, NBF).processToClaims(token).getJwtId());
    InvalidJwtException expired = assertThrows(InvalidJwtException.class,
        () -> jose4jAt(c, k, exp).processToClaims(token));
    assertTrue(expired.hasExpired(), expired::getMessage);
    InvalidJwtException early = assertThrows(InvalidJwtException.class,
        () -> jose4jAt(c, k, NBF.minusSeconds(1)).processToClaims(token));
    assertTrue(early.hasErrorCode(ErrorCodes.NOT_YET_VALID), early::getMessage);
  }

  // ------------------------------------------------------------ jose4j's tokens, read here

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jTokenDecodesHereWithJose4jGeneratedKey(InteropCase c) throws Exception {
    JsonWebKey theirs = generate(c, "jose4j-" + c);
    TokenKey imported = TokenKey.fromJwk(theirs.toJson(
        c.algorithm.isSymmetric() ? OutputControlLevel.INCLUDE_SYMMETRIC : OutputControlLevel.PUBLIC_ONLY));
    assertEquals(c.algorithm, imported.algorithm());
    assertEquals(theirs.getKeyId(), imported.kid());
    assertEquals(c.algorithm.isSymmetric(), imported.canSign(), "a public JWK imports verify-only");

    String sessionId = "jose4j-session-" + c;
    String token = jose4jToken(c, theirs, peerClaims(sessionId), false);
    assertEquals(c.zip, header(token).containsKey("zip"));

    SessionToken t = c.codec(KeySet.of(imported), CLOCK).decode(token);
    assertPeerToken(t, c, theirs.getKeyId(), sessionId, NOW);
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jTokenWithAudienceListTypHeaderAndUnknownClaimsDecodesHere(InteropCase c) throws Exception {
    JsonWebKey theirs = generate(c, "jose4j-" + c);
    TokenCodec ours = c.codec(KeySet.of(TokenKey.fromJwk(theirs.toJson(OutputControlLevel.INCLUDE_SYMMETRIC))), CLOCK);

    JwtClaims claims = peerClaims("jose4j-extra-" + c);
    claims.setAudience("another-app", AUDIENCE);
    claims.setClaim("scope", "read write");
    claims.setClaim("amr", List.of("pwd", "otp"));
    claims.setClaim("ctx", Map.of("tenant", "t-1", "roles", List.of("a", "b"), "limits", Map.of("rpm", 60)));
    String token = jose4jToken(c, theirs, claims, true);
    assertEquals("JWT", header(token).get("typ"));

    SessionToken t = ours.decode(token);
    assertPeerToken(t, c, theirs.getKeyId(), "jose4j-extra-" + c, NOW);

    JwtClaims elsewhere = peerClaims("jose4j-elsewhere-" + c);
    elsewhere.setAudience("another-app", "a-third-app");
    TokenException e = assertThrows(TokenException.class, () -> ours.decode(jose4jToken(c, theirs, elsewhere, true)));
    assertEquals(TokenException.Reason.WRONG_AUDIENCE, e.reason());
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jTokenUnderAnotherKeyOfTheSameKidIsRefusedHere(InteropCase c) throws Exception {
    JsonWebKey theirs = generate(c, "jose4j-kid");
    JsonWebKey impostor = generate(c, "jose4j-kid");
    TokenCodec ours = c.codec(KeySet.of(TokenKey.fromJwk(theirs.toJson(OutputControlLevel.INCLUDE_SYMMETRIC))), CLOCK);

    assertEquals("genuine", ours.decode(jose4jToken(c, theirs, peerClaims("genuine"), false)).id());
    TokenException e = assertThrows(TokenException.class,
        () -> ours.decode(jose4jToken(c, impostor, peerClaims("forged"), false)));
    assertEquals(c.signs() ? TokenException.Reason.BAD_SIGNATURE : TokenException.Reason.DECRYPTION_FAILED, e.reason());
  }

  // ------------------------------------------------------------------------ keys as JWK

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void ourTokenMadeWithJose4jPrivateJwkVerifiesInJose4j(InteropCase c) throws Exception {
    JsonWebKey theirs = generate(c, "jose4j-private-" + c);
    TokenKey imported = TokenKey.fromJwk(theirs.toJson(OutputControlLevel.INCLUDE_PRIVATE));
    assertTrue(imported.canSign(), "a private or secret JWK imports able to sign");

    String token = c.codec(KeySet.of(imported), CLOCK).encode(ourClaims("made-with-theirs", NBF).build());
    Key k = verificationKey(theirs); // jose4j's own key object, not one re-exported from here
    JwtClaims claims = consumer(c, NOW).setVerificationKey(k).setDecryptionKey(k).build().processToClaims(token);
    assertEquals("made-with-theirs", claims.getJwtId());
    assertEquals(SUBJECT, claims.getSubject());
    assertPeerReadOurState(claims.getClaimValue("st"));
  }

  @ParameterizedTest
  @EnumSource(value = InteropCase.class, names = {"ES256", "EDDSA"})
  void jose4jVerifiesOurTypedInternalTokenAndReadsItsTypAndClaims(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("internal-" + c, c.algorithm);
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(key)).algorithm(c.algorithm)
        .issuer(ISSUER).audience(AUDIENCE).timeToLive(Duration.ofSeconds(60))
        .tokenType("sl-internal+jwt").clock(CLOCK).build();
    String token = codec.encode(dev.sessionless.core.Claims.builder().subject(SUBJECT).sessionId("jti-internal")
        .claim("sid", "session-1").claim("act", Map.of("sub", "https://edge.example")).build());

    Key k = verificationKey(JsonWebKey.Factory.newJwk(verifierJwk(key)));
    JwtClaims claims = consumer(c, NOW).setExpectedType(true, "sl-internal+jwt").setVerificationKey(k).build()
        .processToClaims(token);
    assertEquals("jti-internal", claims.getJwtId());
    assertEquals("session-1", claims.getStringClaimValue("sid"));
    assertEquals(Map.of("sub", "https://edge.example"), claims.getClaimValue("act"));
    // jose4j, asked for another type, refuses it: the typ is really in the signed header.
    assertThrows(org.jose4j.jwt.consumer.InvalidJwtException.class,
        () -> consumer(c, NOW).setExpectedType(true, "at+jwt").setVerificationKey(k).build().processToClaims(token));
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void ourJwkSurvivesARoundTripThroughJose4jJwk(Algorithm a) throws Exception {
    TokenKey key = TokenKey.generate("round-trip-" + a, a);
    TokenKey back = TokenKey.fromJwk(JsonWebKey.Factory.newJwk(key.toJwkWithSecrets())
        .toJson(OutputControlLevel.INCLUDE_PRIVATE));
    assertTrue(back.sameAs(key), "secret/private JWK through jose4j and back: " + back);
    assertTrue(back.canSign());
    if (!a.isSymmetric()) {
      String publicOnly = JsonWebKey.Factory.newJwk(key.toPublicJwk()).toJson(OutputControlLevel.PUBLIC_ONLY);
      assertNoSecretMembers(json(publicOnly));
      TokenKey pub = TokenKey.fromJwk(publicOnly);
      assertTrue(pub.sameAs(key.publicOnly()), "public JWK through jose4j and back: " + pub);
      assertFalse(pub.canSign());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = {"HS256", "HS384", "HS512"})
  void hmacSecretsLongerThanTheMinimumWorkBothWaysWithJose4j(Algorithm a) throws Exception {
    InteropCase c = InteropCase.valueOf(a.name());
    JsonWebKey theirs = OctJwkGenerator.generateJwk(a.minSecretBytes() * 8 * 2);
    theirs.setKeyId("long-" + a);
    theirs.setAlgorithm(a.joseName());
    TokenKey imported = TokenKey.fromJwk(theirs.toJson(OutputControlLevel.INCLUDE_SYMMETRIC));
    TokenCodec ours = c.codec(KeySet.of(imported), CLOCK);

    assertPeerToken(ours.decode(jose4jToken(c, theirs, peerClaims("long-theirs"), false)), c, "long-" + a,
        "long-theirs", NOW);
    String token = ours.encode(ourClaims("long-ours", NBF).build());
    assertEquals("long-ours", consumer(c, NOW).setVerificationKey(theirs.getKey()).build()
        .processToClaims(token).getJwtId());
  }

  // ----------------------------------------------------------------------- keys as JWKS

  /** Per algorithm, a retired key and the current one: jose4j must pick the kid the token names. */
  static final KeySet OUR_KEYS = rotatedKeySet();
  static final Map<InteropCase, JsonWebKey> JOSE4J_KEYS = jose4jKeyPerAlgorithm();

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jPicksOurKeyByKidFromOurJwks(InteropCase c) throws Exception {
    String jwks = c.algorithm.isSymmetric() ? OUR_KEYS.toJwksWithSecrets() : OUR_KEYS.toPublicJwks();
    List<JsonWebKey> parsed = new JsonWebKeySet(jwks).getJsonWebKeys();
    JwtConsumerBuilder b = consumer(c, NOW);
    if (c.signs()) {
      b.setVerificationKeyResolver(new JwksVerificationKeyResolver(parsed));
    } else {
      b.setDecryptionKeyResolver(new JwksDecryptionKeyResolver(parsed));
    }

    TokenKey current = OUR_KEYS.signingKey(c.algorithm, NOW).orElseThrow();
    TokenKey retired = OUR_KEYS.key(c.alg() + "-2026-10").orElseThrow();
    assertEquals(c.alg() + "-2026-11", current.kid());
    // A codec over the retired key alone (without its lifecycle) still signs with it.
    TokenKey stillSigning = retired.withLifecycle(null, null, null, null);
    for (TokenKey signer : List.of(current, stillSigning)) {
      TokenCodec codec = c.codec(signer == current ? OUR_KEYS : KeySet.of(stillSigning), CLOCK);
      String token = codec.encode(ourClaims("jwks-" + signer.kid(), NBF).build());
      JwtContext context = b.build().process(token);
      assertEquals(signer.kid(), context.getJoseObjects().get(0).getKeyIdHeaderValue());
      assertEquals("jwks-" + signer.kid(), context.getJwtClaims().getJwtId());
      assertPeerReadOurState(context.getJwtClaims().getClaimValue("st"));
    }
  }

  @Test
  void ourPublicJwksGivesJose4jOnlyPublicKeys() throws Exception {
    String jwks = OUR_KEYS.toPublicJwks();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> members = (List<Map<String, Object>>) json(jwks).get("keys");
    members.forEach(InteropFixtures::assertNoSecretMembers);

    List<JsonWebKey> parsed = new JsonWebKeySet(jwks).getJsonWebKeys();
    Set<String> expected = OUR_KEYS.keys().stream().filter(k -> !k.algorithm().isSymmetric())
        .map(TokenKey::kid).collect(Collectors.toSet());
    assertEquals(expected, parsed.stream().map(JsonWebKey::getKeyId).collect(Collectors.toSet()));
    for (JsonWebKey k : parsed) {
      assertTrue(k instanceof PublicJsonWebKey, k.getKeyId());
      assertNull(((PublicJsonWebKey) k).getPrivateKey(), k.getKeyId());
      assertEquals("sig", k.getUse());
    }
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jJwksImportsAsOurKeySetAndItsTokensDecodeHere(InteropCase c) throws Exception {
    List<JsonWebKey> distinct = new ArrayList<>(new LinkedHashSet<>(JOSE4J_KEYS.values()));
    assertEquals(Algorithm.values().length, distinct.size());
    KeySet imported = KeySet.fromJwks(new JsonWebKeySet(distinct).toJson(OutputControlLevel.INCLUDE_SYMMETRIC));
    assertEquals(distinct.size(), imported.keys().size());
    for (TokenKey k : imported.keys()) {
      assertEquals(k.algorithm().isSymmetric(), k.canSign(), k.toString());
    }

    JsonWebKey theirs = JOSE4J_KEYS.get(c);
    String sessionId = "jose4j-jwks-" + c;
    SessionToken t = c.codec(imported, CLOCK).decode(jose4jToken(c, theirs, peerClaims(sessionId), false));
    assertPeerToken(t, c, theirs.getKeyId(), sessionId, NOW);
  }

  // ------------------------------------------------------------------- ES256 edge shapes

  @Test
  void jose4jVerifiesOurEs256SignaturesWithLeadingZeroBytesAndHighS() throws Exception {
    TokenKey key = TokenKey.generate("ec-shapes", Algorithm.ES256);
    TokenCodec ours = InteropCase.ES256.codec(KeySet.of(key), CLOCK);
    Key publicKey = verificationKey(JsonWebKey.Factory.newJwk(key.toPublicJwk()));
    InteropFixtures.EcSignatureShapes shapes = new InteropFixtures.EcSignatureShapes();
    for (int i = 0; i < EC_ROUNDS && !shapes.complete(); i++) {
      // Deterministic signatures (RFC 6979): a new session id gives a new message and signature.
      String token = ours.encode(ourClaims("ec-" + i, NBF).build());
      shapes.add(lastSegment(token));
      JsonWebSignature jws = new JsonWebSignature();
      jws.setCompactSerialization(token);
      jws.setKey(publicKey);
      assertTrue(jws.verifySignature(), "jose4j verifies our ES256 signature #" + i);
    }
    shapes.assertComplete();
  }

  @Test
  void jose4jEs256SignaturesWithLeadingZeroBytesAndHighSDecodeHere() throws Exception {
    JsonWebKey theirs = generate(InteropCase.ES256, "jose4j-ec-shapes");
    TokenCodec ours = InteropCase.ES256.codec(
        KeySet.of(TokenKey.fromJwk(theirs.toJson(OutputControlLevel.PUBLIC_ONLY))), CLOCK);
    InteropFixtures.EcSignatureShapes shapes = new InteropFixtures.EcSignatureShapes();
    for (int i = 0; i < EC_ROUNDS && !shapes.complete(); i++) {
      String token = jose4jToken(InteropCase.ES256, theirs, peerClaims("ec-" + i), false);
      shapes.add(lastSegment(token));
      assertEquals("ec-" + i, ours.decode(token).id());
    }
    shapes.assertComplete();
  }

  @Test
  void jose4jEcKeysWhoseCoordinatesOrScalarStartWithZeroImportHere() throws Exception {
    boolean x = false;
    boolean y = false;
    boolean d = false;
    int rounds = 0;
    for (; rounds < EC_ROUNDS && !(x && y && d); rounds++) {
      EllipticCurveJsonWebKey theirs = EcJwkGenerator.generateJwk(EllipticCurves.P256);
      Map<String, Object> members = json(theirs.toJson(OutputControlLevel.INCLUDE_PRIVATE));
      byte[] bx = Base64.getUrlDecoder().decode((String) members.get("x"));
      byte[] by = Base64.getUrlDecoder().decode((String) members.get("y"));
      byte[] bd = Base64.getUrlDecoder().decode((String) members.get("d"));
      boolean interesting = bx[0] == 0 || by[0] == 0 || bd[0] == 0;
      if (!interesting) {
        continue;
      }
      x |= bx[0] == 0;
      y |= by[0] == 0;
      d |= bd[0] == 0;
      theirs.setKeyId("ec-zero-" + rounds);
      TokenKey imported = TokenKey.fromJwk(theirs.toJson(OutputControlLevel.INCLUDE_PRIVATE));
      String token = InteropCase.ES256.codec(KeySet.of(imported), CLOCK).encode(ourClaims("zero", NBF).build());
      assertEquals("zero", consumer(InteropCase.ES256, NOW).setVerificationKey(theirs.getPublicKey()).build()
          .processToClaims(token).getJwtId());
    }
    assertTrue(x && y && d, "after " + rounds + " keys: x " + x + ", y " + y + ", d " + d);
  }

  // --------------------------------------------------------------------------- helpers

  /** jose4j configured as a strict consumer of our format, evaluating at {@code at}; keys to be added. */
  private static JwtConsumerBuilder consumer(InteropCase c, Instant at) {
    JwtConsumerBuilder b = new JwtConsumerBuilder()
        .setRequireExpirationTime()
        .setRequireIssuedAt()
        .setRequireJwtId()
        .setRequireSubject()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(AUDIENCE)
        .setEvaluationTime(NumericDate.fromSeconds(at.getEpochSecond()));
    if (c.signs()) {
      b.setJwsAlgorithmConstraints(ConstraintType.PERMIT, c.alg());
    } else {
      b.setDisableRequireSignature()
          .setEnableRequireEncryption()
          .setEnableRequireIntegrity()
          .setJweAlgorithmConstraints(ConstraintType.PERMIT, KeyManagementAlgorithmIdentifiers.DIRECT)
          .setJweContentEncryptionAlgorithmConstraints(ConstraintType.PERMIT,
              ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    }
    return b;
  }

  private static org.jose4j.jwt.consumer.JwtConsumer jose4jAt(InteropCase c, Key k, Instant at) {
    return consumer(c, at).setVerificationKey(k).setDecryptionKey(k).build();
  }

  private static Map<String, Object> headerAsJose4jReadsIt(JwtContext context) throws JoseException {
    return JsonUtil.parseJson(context.getJoseObjects().get(0).getHeaders().getFullHeaderAsJsonString());
  }

  /** The key jose4j verifies or decrypts with: the public key of a pair, else the secret. */
  private static Key verificationKey(JsonWebKey jwk) {
    return jwk instanceof PublicJsonWebKey ? ((PublicJsonWebKey) jwk).getPublicKey() : jwk.getKey();
  }

  private static Key signingKey(JsonWebKey jwk) {
    return jwk instanceof PublicJsonWebKey ? ((PublicJsonWebKey) jwk).getPrivateKey() : jwk.getKey();
  }

  /** A key jose4j generates for this case, with a kid and (as our oct import requires) an alg. */
  private static JsonWebKey generate(InteropCase c, String kid) throws JoseException {
    JsonWebKey k;
    switch (c.algorithm) {
      case ES256:
        k = EcJwkGenerator.generateJwk(EllipticCurves.P256);
        break;
      case EDDSA:
        k = OkpJwkGenerator.generateJwk(OctetKeyPairJsonWebKey.SUBTYPE_ED25519);
        break;
      default:
        k = OctJwkGenerator.generateJwk(c.algorithm.minSecretBytes() * 8);
        k.setAlgorithm(c.alg());
    }
    k.setKeyId(kid);
    return k;
  }

  /** The claims jose4j puts in its tokens: all of ours, with times around {@link #NOW}. */
  private static JwtClaims peerClaims(String sessionId) {
    JwtClaims claims = new JwtClaims();
    claims.setIssuer(ISSUER);
    claims.setAudience(AUDIENCE);
    claims.setSubject(PEER_SUBJECT);
    claims.setJwtId(sessionId);
    claims.setIssuedAt(NumericDate.fromSeconds(NOW.getEpochSecond() - PEER_AGE_SECONDS));
    claims.setNotBefore(NumericDate.fromSeconds(NOW.getEpochSecond() - PEER_AGE_SECONDS));
    claims.setExpirationTime(NumericDate.fromSeconds(NOW.getEpochSecond() + PEER_REMAINING_SECONDS));
    claims.setClaim("st", stateAsJson());
    return claims;
  }

  /** A compact token jose4j makes with its key: JWS, or dir+A256GCM JWE (compressed for the DEF case). */
  private static String jose4jToken(InteropCase c, JsonWebKey key, JwtClaims claims, boolean typ) throws JoseException {
    if (c.signs()) {
      JsonWebSignature jws = new JsonWebSignature();
      jws.setPayload(claims.toJson());
      jws.setAlgorithmHeaderValue(c.alg());
      jws.setKeyIdHeaderValue(key.getKeyId());
      if (typ) {
        jws.setHeader("typ", "JWT");
      }
      jws.setKey(signingKey(key));
      return jws.getCompactSerialization();
    }
    JsonWebEncryption jwe = new JsonWebEncryption();
    jwe.setPayload(claims.toJson());
    jwe.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.DIRECT);
    jwe.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    jwe.setKeyIdHeaderValue(key.getKeyId());
    if (typ) {
      jwe.setHeader("typ", "JWT");
    }
    if (c.zip) {
      jwe.enableDefaultCompression();
    }
    jwe.setKey(key.getKey());
    return jwe.getCompactSerialization();
  }

  private static KeySet rotatedKeySet() {
    Instant monthAgo = NOW.minus(Duration.ofDays(30));
    Instant dayAgo = NOW.minus(Duration.ofDays(1));
    List<TokenKey> keys = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      keys.add(TokenKey.generate(a.joseName() + "-2026-10", a).withLifecycle(monthAgo, monthAgo, dayAgo, null));
      keys.add(TokenKey.generate(a.joseName() + "-2026-11", a).withLifecycle(monthAgo, dayAgo, null, null));
    }
    return KeySet.of(keys);
  }

  /** One jose4j key per algorithm; both dir cases share one key, as a JWKS can hold a kid once. */
  private static Map<InteropCase, JsonWebKey> jose4jKeyPerAlgorithm() {
    Map<InteropCase, JsonWebKey> m = new EnumMap<>(InteropCase.class);
    try {
      for (InteropCase c : InteropCase.values()) {
        m.put(c, c == InteropCase.DIR_A256GCM_DEF ? m.get(InteropCase.DIR_A256GCM) : generate(c, "jose4j-set-" + c.alg()));
      }
    } catch (JoseException e) {
      throw new IllegalStateException(e);
    }
    return m;
  }
}
