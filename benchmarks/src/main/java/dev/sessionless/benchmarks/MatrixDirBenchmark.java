package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.TokenKey;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The sizing matrix for {@code dir}/A256GCM, with and without DEFLATE ({@code zip: DEF}):
 * Sessionless, jose4j, Nimbus and jjwt decoding (and reading one value) and encoding, set up as in
 * {@link PeerTokens}, and the naive JCA path ({@code Cipher} AES/GCM, plus {@code Inflater} when
 * compressed). jjwt compresses with RFC 7516's raw DEFLATE registered in place of its own
 * zlib-wrapped {@code DEF} (see {@link JjwtTokens}). java-jwt has no JWE.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixDirBenchmark -prof gc
 * }</pre>
 */
@Warmup(iterations = 1, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class MatrixDirBenchmark extends MatrixBase {
  /** Whether the payload is DEFLATE-compressed before encryption. */
  @Param({"false", "true"})
  public boolean zip;

  SecretKey aesKey;

  /** Keys, peers, and a check that every peer accepts the token and writes a valid one. */
  @Setup
  public void setup() throws Exception {
    TokenKey key = Fixtures.dirKey();
    init(key, zip);
    aesKey = keys.secretKey();

    ThreadCipher probe = new ThreadCipher();
    probe.setup();
    Fixtures.mustAccept("naive JCA", () -> naiveDecode(probe));
    checkRead("naive JCA", naiveDecodeRead(probe));
  }

  @Benchmark
  public JsonNode naiveDecode(ThreadCipher t) throws Exception {
    return NaiveJose.dirDecode(t.cipher, aesKey, token);
  }

  @Benchmark
  public String naiveDecodeRead(ThreadCipher t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
  }
}
