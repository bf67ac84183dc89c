package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.TokenKey;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The sizing matrix for HS256: Sessionless, jose4j, Nimbus, jjwt, java-jwt and the naive JCA
 * path, each encoding, decoding, and decoding then reading one state value, at every state size.
 * The peers are set up as in {@link PeerTokens} (the same code {@link Hs256DecodeBenchmark} and
 * {@link Hs256EncodeBenchmark} time).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixHs256Benchmark -prof gc
 * }</pre>
 */
@Warmup(iterations = 1, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class MatrixHs256Benchmark extends MatrixWithJavaJwt {
  String naiveHeader;

  /** Keys, peers, and a check that every peer accepts the token and writes a valid one. */
  @Setup
  public void setup() throws Exception {
    TokenKey key = Fixtures.hs256Key();
    init(key, false);
    naiveHeader = Fixtures.encodedHeader("HS256");

    ThreadMac probe = new ThreadMac();
    probe.setup();
    Fixtures.mustAccept("naive JCA", () -> naiveDecode(probe));
    checkRead("naive JCA", naiveDecodeRead(probe));
    checkEncoded("naive JCA", naiveEncode(probe));
  }

  // ---- decode -------------------------------------------------------------------------------

  @Benchmark
  public JsonNode naiveDecode(ThreadMac t) throws Exception {
    return NaiveJose.hs256Decode(t.mac, token);
  }

  @Benchmark
  public String naiveDecodeRead(ThreadMac t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
  }

  // ---- encode -------------------------------------------------------------------------------

  @Benchmark
  public String naiveEncode(ThreadMac t) throws Exception {
    return NaiveJose.hs256Encode(t.mac, naiveHeader, state);
  }
}
