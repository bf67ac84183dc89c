package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.SESSION_ID;
import static dev.sessionless.benchmarks.Fixtures.SUBJECT;

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
 * HS256 encode of a session token: {@code iss, aud, sub, iat, exp, jti} and a small {@code st}
 * object (about {@link #payloadBytes} of JSON), {@code iat}/{@code exp} taken from the clock on
 * every call, signed and serialized to the compact form. The state values are the same maps for
 * everyone, so every library writes the same JSON; the {@code jti} is fixed (a follow-up token
 * of an existing session) so no one pays for a random id. Set-up decodes each library's token
 * with Sessionless to prove it is a valid, equivalent token.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.encode(Claims)}, the {@code Claims} built once.
 *   <li>{@code jose4j}: {@code JwtClaims} + {@code JsonWebSignature}.
 *   <li>{@code nimbus}: {@code JWTClaimsSet.Builder} + {@code SignedJWT.sign(MACSigner)}.
 *   <li>{@code jjwt}: {@code Jwts.builder()...signWith(key, Jwts.SIG.HS256).compact()}.
 *   <li>{@code javaJwt}: {@code JWT.create()...sign(Algorithm.HMAC256)}.
 *   <li>{@code naiveJca}: a {@code LinkedHashMap} written by Jackson, {@code java.util.Base64},
 *       a per-thread keyed {@code Mac}, string concatenation.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar Hs256EncodeBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Hs256EncodeBenchmark {
  /** The JSON payload size in bytes (try {@code -p payloadBytes=200,1000,4000}). */
  @Param({"200"})
  int payloadBytes;

  Map<String, Object> state;
  Map<String, Object> peerClaims;
  Claims claims;
  TokenCodec sessionless;
  Jose4jTokens jose4j;
  NimbusTokens nimbus;
  JjwtTokens jjwt;
  JavaJwtTokens javaJwt;
  String naiveHeader;

  @Setup
  public void setup() throws Exception {
    state = Fixtures.stateForPayload(payloadBytes);
    peerClaims = Map.of("st", state);
    claims = Fixtures.claims(state);
    TokenKey key = Fixtures.hs256Key();
    sessionless = Fixtures.codec(key, 0);
    PeerTokens.Keys keys = PeerTokens.keys(key);
    jose4j = new Jose4jTokens(keys, PeerTokens.Profile.SESSION, false);
    nimbus = new NimbusTokens(keys, PeerTokens.Profile.SESSION, false);
    jjwt = new JjwtTokens(keys, PeerTokens.Profile.SESSION, false);
    javaJwt = new JavaJwtTokens(keys, PeerTokens.Profile.SESSION);
    naiveHeader = Fixtures.encodedHeader("HS256");

    // Each library's token must be a valid token of (about) the same size.
    int reference = Fixtures.jwsPayload(sessionless()).length;
    Fixtures.checkSize("the payload", reference, payloadBytes);
    ThreadMac probe = new ThreadMac();
    probe.setup();
    check("sessionless", sessionless(), reference);
    check("jose4j", jose4j(), reference);
    check("nimbus", nimbus(), reference);
    check("jjwt", jjwt(), reference);
    check("java-jwt", javaJwt(), reference);
    check("naive JCA", naiveJca(probe), reference);
  }

  private void check(String who, String token, int referenceLength) {
    SessionToken t = Fixtures.mustAccept("sessionless decoding " + who + "'s token", () -> sessionless.decode(token));
    if (!t.id().equals(SESSION_ID) || !t.subject().orElse("").equals(SUBJECT) || !t.stateNames().equals(state.keySet())) {
      throw new IllegalStateException(who + " wrote different claims");
    }
    Fixtures.checkSize(who + "'s payload", Fixtures.jwsPayload(token).length, referenceLength);
  }

  @Benchmark
  public String sessionless() {
    return sessionless.encode(claims);
  }

  @Benchmark
  public String jose4j() throws Exception {
    return jose4j.encode(peerClaims);
  }

  @Benchmark
  public String nimbus() throws Exception {
    return nimbus.encode(peerClaims);
  }

  @Benchmark
  public String jjwt() {
    return jjwt.encode(peerClaims);
  }

  @Benchmark
  public String javaJwt() {
    return javaJwt.encode(peerClaims);
  }

  @Benchmark
  public String naiveJca(ThreadMac t) throws Exception {
    return NaiveJose.hs256Encode(t.mac, naiveHeader, state);
  }
}
