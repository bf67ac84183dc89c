package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.security.Signature;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The sizing matrix for EdDSA (Ed25519): Sessionless's four operations; Nimbus (on Tink), jose4j
 * and jjwt (both on the JDK's Ed25519) decoding, decoding and reading one value, and encoding, set
 * up as in {@link PeerTokens}; the JDK's {@code Ed25519} {@code Signature} as the naive decoder.
 * java-jwt has no EdDSA.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixEdDsaBenchmark -prof gc
 * }</pre>
 */
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class MatrixEdDsaBenchmark extends MatrixBase {

  /** A fresh key, the peers, and a check that every peer accepts the token and writes a valid one. */
  @Setup
  public void setup() throws Exception {
    TokenKey key = TokenKey.generate(Fixtures.KID, Algorithm.EDDSA);
    init(key, false);
    ThreadSignature probe = new ThreadSignature();
    probe.setup(this);
    Fixtures.mustAccept("JDK", () -> naiveDecode(probe));
    checkRead("JDK", naiveDecodeRead(probe));
  }

  /**
   * A {@code Signature} initialised for verifying once per benchmark thread.
   * One class per benchmark, not shared: JMH hands a thread state's set-up the benchmark by its own class.
   */
  @State(Scope.Thread)
  public static class ThreadSignature {
    Signature signature;

    /** Initialises the thread's verifier. */
    @Setup
    public void setup(MatrixEdDsaBenchmark b) throws Exception {
      signature = Fixtures.verifier("Ed25519", b.keys.publicKey);
    }
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
