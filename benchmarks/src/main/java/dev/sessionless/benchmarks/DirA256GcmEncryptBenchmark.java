package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.SESSION_ID;

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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Encrypt a {@code dir} + {@code A256GCM} JWE session token with about {@link #stateBytes} of
 * state JSON: claims written with {@code iat}/{@code exp} from the clock, a fresh random 96-bit
 * IV from {@code SecureRandom} per token (both libraries), AES-GCM, compact serialization. No
 * compression. Set-up decodes Nimbus's token with Sessionless to prove it is equivalent.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.encode(Claims)}, the {@code Claims} built once.
 *   <li>{@code nimbus}: {@code JWTClaimsSet.Builder} + {@code EncryptedJWT.encrypt(DirectEncrypter)}
 *       (encrypter and header built once).
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar DirA256GcmEncryptBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DirA256GcmEncryptBenchmark {
  /** The state object's JSON size in bytes (try {@code -p stateBytes=256,1024,4096}). */
  @Param({"256"})
  int stateBytes;

  Map<String, Object> state;
  Map<String, Object> peerClaims;
  Claims claims;
  TokenCodec sessionless;
  NimbusTokens nimbus;

  @Setup
  public void setup() throws Exception {
    state = Fixtures.stateOfJsonSize(stateBytes);
    peerClaims = Map.of("st", state);
    claims = Fixtures.claims(state);
    TokenKey key = Fixtures.dirKey();
    sessionless = Fixtures.codec(key, 0);
    nimbus = new NimbusTokens(PeerTokens.keys(key), PeerTokens.Profile.SESSION, false);

    for (String token : new String[] {sessionless(), nimbus()}) {
      SessionToken t = Fixtures.mustAccept("sessionless", () -> sessionless.decode(token));
      if (!t.id().equals(SESSION_ID) || !t.stateNames().equals(state.keySet())) {
        throw new IllegalStateException("the tokens differ");
      }
      Fixtures.checkSize("the state", t.stateJson().length(), stateBytes);
    }
  }

  @Benchmark
  public String sessionless() {
    return sessionless.encode(claims);
  }

  @Benchmark
  public String nimbus() throws Exception {
    return nimbus.encode(peerClaims);
  }
}
