package dev.sessionless.benchmarks;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import java.util.Map;
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
 * The two ways state reaches an HS256 token, isolated from everything else a request does:
 *
 * <ul>
 *   <li>{@code freshState}: {@code encode} of claims whose state values are application objects
 *       (maps), which the codec's {@code StateMapper} writes as JSON.
 *   <li>{@code carriedState}: a renewal, {@code encode(token.toClaims().build())} of a verified
 *       token: every state value is carried over as the JSON it arrived in.
 * </ul>
 *
 * Both write the same payload (about {@link #payloadBytes} of JSON). Set-up checks that the
 * renewed token carries the same state.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar WriteStateBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WriteStateBenchmark {
  /** The JSON payload size in bytes. */
  @Param({"400"})
  int payloadBytes;

  TokenCodec codec;
  Claims fresh;
  SessionToken token;

  @Setup
  public void setup() {
    codec = Fixtures.codec(Fixtures.hs256Key(), 0);
    Map<String, Object> state = Fixtures.stateForPayload(payloadBytes);
    fresh = Fixtures.claims(state);
    token = codec.decode(codec.encode(fresh));
    SessionToken renewed = codec.decode(carriedState());
    if (!renewed.stateJson().equals(token.stateJson()) || !renewed.id().equals(token.id())) {
      throw new IllegalStateException("the renewal did not carry the state");
    }
  }

  @Benchmark
  public String freshState() {
    return codec.encode(fresh);
  }

  @Benchmark
  public String carriedState() {
    return codec.encode(token.toClaims().build());
  }
}
