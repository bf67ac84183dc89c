package dev.sessionless.benchmarks;

import java.security.Key;
import java.util.Map;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.JsonWebEncryption;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwx.HeaderParameterNames;
import org.jose4j.keys.AesKey;
import org.jose4j.keys.HmacKey;

/**
 * jose4j making and reading the suite's tokens (HS256, ES256, EdDSA on the JDK's provider, and
 * {@code dir}/A256GCM with or without {@code zip: DEF}). Reading is a {@code JwtConsumer}: the key,
 * the algorithm constraint (for JWE: {@code dir} and {@code A256GCM}, encryption required,
 * signature not), required {@code exp}, expected issuer and audience, and the expected {@code typ}
 * when the profile has one. Writing is {@code JwtClaims} into a {@code JsonWebSignature} or {@code
 * JsonWebEncryption}. Thread-safe once built.
 */
final class Jose4jTokens {
  private final PeerTokens.Keys keys;
  private final PeerTokens.Profile profile;
  private final boolean zip;
  private final Key writeKey;
  private final JwtConsumer consumer;

  Jose4jTokens(PeerTokens.Keys keys, PeerTokens.Profile profile, boolean zip) {
    this.keys = keys;
    this.profile = profile;
    this.zip = zip;
    JwtConsumerBuilder b = new JwtConsumerBuilder();
    if (keys.isJwe()) {
      writeKey = new AesKey(keys.secret);
      b.setDecryptionKey(writeKey)
          .setDisableRequireSignature()
          .setEnableRequireEncryption()
          .setJweAlgorithmConstraints(
              AlgorithmConstraints.ConstraintType.PERMIT, KeyManagementAlgorithmIdentifiers.DIRECT)
          .setJweContentEncryptionAlgorithmConstraints(
              AlgorithmConstraints.ConstraintType.PERMIT, ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
    } else {
      writeKey = keys.secret != null ? new HmacKey(keys.secret) : keys.privateKey;
      b.setVerificationKey(keys.secret != null ? writeKey : keys.publicKey)
          .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, keys.alg());
    }
    b.setRequireExpirationTime()
        .setExpectedIssuer(profile.issuer())
        .setExpectedAudience(profile.audience());
    if (profile.type() != null) {
      b.setExpectedType(true, profile.type());
    }
    consumer = b.build();
  }

  /** Verifies (or decrypts) and checks the claims. */
  JwtClaims decode(String token) throws Exception {
    return consumer.processToClaims(token);
  }

  /** Decodes, then reads one value of the state object {@code st}. */
  Object decodeRead(String token, String name) throws Exception {
    return PeerTokens.stateValue(decode(token).getClaimValue("st"), name);
  }

  /** A token of the profile's claims and {@code claims}, {@code iat}/{@code exp} from the clock. */
  String encode(Map<String, Object> claims) throws Exception {
    long now = Fixtures.nowSeconds();
    JwtClaims c = new JwtClaims();
    c.setIssuer(profile.issuer());
    c.setAudience(profile.audience());
    c.setSubject(profile.subject());
    c.setIssuedAt(NumericDate.fromSeconds(now));
    c.setExpirationTime(NumericDate.fromSeconds(now + profile.ttlSeconds()));
    c.setJwtId(profile.jwtId());
    claims.forEach(c::setClaim);
    if (keys.isJwe()) {
      JsonWebEncryption jwe = new JsonWebEncryption();
      jwe.setPayload(c.toJson());
      jwe.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.DIRECT);
      jwe.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
      jwe.setKeyIdHeaderValue(keys.kid);
      if (profile.type() != null) {
        jwe.setHeader(HeaderParameterNames.TYPE, profile.type());
      }
      if (zip) {
        jwe.enableDefaultCompression();
      }
      jwe.setKey(writeKey);
      return jwe.getCompactSerialization();
    }
    JsonWebSignature jws = new JsonWebSignature();
    jws.setPayload(c.toJson());
    jws.setAlgorithmHeaderValue(keys.alg());
    jws.setKeyIdHeaderValue(keys.kid);
    if (profile.type() != null) {
      jws.setHeader(HeaderParameterNames.TYPE, profile.type());
    }
    jws.setKey(writeKey);
    return jws.getCompactSerialization();
  }
}
