package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Registration proofs made by an outside JOSE implementation (Nimbus) are accepted, with Nimbus's own thumbprint. */
@Timeout(60)
class NimbusInteropTest {
  final Challenges challenges = Challenges.builder().keys(KeySet.of(TokenKey.generate("c", Algorithm.HS256)))
      .issuer("https://shop.example").build();
  final DeviceProof proofs = DeviceProof.verifier(challenges).build();

  @Test
  void nimbusSignedEs256AndRs256RegistrationProofsVerify() throws Exception {
    ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
    RSAKey rsa = new RSAKeyGenerator(2048).generate();
    String[] proofs2 = {
        proof(new JWSHeader.Builder(JWSAlgorithm.ES256).jwk(ec.toPublicJWK()), new ECDSASigner(ec)),
        proof(new JWSHeader.Builder(JWSAlgorithm.RS256).jwk(rsa.toPublicJWK()), new RSASSASigner(rsa))};
    String[] thumbprints = {ec.computeThumbprint().toString(), rsa.computeThumbprint().toString()};
    for (int i = 0; i < 2; i++) {
      VerifiedProof ok = proofs.verifyRegistration(proofs2[i], "login-1", null, "ac");
      assertEquals(thumbprints[i], ok.key().thumbprint());
    }
  }

  private String proof(JWSHeader.Builder header, com.nimbusds.jose.JWSSigner signer) throws Exception {
    SignedJWT jwt = new SignedJWT(header.type(new JOSEObjectType("dbsc+jwt")).build(), new JWTClaimsSet.Builder()
        .jwtID(challenges.issue(Purpose.REGISTRATION, "login-1")).claim("authorization", "ac").build());
    jwt.sign(signer);
    return jwt.serialize();
  }
}
