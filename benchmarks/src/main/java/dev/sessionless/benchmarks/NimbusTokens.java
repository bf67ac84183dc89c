package dev.sessionless.benchmarks;

import com.nimbusds.jose.CompressionAlgorithm;
import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.DirectDecrypter;
import com.nimbusds.jose.crypto.DirectEncrypter;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.proc.SingleKeyJWSKeySelector;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.security.interfaces.ECPrivateKey;
import java.util.Date;
import java.util.Map;
import java.util.Set;

/**
 * Nimbus JOSE+JWT making and reading the suite's tokens. Reading HS256 and ES256 is the
 * documented {@code DefaultJWTProcessor} with a {@code SingleKeyJWSKeySelector} and a {@code
 * DefaultJWTClaimsVerifier} (audience, exact issuer, required {@code exp}; a {@code
 * DefaultJOSEObjectTypeVerifier} for the profile's {@code typ}). EdDSA is {@code SignedJWT.parse}
 * and an {@code Ed25519Verifier} (Tink) built once, since the processor cannot select an {@code
 * OctetKeyPair}; {@code dir} is {@code EncryptedJWT.parse} and a {@code DirectDecrypter}; both then
 * run the same claims verifier and check the {@code typ} themselves. Writing signs with {@code
 * MACSigner}, {@code ECDSASigner} or {@code Ed25519Signer}, or encrypts with {@code
 * DirectEncrypter}. Thread-safe once built.
 */
final class NimbusTokens {
  private final PeerTokens.Profile profile;
  private final Algorithm algorithm;
  private final DefaultJWTProcessor<SecurityContext> processor;
  private final DefaultJWTClaimsVerifier<SecurityContext> claimsVerifier;
  private final Ed25519Verifier ed25519Verifier;
  private final DirectDecrypter decrypter;
  private final JWSHeader jwsHeader;
  private final JWSSigner signer;
  private final JWEHeader jweHeader;
  private final DirectEncrypter encrypter;

  NimbusTokens(TokenKey key, PeerTokens.Keys keys, PeerTokens.Profile profile, boolean zip) throws Exception {
    this.profile = profile;
    this.algorithm = keys.algorithm;
    claimsVerifier = new DefaultJWTClaimsVerifier<>(
        profile.audience(), new JWTClaimsSet.Builder().issuer(profile.issuer()).build(), Set.of("exp"));
    JOSEObjectType typ = profile.type() == null ? null : new JOSEObjectType(profile.type());
    if (algorithm == Algorithm.HS256 || algorithm == Algorithm.ES256) {
      JWSAlgorithm alg = JWSAlgorithm.parse(keys.alg());
      processor = new DefaultJWTProcessor<>();
      processor.setJWSKeySelector(new SingleKeyJWSKeySelector<>(alg, keys.verificationKey()));
      processor.setJWTClaimsSetVerifier(claimsVerifier);
      if (typ != null) {
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(typ));
      }
    } else {
      processor = null;
    }
    ed25519Verifier = algorithm == Algorithm.EDDSA ? new Ed25519Verifier(OctetKeyPair.parse(key.toPublicJwk())) : null;
    decrypter = keys.isJwe() ? new DirectDecrypter(keys.secretKey()) : null;

    if (keys.isJwe()) {
      JWEHeader.Builder h = new JWEHeader.Builder(JWEAlgorithm.DIR, EncryptionMethod.A256GCM).keyID(keys.kid).type(typ);
      jweHeader = (zip ? h.compressionAlgorithm(CompressionAlgorithm.DEF) : h).build();
      encrypter = new DirectEncrypter(keys.secretKey());
      jwsHeader = null;
      signer = null;
    } else {
      jwsHeader = new JWSHeader.Builder(JWSAlgorithm.parse(keys.alg())).keyID(keys.kid).type(typ).build();
      signer = switch (algorithm) {
        case HS256 -> new MACSigner(keys.secret);
        case ES256 -> keys.privateKey == null ? null : new ECDSASigner((ECPrivateKey) keys.privateKey);
        case EDDSA -> keys.privateKey == null ? null : new Ed25519Signer(OctetKeyPair.parse(key.toJwkWithSecrets()));
        default -> throw new IllegalArgumentException("no Nimbus set-up for " + algorithm);
      };
      jweHeader = null;
      encrypter = null;
    }
  }

  /** Verifies (or decrypts) and checks the claims. */
  JWTClaimsSet decode(String token) throws Exception {
    if (processor != null) {
      return processor.process(token, null);
    }
    JWTClaimsSet claims;
    if (decrypter != null) {
      EncryptedJWT jwt = EncryptedJWT.parse(token);
      checkType(jwt.getHeader().getType());
      jwt.decrypt(decrypter);
      claims = jwt.getJWTClaimsSet();
    } else {
      SignedJWT jwt = SignedJWT.parse(token);
      checkType(jwt.getHeader().getType());
      if (!jwt.verify(ed25519Verifier)) {
        throw new SecurityException("bad signature");
      }
      claims = jwt.getJWTClaimsSet();
    }
    claimsVerifier.verify(claims, null);
    return claims;
  }

  private void checkType(JOSEObjectType actual) {
    if (profile.type() != null) {
      PeerTokens.checkType(profile.type(), actual == null ? null : actual.getType());
    }
  }

  /** Decodes, then reads one value of the state object {@code st}. */
  Object decodeRead(String token, String name) throws Exception {
    return decode(token).getJSONObjectClaim("st").get(name);
  }

  /** A token of the profile's claims and {@code claims}, {@code iat}/{@code exp} from the clock. */
  String encode(Map<String, Object> claims) throws Exception {
    long now = Fixtures.nowSeconds();
    JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
        .issuer(profile.issuer())
        .audience(profile.audience())
        .subject(profile.subject())
        .issueTime(new Date(now * 1000))
        .expirationTime(new Date((now + profile.ttlSeconds()) * 1000))
        .jwtID(profile.jwtId());
    claims.forEach(b::claim);
    if (encrypter != null) {
      EncryptedJWT jwt = new EncryptedJWT(jweHeader, b.build());
      jwt.encrypt(encrypter);
      return jwt.serialize();
    }
    SignedJWT jwt = new SignedJWT(jwsHeader, b.build());
    jwt.sign(signer);
    return jwt.serialize();
  }
}
