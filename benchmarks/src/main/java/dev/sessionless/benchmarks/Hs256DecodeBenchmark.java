package dev.sessionless.benchmarks;

import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwt.JwtClaims;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * HS256 decode of one token, as a server does on every request: verify the MAC, then check
 * {@code exp}, {@code iss} and {@code aud}. The token is made once by Sessionless (a standard
 * compact JWS, payload {@code iss, aud, sub, iat, exp, jti} plus a small {@code st} object,
 * about {@link #payloadBytes} of JSON) and every peer verifies that same string; set-up fails if
 * any peer rejects it.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.decode} with {@code verificationCache(0)}, so every
 *       call is a full decode; the state stays unparsed bytes until read (lazy).
 *   <li>{@code sessionlessReadState}: the same, then every state value read back as generic
 *       maps/lists/strings ({@code get(name, Object.class)}): what the peers, which parse the whole
 *       payload eagerly, always pay. Not one of the comparisons; it prices the laziness.
 *   <li>{@code jose4j}: {@code JwtConsumer} with the key, HS256 constraint, required {@code exp},
 *       expected issuer and audience.
 *   <li>{@code nimbus}: {@code DefaultJWTProcessor} with a single-key HS256 selector and a
 *       {@code DefaultJWTClaimsVerifier} (audience, exact issuer, required {@code exp}).
 *   <li>{@code jjwt}: {@code Jwts.parser().verifyWith(key).requireIssuer().requireAudience()}.
 *   <li>{@code javaJwt}: {@code JWT.require(HMAC256).withIssuer().withAudience().build().verify}.
 *   <li>{@code naiveJca}: a per-thread keyed {@code javax.crypto.Mac}, {@code java.util.Base64}
 *       and Jackson {@code readTree} for header and payload, {@code alg}/{@code exp}/{@code
 *       iss}/{@code aud} checks: the floor a hand-rolled decoder would reach.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar Hs256DecodeBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Hs256DecodeBenchmark {
  /** The JSON payload size in bytes (try {@code -p payloadBytes=200,1000,4000}). */
  @Param({"200"})
  int payloadBytes;

  String token;
  TokenCodec sessionless;
  Jose4jTokens jose4j;
  NimbusTokens nimbus;
  JjwtTokens jjwt;
  JavaJwtTokens javaJwt;

  @Setup
  public void setup() throws Exception {
    TokenKey key = Fixtures.hs256Key();
    sessionless = Fixtures.codec(key, 0);
    token = Fixtures.tokenOfPayload(sessionless, payloadBytes);
    PeerTokens.Keys keys = PeerTokens.keys(key);
    jose4j = new Jose4jTokens(keys, PeerTokens.Profile.SESSION, false);
    nimbus = new NimbusTokens(keys, PeerTokens.Profile.SESSION, false);
    jjwt = new JjwtTokens(keys, PeerTokens.Profile.SESSION, false);
    javaJwt = new JavaJwtTokens(keys, PeerTokens.Profile.SESSION);

    // Every peer must accept the very token it is timed on.
    Fixtures.mustAccept("sessionless", this::sessionless);
    Blackhole bh = new Blackhole(
        "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    Fixtures.mustAccept("sessionless (reading the state)", () -> sessionlessReadState(bh));
    Fixtures.mustAccept("jose4j", this::jose4j);
    Fixtures.mustAccept("nimbus", this::nimbus);
    Fixtures.mustAccept("jjwt", this::jjwt);
    Fixtures.mustAccept("java-jwt", this::javaJwt);
    ThreadMac probe = new ThreadMac();
    probe.setup();
    Fixtures.mustAccept("naive JCA", () -> naiveJca(probe));
  }

  @Benchmark
  public SessionToken sessionless() {
    return sessionless.decode(token);
  }

  @Benchmark
  public SessionToken sessionlessReadState(Blackhole bh) {
    SessionToken t = sessionless.decode(token);
    for (String name : t.stateNames()) {
      bh.consume(t.get(name, Object.class).orElseThrow());
    }
    return t;
  }

  @Benchmark
  public JwtClaims jose4j() throws Exception {
    return jose4j.decode(token);
  }

  @Benchmark
  public JWTClaimsSet nimbus() throws Exception {
    return nimbus.decode(token);
  }

  @Benchmark
  public io.jsonwebtoken.Claims jjwt() {
    return jjwt.decode(token);
  }

  @Benchmark
  public DecodedJWT javaJwt() {
    return javaJwt.decode(token);
  }

  @Benchmark
  public JsonNode naiveJca(ThreadMac t) throws Exception {
    return NaiveJose.hs256Decode(t.mac, token);
  }
}
