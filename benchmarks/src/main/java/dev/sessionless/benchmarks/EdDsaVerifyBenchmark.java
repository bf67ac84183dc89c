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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * EdDSA (Ed25519) verify and claim checks of one token of about {@link #payloadBytes} of
 * payload JSON, made once by Sessionless. Sessionless verifies with BouncyCastle's lightweight
 * Ed25519 (public point decoded once, when the key is made); the JDK uses SunEC's Ed25519;
 * Nimbus uses Tink's.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.decode} with {@code verificationCache(0)}; state lazy.
 *   <li>{@code jdk}: the naive decoder with a per-thread {@code Signature "Ed25519"} initialised
 *       for the public key once.
 *   <li>{@code nimbus}: {@code SignedJWT.parse} + {@code verify(Ed25519Verifier)} (built once, on
 *       Tink) + {@code DefaultJWTClaimsVerifier}; Nimbus's {@code DefaultJWTProcessor} cannot
 *       select an {@code OctetKeyPair}, so the verifier is used directly.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar EdDsaVerifyBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EdDsaVerifyBenchmark {
  /** The JSON payload size in bytes. */
  @Param({"200"})
  int payloadBytes;

  String token;
  PublicKey publicKey;
  TokenCodec sessionless;
  NimbusTokens nimbus;

  @Setup
  public void setup() throws Exception {
    TokenKey key = TokenKey.generate(Fixtures.KID, Algorithm.EDDSA);
    sessionless = Fixtures.codec(key, 0);
    token = Fixtures.tokenOfPayload(sessionless, payloadBytes);
    PeerTokens.Keys keys = PeerTokens.keys(key.publicOnly());
    publicKey = keys.publicKey;
    nimbus = new NimbusTokens(keys, PeerTokens.Profile.SESSION, false);

    Fixtures.mustAccept("sessionless", this::sessionless);
    Fixtures.mustAccept("nimbus", this::nimbus);
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
    public void setup(EdDsaVerifyBenchmark b) throws Exception {
      signature = Fixtures.verifier("Ed25519", b.publicKey);
    }
  }

  @Benchmark
  public SessionToken sessionless() {
    return sessionless.decode(token);
  }

  @Benchmark
  public JsonNode jdk(ThreadSignature t) throws Exception {
    return Fixtures.jdkVerify(t.signature, token, "EdDSA", 0);
  }

  @Benchmark
  public JWTClaimsSet nimbus() throws Exception {
    return nimbus.decode(token);
  }
}
