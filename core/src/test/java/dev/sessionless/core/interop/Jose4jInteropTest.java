package dev.sessionless.core.interop;

import static dev.sessionless.core.interop.InteropCase.AUDIENCE;
import static dev.sessionless.core.interop.InteropCase.CART;
import static dev.sessionless.core.interop.InteropCase.ISSUER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.security.Key;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.JsonWebEncryption;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.OctJwkGenerator;
import org.jose4j.jwk.OctetKeyPairJsonWebKey;
import org.jose4j.jwk.OkpJwkGenerator;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.EllipticCurves;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Tokens made here verify in jose4j, and jose4j's verify here, for every token kind; keys travel as JWK. */
class Jose4jInteropTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jVerifiesOurToken(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("ours-" + c, c.algorithm);
    String token = c.codec(KeySet.of(key), CLOCK)
        .encode(Claims.builder().subject("alice").put("cart", CART).put("locale", "en-GB").build());

    JsonWebKey jwk = JsonWebKey.Factory.newJwk(InteropCase.verifierJwk(key));
    Key verificationKey = c.algorithm.isSymmetric() ? jwk.getKey() : ((PublicJsonWebKey) jwk).getPublicKey();
    JwtConsumerBuilder b = new JwtConsumerBuilder()
        .setRequireExpirationTime().setRequireIssuedAt().setRequireJwtId()
        .setExpectedIssuer(ISSUER).setExpectedAudience(AUDIENCE)
        .setEvaluationTime(NumericDate.fromSeconds(NOW.getEpochSecond()));
    if (c.algorithm.isEncrypting()) {
      b.setDecryptionKey(verificationKey).setDisableRequireSignature().setEnableRequireEncryption()
          .setJweAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, KeyManagementAlgorithmIdentifiers.DIRECT)
          .setJweContentEncryptionAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
              ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    } else {
      b.setVerificationKey(verificationKey)
          .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, c.algorithm.joseName());
    }
    JwtConsumer consumer = b.build();
    JwtClaims claims = consumer.processToClaims(token);

    assertEquals("alice", claims.getSubject());
    assertEquals(ISSUER, claims.getIssuer());
    assertEquals(NOW.plusSeconds(600).getEpochSecond(), claims.getExpirationTime().getValue());
    assertEquals(22, claims.getJwtId().length());
    @SuppressWarnings("unchecked")
    Map<String, Object> st = (Map<String, Object>) claims.getClaimValue("st");
    assertEquals("en-GB", st.get("locale"));
    @SuppressWarnings("unchecked")
    Map<String, Object> cart = (Map<String, Object>) st.get("cart");
    assertEquals(CART.get("items"), cart.get("items"));
    assertEquals(1850L, ((Number) cart.get("total")).longValue());
    if (c.zip) {
      assertTrue(headerOf(token).contains("\"zip\":\"DEF\""), headerOf(token));
    }
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void jose4jTokenDecodesHereWithJose4jGeneratedKey(InteropCase c) throws Exception {
    JsonWebKey theirs = generate(c);
    theirs.setKeyId("theirs-" + c);
    String exported = theirs.toJson(c.algorithm.isSymmetric()
        ? JsonWebKey.OutputControlLevel.INCLUDE_SYMMETRIC : JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
    TokenKey imported = TokenKey.fromJwk(exported);
    assertEquals(c.algorithm, imported.algorithm());

    JwtClaims claims = new JwtClaims();
    claims.setIssuer(ISSUER);
    claims.setAudience(AUDIENCE);
    claims.setSubject("bob");
    claims.setJwtId("jose4j-session-0001");
    claims.setIssuedAt(NumericDate.fromSeconds(NOW.getEpochSecond() - 5));
    claims.setExpirationTime(NumericDate.fromSeconds(NOW.getEpochSecond() + 300));
    claims.setClaim("st", Map.of("cart", CART));

    String token;
    if (c.algorithm.isEncrypting()) {
      JsonWebEncryption jwe = new JsonWebEncryption();
      jwe.setPayload(claims.toJson());
      jwe.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.DIRECT);
      jwe.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
      jwe.setKeyIdHeaderValue(theirs.getKeyId());
      jwe.setKey(theirs.getKey());
      if (c.zip) {
        jwe.enableDefaultCompression();
      }
      token = jwe.getCompactSerialization();
    } else {
      JsonWebSignature jws = new JsonWebSignature();
      jws.setPayload(claims.toJson());
      jws.setAlgorithmHeaderValue(c.algorithm.joseName());
      jws.setKeyIdHeaderValue(theirs.getKeyId());
      jws.setKey(c.algorithm.isSymmetric() ? theirs.getKey() : ((PublicJsonWebKey) theirs).getPrivateKey());
      token = jws.getCompactSerialization();
    }

    TokenCodec ours = c.codec(KeySet.of(imported), CLOCK);
    SessionToken t = ours.decode(token);
    assertEquals("bob", t.subject().orElseThrow());
    assertEquals("jose4j-session-0001", t.id());
    assertEquals(theirs.getKeyId(), t.keyId());
    assertEquals(new InteropCase.Cart(java.util.List.of("mug", "beans"), 1850),
        t.get("cart", InteropCase.Cart.class).orElseThrow());
    assertEquals(NOW.plusSeconds(300), t.expiresAt());
  }

  private static JsonWebKey generate(InteropCase c) throws Exception {
    switch (c.algorithm) {
      case ES256:
        return EcJwkGenerator.generateJwk(EllipticCurves.P256);
      case EDDSA:
        return OkpJwkGenerator.generateJwk(OctetKeyPairJsonWebKey.SUBTYPE_ED25519);
      default:
        JsonWebKey k = OctJwkGenerator.generateJwk(c.algorithm.minSecretBytes() * 8);
        k.setAlgorithm(c.algorithm.joseName());
        return k;
    }
  }

  private static String base64Prefix(String token) {
    return token.substring(0, token.indexOf('.'));
  }

  private static String headerOf(String token) {
    return new String(java.util.Base64.getUrlDecoder().decode(base64Prefix(token)), java.nio.charset.StandardCharsets.UTF_8);
  }
}
