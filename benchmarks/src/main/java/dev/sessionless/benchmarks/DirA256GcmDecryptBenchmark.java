package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKey;
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
 * Decrypt and check a {@code dir} + {@code A256GCM} JWE session token carrying about {@link
 * #stateBytes} of state JSON (the {@code st} object; the whole payload adds about 130 bytes of
 * registered claims). The token is made once by Sessionless, without compression, and every
 * peer decrypts that same string; set-up fails if any peer rejects it.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.decode} with {@code verificationCache(0)}; state lazy.
 *   <li>{@code nimbus}: {@code EncryptedJWT.parse} + {@code decrypt(DirectDecrypter)} (built once)
 *       + {@code DefaultJWTClaimsVerifier} (audience, exact issuer, required {@code exp}).
 *   <li>{@code jose4j}: {@code JwtConsumer} with the AES key, {@code dir}/{@code A256GCM}
 *       constraints, signature not required, encryption required, same claim checks.
 *   <li>{@code naiveJca}: {@code java.util.Base64}, a per-thread {@code Cipher
 *       "AES/GCM/NoPadding"} initialised with the token's IV and the header as AAD, Jackson
 *       {@code readTree} for header and payload, {@code alg}/{@code enc}/{@code exp}/{@code
 *       iss}/{@code aud} checks.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar DirA256GcmDecryptBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DirA256GcmDecryptBenchmark {
  /** The state object's JSON size in bytes (try {@code -p stateBytes=256,1024,4096}). */
  @Param({"256"})
  int stateBytes;

  String token;
  SecretKey aesKey;
  TokenCodec sessionless;
  NimbusTokens nimbus;
  Jose4jTokens jose4j;

  @Setup
  public void setup() throws Exception {
    TokenKey key = Fixtures.dirKey();
    sessionless = Fixtures.codec(key, 0);
    token = sessionless.encode(Fixtures.claims(Fixtures.stateOfJsonSize(stateBytes)));
    Fixtures.checkSize("the state", sessionless.decode(token).stateJson().length(), stateBytes);
    PeerTokens.Keys keys = PeerTokens.keys(key);
    aesKey = keys.secretKey();
    nimbus = new NimbusTokens(keys, PeerTokens.Profile.SESSION, false);
    jose4j = new Jose4jTokens(keys, PeerTokens.Profile.SESSION, false);

    Fixtures.mustAccept("sessionless", this::sessionless);
    Fixtures.mustAccept("nimbus", this::nimbus);
    Fixtures.mustAccept("jose4j", this::jose4j);
    ThreadCipher probe = new ThreadCipher();
    probe.setup();
    Fixtures.mustAccept("naive JCA", () -> naiveJca(probe));
  }

  @Benchmark
  public SessionToken sessionless() {
    return sessionless.decode(token);
  }

  @Benchmark
  public JWTClaimsSet nimbus() throws Exception {
    return nimbus.decode(token);
  }

  @Benchmark
  public JwtClaims jose4j() throws Exception {
    return jose4j.decode(token);
  }

  @Benchmark
  public JsonNode naiveJca(ThreadCipher t) throws Exception {
    return NaiveJose.dirDecode(t.cipher, aesKey, token);
  }
}
