package dev.sessionless.benchmarks;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwt.JwtClaims;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix's common part: one algorithm per subclass, the state size as a parameter,
 * Sessionless's four operations, and the three peers that do every algorithm here (jose4j,
 * Nimbus, jjwt; set up in {@link PeerTokens}) decoding, decoding and reading, and encoding.
 * Subclasses add java-jwt where it can, and the naive JCA path. Methods are named {@code
 * <library><Operation>} ({@code jose4jDecode}, {@code nimbusDecodeRead}, ...), which is what
 * {@link MatrixReport} reads back.
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
  /** The key in the peers' forms. */
  PeerTokens.Keys keys;
  /** What the peers write besides the registered claims: the state as {@code st}. */
  Map<String, Object> peerClaims;
  Jose4jTokens jose4j;
  NimbusTokens nimbus;
  JjwtTokens jjwt;

  /**
   * Builds the codecs, the token and the peers, and checks that every peer accepts the token,
   * reads the state value, and writes a token Sessionless reads back; subclasses call it first in
   * their set-up.
   */
  void init(TokenKey key, boolean compress) throws Exception {
    state = Fixtures.stateOfJsonSize(stateBytes);
    claims = Fixtures.claims(state);
    sessionless = codec(key, 0, compress);
    sessionlessCached = codec(key, 1024, compress);
    token = sessionless.encode(claims);
    keys = PeerTokens.keys(key);
    peerClaims = Map.of("st", state);
    SessionToken t = Fixtures.mustAccept("sessionless", this::sessionlessDecode);
    Fixtures.checkSize("the state", t.stateJson().length(), stateBytes);
    Fixtures.mustAccept("sessionless (cache hit)", this::sessionlessCacheHit);
    Fixtures.mustAccept("sessionless (encode)", () -> sessionless.decode(sessionlessEncode()));
    jose4j = new Jose4jTokens(keys, PeerTokens.Profile.SESSION, compress);
    nimbus = new NimbusTokens(key, keys, PeerTokens.Profile.SESSION, compress);
    jjwt = new JjwtTokens(keys, PeerTokens.Profile.SESSION, compress);
    Fixtures.mustAccept("jose4j", this::jose4jDecode);
    Fixtures.mustAccept("nimbus", this::nimbusDecode);
    Fixtures.mustAccept("jjwt", this::jjwtDecode);
    checkRead("jose4j", jose4jDecodeRead());
    checkRead("nimbus", nimbusDecodeRead());
    checkRead("jjwt", jjwtDecodeRead());
    checkEncoded("jose4j", jose4jEncode());
    checkEncoded("nimbus", nimbusEncode());
    checkEncoded("jjwt", jjwtEncode());
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

  /** Fails set-up unless Sessionless reads a peer's token back with the same state. */
  void checkEncoded(String peer, String peerToken) {
    SessionToken t = Fixtures.mustAccept("sessionless decoding " + peer + "'s token", () -> sessionless.decode(peerToken));
    if (!t.stateNames().equals(state.keySet()) || !"en-GB".equals(t.get("locale", String.class).orElse(null))) {
      throw new IllegalStateException(peer + " wrote another state: " + t.stateNames());
    }
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

  @Benchmark
  public JwtClaims jose4jDecode() throws Exception {
    return jose4j.decode(token);
  }

  @Benchmark
  public Object jose4jDecodeRead() throws Exception {
    return jose4j.decodeRead(token, "locale");
  }

  @Benchmark
  public String jose4jEncode() throws Exception {
    return jose4j.encode(peerClaims);
  }

  @Benchmark
  public JWTClaimsSet nimbusDecode() throws Exception {
    return nimbus.decode(token);
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbus.decodeRead(token, "locale");
  }

  @Benchmark
  public String nimbusEncode() throws Exception {
    return nimbus.encode(peerClaims);
  }

  @Benchmark
  public io.jsonwebtoken.Claims jjwtDecode() {
    return jjwt.decode(token);
  }

  @Benchmark
  public Object jjwtDecodeRead() {
    return jjwt.decodeRead(token, "locale");
  }

  @Benchmark
  public String jjwtEncode() {
    return jjwt.encode(peerClaims);
  }
}
