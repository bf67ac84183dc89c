package dev.sessionless.core.interop;

import static dev.sessionless.core.interop.InteropCase.AUDIENCE;
import static dev.sessionless.core.interop.InteropCase.CART;
import static dev.sessionless.core.interop.InteropCase.ISSUER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.CompressionAlgorithm;
import com.nimbusds.jose.EncryptionMethod;
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
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenKey;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tokens made here verify in Nimbus JOSE+JWT, and Nimbus's verify here, for every token kind;
 * keys travel as JWK. Nimbus checks time against the real clock, so these tests use it too.
 */
class NimbusInteropTest {
  static final Clock CLOCK = Clock.systemUTC();

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusVerifiesOurToken(InteropCase c) throws Exception {
    TokenKey key = TokenKey.generate("ours-" + c, c.algorithm);
    String token = c.codec(KeySet.of(key), CLOCK)
        .encode(Claims.builder().subject("alice").put("cart", CART).put("locale", "en-GB").build());

    JWTClaimsSet claims;
    if (c.algorithm.isEncrypting()) {
      EncryptedJWT jwe = EncryptedJWT.parse(token);
      assertEquals(c.zip ? CompressionAlgorithm.DEF : null, jwe.getHeader().getCompressionAlgorithm());
      jwe.decrypt(new DirectDecrypter(InteropCase.secretOf(key)));
      claims = jwe.getJWTClaimsSet();
    } else {
      SignedJWT jws = SignedJWT.parse(token);
      assertEquals(key.kid(), jws.getHeader().getKeyID());
      assertTrue(jws.verify(verifier(c, JWK.parse(InteropCase.verifierJwk(key)))), "Nimbus verifies the signature");
      claims = jws.getJWTClaimsSet();
    }
    new DefaultJWTClaimsVerifier<>(AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(),
        Set.of("exp", "iat", "jti", "sub")).verify(claims, null);
    assertEquals("alice", claims.getSubject());
    @SuppressWarnings("unchecked")
    Map<String, Object> cart = (Map<String, Object>) claims.getJSONObjectClaim("st").get("cart");
    assertEquals(CART.get("items"), cart.get("items"));
    assertEquals(1850L, ((Number) cart.get("total")).longValue());
    assertEquals("en-GB", claims.getJSONObjectClaim("st").get("locale"));
  }

  @ParameterizedTest
  @EnumSource(InteropCase.class)
  void nimbusTokenDecodesHereWithNimbusGeneratedKey(InteropCase c) throws Exception {
    JWK theirs = generate(c, "theirs-" + c);
    TokenKey imported = TokenKey.fromJwk(c.algorithm.isSymmetric()
        ? theirs.toJSONString() : theirs.toPublicJWK().toJSONString());
    assertEquals(c.algorithm, imported.algorithm());

    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer(ISSUER).audience(AUDIENCE).subject("bob").jwtID("nimbus-session-0001")
        .issueTime(Date.from(now.minusSeconds(5))).expirationTime(Date.from(now.plusSeconds(300)))
        .claim("st", Map.of("cart", CART))
        .build();
    String token;
    if (c.algorithm.isEncrypting()) {
      JWEHeader.Builder h = new JWEHeader.Builder(JWEAlgorithm.DIR, EncryptionMethod.A256GCM).keyID(theirs.getKeyID());
      if (c.zip) {
        h.compressionAlgorithm(CompressionAlgorithm.DEF);
      }
      EncryptedJWT jwe = new EncryptedJWT(h.build(), claims);
      jwe.encrypt(new DirectEncrypter(((OctetSequenceKey) theirs).toByteArray()));
      token = jwe.serialize();
    } else {
      SignedJWT jws = new SignedJWT(
          new JWSHeader.Builder(JWSAlgorithm.parse(c.algorithm.joseName())).keyID(theirs.getKeyID()).build(), claims);
      jws.sign(signer(c, theirs));
      token = jws.serialize();
    }

    SessionToken t = c.codec(KeySet.of(imported), CLOCK).decode(token);
    assertEquals("bob", t.subject().orElseThrow());
    assertEquals("nimbus-session-0001", t.id());
    assertEquals(theirs.getKeyID(), t.keyId());
    assertEquals(new InteropCase.Cart(List.of("mug", "beans"), 1850),
        t.get("cart", InteropCase.Cart.class).orElseThrow());
    assertEquals(now.plusSeconds(300), t.expiresAt());
  }

  private static JWSVerifier verifier(InteropCase c, JWK jwk) throws Exception {
    switch (c.algorithm) {
      case ES256:
        return new ECDSAVerifier((ECKey) jwk);
      case EDDSA:
        return new Ed25519Verifier((OctetKeyPair) jwk);
      default:
        return new MACVerifier((OctetSequenceKey) jwk);
    }
  }

  private static JWSSigner signer(InteropCase c, JWK jwk) throws Exception {
    switch (c.algorithm) {
      case ES256:
        return new ECDSASigner((ECKey) jwk);
      case EDDSA:
        return new Ed25519Signer((OctetKeyPair) jwk);
      default:
        return new MACSigner((OctetSequenceKey) jwk);
    }
  }

  private static JWK generate(InteropCase c, String kid) throws Exception {
    switch (c.algorithm) {
      case ES256:
        return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
      case EDDSA:
        return new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
      case DIR_A256GCM:
        return new OctetSequenceKeyGenerator(256).keyID(kid).algorithm(JWEAlgorithm.DIR).generate();
      default:
        return new OctetSequenceKeyGenerator(c.algorithm.minSecretBytes() * 8).keyID(kid)
            .algorithm(JWSAlgorithm.parse(c.algorithm.joseName())).generate();
    }
  }
}
