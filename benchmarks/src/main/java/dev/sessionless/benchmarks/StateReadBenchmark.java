package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.B64URL_DECODER;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.proc.SingleKeyJWSKeySelector;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.HmacKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a request handler pays to trust a token and read one routing value from it (issue #18,
 * "the state read at parity"): every library verifies the same HS256 token (made once by
 * Sessionless, a 200-byte payload as in {@link Hs256DecodeBenchmark}) and reads the small state
 * value {@code st.locale} as a {@code String}. Set-up fails unless each one reads {@code en-GB}.
 *
 * <ul>
 *   <li>{@code naiveJcaDecodeRead}: a per-thread keyed {@code Mac}, {@code java.util.Base64},
 *       Jackson {@code readTree} of header and payload, the {@code alg}/{@code exp}/{@code iss}/
 *       {@code aud} checks, then {@code st.locale} from the tree: the floor a hand-rolled decoder
 *       reaches, and the yardstick of the issue's targets;
 *   <li>{@code sessionlessDecode}: {@code decode} alone, cache off (to subtract);
 *   <li>{@code sessionlessDecodeRead}: {@code decode} with the cache off ({@code
 *       verificationCache(0)}), then {@code get("locale", String.class)}: the full price, on the
 *       same {@code String} as every peer; {@code sessionlessDecodeReadFreshString} the same on
 *       a new {@code String} copy of the token each call (as a request parser makes it);
 *   <li>{@code sessionlessCacheHitRead}: the default cache, the token seen before, then the
 *       same {@code get}: the very {@code String} each time;
 *   <li>{@code sessionlessCacheHitReadFreshString}: the same with a new {@code String} copy of
 *       the token each call, the cookie case; {@code freshStringOnly} is that copy alone;
 *   <li>{@code javaJwtDecodeRead}, {@code nimbusDecodeRead}, {@code jose4jDecodeRead}, {@code
 *       jjwtDecodeRead}: each peer configured as in {@link Hs256DecodeBenchmark}, then {@code
 *       st} as a map and its {@code locale}.
 * </ul>
 *
 * <p>Three forks of 5 × 1 s warm-up and 5 × 1 s measurement each, so that the error is a small
 * part of a ~1 µs figure on a quiet machine:
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar StateReadBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(3)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class StateReadBenchmark {
  /** The JSON payload size in bytes. */
  @Param({"200"})
  int payloadBytes;

  String token;
  char[] tokenChars;
  byte[] secret;
  TokenCodec sessionless;
  TokenCodec sessionlessCached;
  JwtConsumer jose4j;
  DefaultJWTProcessor<SecurityContext> nimbus;
  JwtParser jjwt;
  JWTVerifier javaJwt;

  /** Keys, peers, and a check that every one reads the locale from the same token. */
  @Setup
  public void setup() throws Exception {
    secret = Fixtures.hs256Secret();
    sessionless = Fixtures.codec(Fixtures.hs256Key(secret), 0);
    sessionlessCached = Fixtures.codec(Fixtures.hs256Key(secret), 10_000);
    token = Fixtures.tokenOfPayload(sessionless, payloadBytes);
    tokenChars = token.toCharArray();

    jose4j = new JwtConsumerBuilder()
        .setVerificationKey(new HmacKey(secret))
        .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, AlgorithmIdentifiers.HMAC_SHA256)
        .setRequireExpirationTime()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(AUDIENCE)
        .build();
    nimbus = new DefaultJWTProcessor<>();
    nimbus.setJWSKeySelector(
        new SingleKeyJWSKeySelector<>(JWSAlgorithm.HS256, new SecretKeySpec(secret, "HmacSHA256")));
    nimbus.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp")));
    jjwt = Jwts.parser().verifyWith(new SecretKeySpec(secret, "HmacSHA256"))
        .requireIssuer(ISSUER).requireAudience(AUDIENCE).build();
    javaJwt = JWT.require(com.auth0.jwt.algorithms.Algorithm.HMAC256(secret))
        .withIssuer(ISSUER).withAudience(AUDIENCE).build();

    ThreadMac probe = new ThreadMac();
    probe.setup();
    MatrixBase.checkRead("naive JCA", naiveJcaDecodeRead(probe));
    Fixtures.mustAccept("sessionless", this::sessionlessDecode);
    MatrixBase.checkRead("sessionless", sessionlessDecodeRead());
    MatrixBase.checkRead("sessionless (fresh String)", sessionlessDecodeReadFreshString());
    MatrixBase.checkRead("sessionless (cache hit)", sessionlessCacheHitRead());
    MatrixBase.checkRead("sessionless (cache hit, fresh String)", sessionlessCacheHitReadFreshString());
    if (sessionlessCached.decode(new String(tokenChars)) != sessionlessCached.decode(token)) {
      throw new IllegalStateException("a fresh copy of the token missed the verification cache");
    }
    MatrixBase.checkRead("java-jwt", javaJwtDecodeRead());
    MatrixBase.checkRead("nimbus", nimbusDecodeRead());
    MatrixBase.checkRead("jose4j", jose4jDecodeRead());
    MatrixBase.checkRead("jjwt", jjwtDecodeRead());
  }

  @Benchmark
  public String naiveJcaDecodeRead(ThreadMac t) throws Exception {
    String jws = token;
    int d1 = jws.indexOf('.');
    int d2 = jws.indexOf('.', d1 + 1);
    if (d1 < 0 || d2 < 0 || jws.indexOf('.', d2 + 1) >= 0) {
      throw new SecurityException("not a compact JWS");
    }
    Fixtures.checkHeader(B64URL_DECODER.decode(jws.substring(0, d1)), "HS256", null);
    t.mac.update(jws.getBytes(StandardCharsets.US_ASCII), 0, d2);
    byte[] expected = t.mac.doFinal();
    if (!MessageDigest.isEqual(expected, B64URL_DECODER.decode(jws.substring(d2 + 1)))) {
      throw new SecurityException("bad signature");
    }
    JsonNode claims = MAPPER.readTree(B64URL_DECODER.decode(jws.substring(d1 + 1, d2)));
    return Fixtures.checkClaims(claims, Fixtures.nowSeconds()).get("st").get("locale").textValue();
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
  public String sessionlessDecodeReadFreshString() {
    return sessionless.decode(new String(tokenChars)).get("locale", String.class).orElseThrow();
  }

  @Benchmark
  public String sessionlessCacheHitRead() {
    return sessionlessCached.decode(token).get("locale", String.class).orElseThrow();
  }

  @Benchmark
  public String sessionlessCacheHitReadFreshString() {
    return sessionlessCached.decode(new String(tokenChars)).get("locale", String.class).orElseThrow();
  }

  @Benchmark
  public String freshStringOnly() {
    return new String(tokenChars);
  }

  @Benchmark
  public Object javaJwtDecodeRead() {
    return javaJwt.verify(token).getClaim("st").asMap().get("locale");
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbus.process(token, null).getJSONObjectClaim("st").get("locale");
  }

  @Benchmark
  public Object jose4jDecodeRead() throws Exception {
    return ((Map<?, ?>) jose4j.processToClaims(token).getClaimValue("st")).get("locale");
  }

  @Benchmark
  public Object jjwtDecodeRead() {
    return jjwt.parseSignedClaims(token).getPayload().get("st", Map.class).get("locale");
  }
}
