package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenCodec;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
 * What the metrics hooks cost one decode, side by side in one run: the codec's listener ({@code
 * none}: the default {@code SessionlessListener.NONE}; {@code counting}: a listener that
 * increments a {@link LongAdder} per event, about what a Micrometer counter does) and the key
 * source ({@code keySet}: a static set whose usage hooks are empty; {@code keyring}: a live
 * keyring counting verifications per kid for "safe to delete"), with the verification cache on
 * (a hit: the cheapest decode, where a hook weighs most) and off (a full HS256 verification).
 * Same HS256 token, 200-byte payload, 3 keys.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ListenerOverheadBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ListenerOverheadBenchmark {
  /** The codec's listener. */
  @Param({"none", "counting"})
  String listener;

  /** Where the codec gets its keys. */
  @Param({"keySet", "keyring"})
  String source;

  /** Whether the verification cache is on (every decode a hit) or off. */
  @Param({"on", "off"})
  String cache;

  /** Counts every event into one adder, the cost of a typical metrics listener. */
  static final class CountingListener implements SessionlessListener {
    final LongAdder events = new LongAdder();

    @Override
    public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
      events.increment();
    }

    @Override
    public void tokenRejected(dev.sessionless.core.TokenException.Reason reason) {
      events.increment();
    }

    @Override
    public void tokenEncoded(String kid, Algorithm algorithm, int length) {
      events.increment();
    }
  }

  KeySourceFixture keySource;
  TokenCodec codec;
  String token;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    keySource = KeySourceFixture.of(source, Fixtures.hs256Keys(3));
    codec = TokenCodec.builder().keys(keySource.source).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(cache.equals("on") ? 1000 : 0)
        .listener(listener.equals("none") ? SessionlessListener.NONE : new CountingListener()).build();
    token = Fixtures.decodedToken(codec);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    keySource.close();
  }

  /** A new String each time, as every request's cookie is: the cache hashes and compares it. */
  @Benchmark
  public SessionToken decode() {
    return codec.decode(new String(token));
  }
}
