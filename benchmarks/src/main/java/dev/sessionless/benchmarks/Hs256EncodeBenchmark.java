package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.B64URL_ENCODER;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;
import static dev.sessionless.benchmarks.Fixtures.KID;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;
import static dev.sessionless.benchmarks.Fixtures.SESSION_ID;
import static dev.sessionless.benchmarks.Fixtures.SUBJECT;
import static dev.sessionless.benchmarks.Fixtures.TTL_SECONDS;

import com.auth0.jwt.JWT;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import io.jsonwebtoken.Jwts;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.keys.HmacKey;
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

  byte[] secret;
  Map<String, Object> state;
  Claims claims;
  TokenCodec sessionless;
  HmacKey jose4jKey;
  JWSHeader nimbusHeader;
  MACSigner nimbusSigner;
  SecretKey jjwtKey;
  com.auth0.jwt.algorithms.Algorithm javaJwtAlgorithm;
  String naiveHeader;

  @Setup
  public void setup() throws Exception {
    secret = Fixtures.secret(32, 256);
    state = Fixtures.stateForPayload(payloadBytes);
    claims = Fixtures.claims(state);
    sessionless = Fixtures.codec(Fixtures.hs256Key(secret), 0);
    jose4jKey = new HmacKey(secret);
    nimbusHeader = new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(KID).build();
    nimbusSigner = new MACSigner(secret);
    jjwtKey = new SecretKeySpec(secret, "HmacSHA256");
    javaJwtAlgorithm = com.auth0.jwt.algorithms.Algorithm.HMAC256(secret);
    naiveHeader = Fixtures.encodedHeader("HS256");

    // Each library's token must be a valid token of (about) the same size.
    int reference = Fixtures.jwsPayload(sessionless()).length;
    Fixtures.checkSize("the payload", reference, payloadBytes);
    ThreadMac probe = new ThreadMac();
    probe.setup(this);
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

  /** A {@code Mac} keyed once per benchmark thread and reused: {@code Mac} is not thread-safe. */
  @State(Scope.Thread)
  public static class ThreadMac {
    Mac mac;

    @Setup
    public void setup(Hs256EncodeBenchmark b) throws Exception {
      mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(b.secret, "HmacSHA256"));
    }
  }

  @Benchmark
  public String sessionless() {
    return sessionless.encode(claims);
  }

  @Benchmark
  public String jose4j() throws Exception {
    long now = Fixtures.nowSeconds();
    JwtClaims c = new JwtClaims();
    c.setIssuer(ISSUER);
    c.setAudience(AUDIENCE);
    c.setSubject(SUBJECT);
    c.setIssuedAt(NumericDate.fromSeconds(now));
    c.setExpirationTime(NumericDate.fromSeconds(now + TTL_SECONDS));
    c.setJwtId(SESSION_ID);
    c.setClaim("st", state);
    JsonWebSignature jws = new JsonWebSignature();
    jws.setPayload(c.toJson());
    jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
    jws.setKeyIdHeaderValue(KID);
    jws.setKey(jose4jKey);
    return jws.getCompactSerialization();
  }

  @Benchmark
  public String nimbus() throws Exception {
    long now = Fixtures.nowSeconds();
    JWTClaimsSet c = new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .subject(SUBJECT)
        .issueTime(new Date(now * 1000))
        .expirationTime(new Date((now + TTL_SECONDS) * 1000))
        .jwtID(SESSION_ID)
        .claim("st", state)
        .build();
    SignedJWT jwt = new SignedJWT(nimbusHeader, c);
    jwt.sign(nimbusSigner);
    return jwt.serialize();
  }

  @Benchmark
  @SuppressWarnings("deprecation") // audience().single(): a plain-string "aud" like everyone else's
  public String jjwt() {
    long now = Fixtures.nowSeconds();
    return Jwts.builder()
        .header().keyId(KID).and()
        .issuer(ISSUER)
        .audience().single(AUDIENCE)
        .subject(SUBJECT)
        .issuedAt(new Date(now * 1000))
        .expiration(new Date((now + TTL_SECONDS) * 1000))
        .id(SESSION_ID)
        .claim("st", state)
        .signWith(jjwtKey, Jwts.SIG.HS256)
        .compact();
  }

  @Benchmark
  public String javaJwt() {
    long now = Fixtures.nowSeconds();
    return JWT.create()
        .withKeyId(KID)
        .withIssuer(ISSUER)
        .withAudience(AUDIENCE)
        .withSubject(SUBJECT)
        .withIssuedAt(Instant.ofEpochSecond(now))
        .withExpiresAt(Instant.ofEpochSecond(now + TTL_SECONDS))
        .withJWTId(SESSION_ID)
        .withClaim("st", state)
        .sign(javaJwtAlgorithm);
  }

  @Benchmark
  public String naiveJca(ThreadMac t) throws Exception {
    byte[] json = MAPPER.writeValueAsBytes(Fixtures.claimsMap(state, Fixtures.nowSeconds()));
    String signingInput = naiveHeader + '.' + B64URL_ENCODER.encodeToString(json);
    byte[] mac = t.mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
    return signingInput + '.' + B64URL_ENCODER.encodeToString(mac);
  }
}
