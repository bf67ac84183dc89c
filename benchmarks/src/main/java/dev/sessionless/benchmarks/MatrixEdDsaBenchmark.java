package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Set;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix for EdDSA (Ed25519): Sessionless's four operations; Nimbus (on Tink) and the
 * JDK's {@code Ed25519} {@code Signature} verifying and reading one value, set up as in {@link
 * EdDsaVerifyBenchmark}. jose4j, jjwt and java-jwt are absent, as is peer encoding.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixEdDsaBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
public class MatrixEdDsaBenchmark extends MatrixBase {
  PublicKey publicKey;
  Ed25519Verifier nimbusVerifier;
  DefaultJWTClaimsVerifier<SecurityContext> nimbusClaimsVerifier;

  /** A fresh key, the peers, and a check that every peer accepts the token. */
  @Setup
  public void setup() throws Exception {
    TokenKey key = TokenKey.generate(Fixtures.KID, Algorithm.EDDSA);
    init(key, false);
    publicKey = Fixtures.ed25519PublicKey(key);
    nimbusVerifier = new Ed25519Verifier(OctetKeyPair.parse(key.toPublicJwk()));
    nimbusClaimsVerifier = new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp"));
    ThreadSignature probe = new ThreadSignature();
    probe.setup(this);
    Fixtures.mustAccept("nimbus", this::nimbusDecode);
    Fixtures.mustAccept("JDK", () -> naiveDecode(probe));
    checkRead("nimbus", nimbusDecodeRead());
    checkRead("JDK", naiveDecodeRead(probe));
  }

  /** A {@code Signature} initialised for verifying once per benchmark thread. */
  @State(Scope.Thread)
  public static class ThreadSignature {
    Signature signature;

    /** Initialises the thread's verifier. */
    @Setup
    public void setup(MatrixEdDsaBenchmark b) throws Exception {
      signature = Signature.getInstance("Ed25519");
      signature.initVerify(b.publicKey);
    }
  }

  @Benchmark
  public JWTClaimsSet nimbusDecode() throws Exception {
    SignedJWT jwt = SignedJWT.parse(token);
    if (!jwt.verify(nimbusVerifier)) {
      throw new SecurityException("bad signature");
    }
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    nimbusClaimsVerifier.verify(claims, null);
    return claims;
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbusDecode().getJSONObjectClaim("st").get("locale");
  }

  @Benchmark
  public JsonNode naiveDecode(ThreadSignature t) throws Exception {
    return Fixtures.jdkVerify(t.signature, token, "EdDSA", 0);
  }

  @Benchmark
  public String naiveDecodeRead(ThreadSignature t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
  }
}
