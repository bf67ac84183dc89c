package dev.sessionless.benchmarks;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.keyring.Keyring;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a live {@link Keyring} adds to one decode: the snapshot read and the key look-up, against
 * the same keys as a static {@link KeySet}. The same HS256 token (200-byte payload, cache off) is
 * decoded through a codec whose key source is either the key set itself ({@code keySet}) or a
 * keyring polling a JWKS file every second on its own thread ({@code keyring}); the file holds
 * {@code keys} keys, one of which signed the token.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar KeyringDecodeBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyringDecodeBenchmark {
  /** Where the codec gets its keys. */
  @Param({"keySet", "keyring"})
  String source;

  /** How many keys the set holds. */
  @Param({"3"})
  int keys;

  KeySourceFixture keySource;
  TokenCodec codec;
  String token;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    keySource = KeySourceFixture.of(source, Fixtures.hs256Keys(keys));
    codec = TokenCodec.builder().keys(keySource.source).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(0).build();
    token = Fixtures.decodedToken(codec);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    keySource.close();
  }

  @Benchmark
  public SessionToken decode() {
    return codec.decode(token);
  }
}
