package dev.sessionless.benchmarks;

import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.TokenKey;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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
public class MatrixHs256Benchmark extends MatrixBase {
  byte[] secret;
  JavaJwtTokens javaJwt;
  String naiveHeader;

  /** Keys, peers, and a check that every peer accepts the token and writes a valid one. */
  @Setup
  public void setup() throws Exception {
    secret = Fixtures.secret(32, 256);
    TokenKey key = Fixtures.hs256Key(secret);
    init(key, false);
    javaJwt = new JavaJwtTokens(keys, PeerTokens.Profile.SESSION);
    naiveHeader = Fixtures.encodedHeader("HS256");

    ThreadMac probe = new ThreadMac();
    probe.setup(this);
    Fixtures.mustAccept("java-jwt", this::javaJwtDecode);
    Fixtures.mustAccept("naive JCA", () -> naiveDecode(probe));
    checkRead("java-jwt", javaJwtDecodeRead());
    checkRead("naive JCA", naiveDecodeRead(probe));
    checkEncoded("java-jwt", javaJwtEncode());
    checkEncoded("naive JCA", naiveEncode(probe));
  }

  /** A {@code Mac} keyed once per benchmark thread: {@code Mac} is not thread-safe. */
  @State(Scope.Thread)
  public static class ThreadMac {
    Mac mac;

    /** Keys the thread's {@code Mac}. */
    @Setup
    public void setup(MatrixHs256Benchmark b) throws Exception {
      mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(b.secret, "HmacSHA256"));
    }
  }

  // ---- decode -------------------------------------------------------------------------------

  @Benchmark
  public DecodedJWT javaJwtDecode() {
    return javaJwt.decode(token);
  }

  @Benchmark
  public Object javaJwtDecodeRead() {
    return javaJwt.decodeRead(token, "locale");
  }

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
  public String javaJwtEncode() {
    return javaJwt.encode(peerClaims);
  }

  @Benchmark
  public String naiveEncode(ThreadMac t) throws Exception {
    return NaiveJose.hs256Encode(t.mac, naiveHeader, state);
  }
}
