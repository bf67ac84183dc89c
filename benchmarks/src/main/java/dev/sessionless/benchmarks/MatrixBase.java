package dev.sessionless.benchmarks;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix's common part: one algorithm per subclass, the state size as a parameter, and
 * Sessionless's four operations. Subclasses add the peers that can do the same work, named
 * {@code <library><Operation>} ({@code jose4jDecode}, {@code nimbusDecodeRead}, ...), which is
 * what {@link MatrixReport} reads back.
 *
 * <ul>
 *   <li>{@code Encode}: claims built once, {@code iat}/{@code exp} from the clock, sign or
 *       encrypt, serialize.
 *   <li>{@code Decode}: verify or decrypt and check {@code exp}/{@code iss}/{@code aud}; no
 *       cache ({@code verificationCache(0)}).
 *   <li>{@code DecodeRead}: the same, then read one state value ({@code locale}), as a request
 *       handler does.
 *   <li>{@code CacheHit}: Sessionless only: a decode answered by the verification cache (on by
 *       default), the token seen before.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class MatrixBase {
  /** The state object's compact JSON size in bytes. */
  @Param({"64", "256", "1024", "4096"})
  public int stateBytes;

  Map<String, Object> state;
  Claims claims;
  TokenCodec sessionless;
  TokenCodec sessionlessCached;
  /** The token every decoder reads, made by Sessionless. */
  String token;

  /** Builds the codecs and the token; subclasses call it first in their set-up. */
  void init(TokenKey key, boolean compress) {
    state = Fixtures.stateOfJsonSize(stateBytes);
    claims = Fixtures.claims(state);
    sessionless = codec(key, 0, compress);
    sessionlessCached = codec(key, 1024, compress);
    token = sessionless.encode(claims);
    SessionToken t = Fixtures.mustAccept("sessionless", this::sessionlessDecode);
    Fixtures.checkSize("the state", t.stateJson().length(), stateBytes);
    Fixtures.mustAccept("sessionless (cache hit)", this::sessionlessCacheHit);
    Fixtures.mustAccept("sessionless (encode)", () -> sessionless.decode(sessionlessEncode()));
  }

  private static TokenCodec codec(TokenKey key, int cache, boolean compress) {
    return TokenCodec.builder()
        .keys(dev.sessionless.core.KeySet.of(key))
        .algorithm(key.algorithm())
        .issuer(Fixtures.ISSUER)
        .audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL)
        .verificationCache(cache)
        .compress(compress)
        .build();
  }

  /** Fails set-up unless a peer read back the state value every decoder reads. */
  static Object checkRead(String peer, Object value) {
    if (!"en-GB".equals(value)) {
      throw new IllegalStateException(peer + " read " + value + " instead of the locale");
    }
    return value;
  }

  @Benchmark
  public String sessionlessEncode() {
    return sessionless.encode(claims);
  }

  @Benchmark
  public SessionToken sessionlessDecode() {
    return sessionless.decode(token);
  }

  @Benchmark
  public String sessionlessDecodeRead() {
    return sessionless.decode(token).get("locale", String.class).orElseThrow();
  }

  @Benchmark
  public SessionToken sessionlessCacheHit() {
    return sessionlessCached.decode(token);
  }
}
