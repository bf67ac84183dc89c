package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.B64URL_DECODER;
import static dev.sessionless.benchmarks.Fixtures.B64URL_ENCODER;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;
import static dev.sessionless.benchmarks.Fixtures.KID;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;
import static dev.sessionless.benchmarks.Fixtures.SESSION_ID;
import static dev.sessionless.benchmarks.Fixtures.SUBJECT;
import static dev.sessionless.benchmarks.Fixtures.TTL_SECONDS;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.proc.SingleKeyJWSKeySelector;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.jsonwebtoken.Jws;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.HmacKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix for HS256: Sessionless, jose4j, Nimbus, jjwt, java-jwt and the naive JCA
 * path, each encoding, decoding, and decoding then reading one state value, at every state size.
 * The peers are configured as in {@link Hs256DecodeBenchmark} and {@link Hs256EncodeBenchmark}.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixHs256Benchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
public class MatrixHs256Benchmark extends MatrixBase {
  byte[] secret;
  JwtConsumer jose4j;
  HmacKey jose4jKey;
  DefaultJWTProcessor<SecurityContext> nimbus;
  JWSHeader nimbusHeader;
  MACSigner nimbusSigner;
  JwtParser jjwt;
  SecretKey jjwtKey;
  JWTVerifier javaJwt;
  com.auth0.jwt.algorithms.Algorithm javaJwtAlgorithm;
  String naiveHeader;

  /** Keys, peers, and a check that every peer accepts the token and writes a valid one. */
  @Setup
  public void setup() throws Exception {
    secret = Fixtures.secret(32, 256);
    init(Fixtures.hs256Key(secret), false);
    jjwtKey = new SecretKeySpec(secret, "HmacSHA256");
    jose4jKey = new HmacKey(secret);
    jose4j = new JwtConsumerBuilder()
        .setVerificationKey(jose4jKey)
        .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, AlgorithmIdentifiers.HMAC_SHA256)
        .setRequireExpirationTime()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(AUDIENCE)
        .build();
    nimbus = new DefaultJWTProcessor<>();
    nimbus.setJWSKeySelector(new SingleKeyJWSKeySelector<>(JWSAlgorithm.HS256, jjwtKey));
    nimbus.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp")));
    nimbusHeader = new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(KID).build();
    nimbusSigner = new MACSigner(secret);
    jjwt = Jwts.parser().verifyWith(jjwtKey).requireIssuer(ISSUER).requireAudience(AUDIENCE).build();
    javaJwtAlgorithm = com.auth0.jwt.algorithms.Algorithm.HMAC256(secret);
    javaJwt = JWT.require(javaJwtAlgorithm).withIssuer(ISSUER).withAudience(AUDIENCE).build();
    naiveHeader = Fixtures.encodedHeader("HS256");

    ThreadMac probe = new ThreadMac();
    probe.setup(this);
    Fixtures.mustAccept("jose4j", this::jose4jDecode);
    Fixtures.mustAccept("nimbus", this::nimbusDecode);
    Fixtures.mustAccept("jjwt", this::jjwtDecode);
    Fixtures.mustAccept("java-jwt", this::javaJwtDecode);
    Fixtures.mustAccept("naive JCA", () -> naiveDecode(probe));
    checkRead("jose4j", jose4jDecodeRead());
    checkRead("nimbus", nimbusDecodeRead());
    checkRead("jjwt", jjwtDecodeRead());
    checkRead("java-jwt", javaJwtDecodeRead());
    checkRead("naive JCA", naiveDecodeRead(probe));
    for (String t : new String[] {jose4jEncode(), nimbusEncode(), jjwtEncode(), javaJwtEncode(), naiveEncode(probe)}) {
      Fixtures.mustAccept("sessionless decoding a peer's token", () -> sessionless.decode(t));
    }
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
  public JwtClaims jose4jDecode() throws Exception {
    return jose4j.processToClaims(token);
  }

  @Benchmark
  public Object jose4jDecodeRead() throws Exception {
    return ((Map<?, ?>) jose4j.processToClaims(token).getClaimValue("st")).get("locale");
  }

  @Benchmark
  public JWTClaimsSet nimbusDecode() throws Exception {
    return nimbus.process(token, null);
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbus.process(token, null).getJSONObjectClaim("st").get("locale");
  }

  @Benchmark
  public Jws<io.jsonwebtoken.Claims> jjwtDecode() {
    return jjwt.parseSignedClaims(token);
  }

  @Benchmark
  public Object jjwtDecodeRead() {
    return jjwt.parseSignedClaims(token).getPayload().get("st", Map.class).get("locale");
  }

  @Benchmark
  public DecodedJWT javaJwtDecode() {
    return javaJwt.verify(token);
  }

  @Benchmark
  public Object javaJwtDecodeRead() {
    return javaJwt.verify(token).getClaim("st").asMap().get("locale");
  }

  @Benchmark
  public JsonNode naiveDecode(ThreadMac t) throws Exception {
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
    return Fixtures.checkClaims(claims, Fixtures.nowSeconds());
  }

  @Benchmark
  public String naiveDecodeRead(ThreadMac t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
  }

  // ---- encode -------------------------------------------------------------------------------

  @Benchmark
  public String jose4jEncode() throws Exception {
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
  public String nimbusEncode() throws Exception {
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
  public String jjwtEncode() {
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
  public String javaJwtEncode() {
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
  public String naiveEncode(ThreadMac t) throws Exception {
    byte[] json = MAPPER.writeValueAsBytes(Fixtures.claimsMap(state, Fixtures.nowSeconds()));
    String signingInput = naiveHeader + '.' + B64URL_ENCODER.encodeToString(json);
    byte[] mac = t.mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
    return signingInput + '.' + B64URL_ENCODER.encodeToString(mac);
  }
}
