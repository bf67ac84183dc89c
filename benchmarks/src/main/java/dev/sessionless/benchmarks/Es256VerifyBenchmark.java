package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwt.JwtClaims;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * ES256 (ECDSA P-256, SHA-256) verify and claim checks of one token of about {@link
 * #payloadBytes} of payload JSON, made once by Sessionless. Sessionless verifies with
 * BouncyCastle's lightweight ECDSA over its special-form P-256 arithmetic; every peer here
 * goes through the JDK's SunEC provider. The signature check dominates (tens of microseconds),
 * so the JSON work around it barely shows.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.decode} with {@code verificationCache(0)}; state lazy.
 *   <li>{@code jdk}: the naive decoder with a per-thread {@code Signature
 *       "SHA256withECDSAinP1363Format"} (takes JOSE's 64-byte {@code r || s} as is, no DER
 *       conversion), initialised for the public key once.
 *   <li>{@code nimbus}: {@code DefaultJWTProcessor} with a single-key ES256 selector and a {@code
 *       DefaultJWTClaimsVerifier}.
 *   <li>{@code jose4j}: {@code JwtConsumer} with the public key, ES256 constraint, same claims.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar Es256VerifyBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Es256VerifyBenchmark {
  /** The JSON payload size in bytes. */
  @Param({"200"})
  int payloadBytes;

  String token;
  PublicKey publicKey;
  TokenCodec sessionless;
  NimbusTokens nimbus;
  Jose4jTokens jose4j;

  @Setup
  public void setup() throws Exception {
    TokenKey key = TokenKey.generate(Fixtures.KID, Algorithm.ES256);
    sessionless = Fixtures.codec(key, 0);
    token = Fixtures.tokenOfPayload(sessionless, payloadBytes);
    PeerTokens.Keys keys = PeerTokens.keys(key.publicOnly());
    publicKey = keys.publicKey;
    nimbus = new NimbusTokens(keys, PeerTokens.Profile.SESSION, false);
    jose4j = new Jose4jTokens(keys, PeerTokens.Profile.SESSION, false);

    Fixtures.mustAccept("sessionless", this::sessionless);
    Fixtures.mustAccept("nimbus", this::nimbus);
    Fixtures.mustAccept("jose4j", this::jose4j);
    ThreadSignature probe = new ThreadSignature();
    probe.setup(this);
    Fixtures.mustAccept("JDK", () -> jdk(probe));
  }

  /**
   * A {@code Signature} initialised for verifying once per benchmark thread; it resets after each verify.
   * One class per benchmark, not shared: JMH hands a thread state's set-up the benchmark by its own class.
   */
  @State(Scope.Thread)
  public static class ThreadSignature {
    Signature signature;

    @Setup
    public void setup(Es256VerifyBenchmark b) throws Exception {
      signature = Fixtures.verifier("SHA256withECDSAinP1363Format", b.publicKey);
    }
  }

  @Benchmark
  public SessionToken sessionless() {
    return sessionless.decode(token);
  }

  @Benchmark
  public JsonNode jdk(ThreadSignature t) throws Exception {
    return Fixtures.jdkVerify(t.signature, token, "ES256", 64);
  }

  @Benchmark
  public JWTClaimsSet nimbus() throws Exception {
    return nimbus.decode(token);
  }

  @Benchmark
  public JwtClaims jose4j() throws Exception {
    return jose4j.decode(token);
  }
}
