package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.proc.SingleKeyJWSKeySelector;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.util.Map;
import java.util.Set;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix for ES256: Sessionless's four operations; jose4j, Nimbus and the JDK's
 * {@code SHA256withECDSAinP1363Format} verifying (and reading one value) with the public key,
 * set up as in {@link Es256VerifyBenchmark}. Peer encoding is absent (it needs the private key
 * in each peer's form, not wired in yet), as are jjwt and java-jwt.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixEs256Benchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
public class MatrixEs256Benchmark extends MatrixBase {
  ECPublicKey publicKey;
  DefaultJWTProcessor<SecurityContext> nimbus;
  JwtConsumer jose4j;

  /** A fresh key, the peers, and a check that every peer accepts the token. */
  @Setup
  public void setup() throws Exception {
    TokenKey key = TokenKey.generate(Fixtures.KID, Algorithm.ES256);
    init(key, false);
    publicKey = Fixtures.ecPublicKey(key);
    nimbus = new DefaultJWTProcessor<>();
    nimbus.setJWSKeySelector(new SingleKeyJWSKeySelector<>(JWSAlgorithm.ES256, publicKey));
    nimbus.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp")));
    jose4j = new JwtConsumerBuilder()
        .setVerificationKey(publicKey)
        .setJwsAlgorithmConstraints(
            AlgorithmConstraints.ConstraintType.PERMIT, AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256)
        .setRequireExpirationTime()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(AUDIENCE)
        .build();
    ThreadSignature probe = new ThreadSignature();
    probe.setup(this);
    Fixtures.mustAccept("jose4j", this::jose4jDecode);
    Fixtures.mustAccept("nimbus", this::nimbusDecode);
    Fixtures.mustAccept("JDK", () -> naiveDecode(probe));
    checkRead("jose4j", jose4jDecodeRead());
    checkRead("nimbus", nimbusDecodeRead());
    checkRead("JDK", naiveDecodeRead(probe));
  }

  /** A {@code Signature} initialised for verifying once per benchmark thread. */
  @State(Scope.Thread)
  public static class ThreadSignature {
    Signature signature;

    /** Initialises the thread's verifier. */
    @Setup
    public void setup(MatrixEs256Benchmark b) throws Exception {
      signature = Signature.getInstance("SHA256withECDSAinP1363Format");
      signature.initVerify(b.publicKey);
    }
  }

  @Benchmark
  public JwtClaims jose4jDecode() throws Exception {
    return jose4j.processToClaims(token);
  }

  @Benchmark
  public Object jose4jDecodeRead() throws Exception {
    return ((Map<?, ?>) jose4j.processToClaims(token).getClaimValue("st")).get("locale");
  }

  @Benchmark
  public JWTClaimsSet nimbusDecode() throws Exception {
    return nimbus.process(token, null);
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbus.process(token, null).getJSONObjectClaim("st").get("locale");
  }

  @Benchmark
  public JsonNode naiveDecode(ThreadSignature t) throws Exception {
    return Fixtures.jdkVerify(t.signature, token, "ES256", 64);
  }

  @Benchmark
  public String naiveDecodeRead(ThreadSignature t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
  }
}
