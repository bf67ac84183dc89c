package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.InternalTokens;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.jose4j.jwt.JwtClaims;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Session propagation (issue 14): an edge service mints a short-lived internal token for a
 * downstream service, and the downstream service verifies it with the edge's public key only.
 * The token: {@code typ} {@value InternalTokens#TOKEN_TYPE}, {@code iss} the edge, {@code aud}
 * the downstream service ({@code orders}), {@code sub} and {@code sid} carried over from the
 * session, a 60-second lifetime, and a small narrowed state (three values, 57 bytes of JSON),
 * signed with {@link #alg} (ES256 or EdDSA).
 *
 * <ul>
 *   <li>{@code sessionlessMint}: {@code TokenCodec.encode} on the edge's codec ({@code
 *       tokenType(InternalTokens.TOKEN_TYPE)}), the claims built once.
 *   <li>{@code sessionlessVerify}: the downstream codec (public key only, same type, its own
 *       audience), verification cache off.
 *   <li>{@code sessionlessVerifyCacheHit}: the downstream codec with its default cache, the same
 *       token arriving again as a new {@code String} each time (64 distinct copies cycled, as a
 *       header value is read afresh per request).
 *   <li>{@code nimbusMint}/{@code nimbusVerify}, {@code jose4jMint}/{@code jose4jVerify}: the
 *       same claims and header written, and the same checks ({@code typ}, {@code alg}, {@code
 *       exp}, {@code iss}, {@code aud}), as {@link NimbusTokens} and {@link Jose4jTokens} do them.
 *   <li>{@code jdkVerify}: the naive path on the JDK's provider ({@code
 *       SHA256withECDSAinP1363Format} or {@code Ed25519}, one {@code Signature} per thread),
 *       Jackson for the JSON, the same checks.
 *   <li>{@code signatureFloor}: the signature check alone, on input decoded before the run (the
 *       signing input's bytes and the raw signature), with BouncyCastle's lightweight API as
 *       Sessionless's engines call it (ECDSA on the P-256 custom curve with the public point
 *       decoded once; Ed25519 with the public point decoded once). No base64, no JSON, no claim
 *       check: {@code sessionlessVerify} minus this is the cost that is Sessionless's own.
 * </ul>
 *
 * <p>Set-up proves every reader accepts the token and reads its {@code sid}, that every reader
 * refuses the same token without the internal {@code typ}, and that Sessionless's downstream
 * codec accepts every peer's minted token. The token is minted afresh before each iteration, so
 * its 60-second lifetime never runs out during a run (keep iterations under a minute).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar PropagationBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PropagationBenchmark {
  static final String EDGE = "https://edge.example";
  static final String SERVICE = "orders";
  static final String SID = "s-7Rk2Qm9Vx4Lp0NwT3aYc8g";
  static final Duration LIFETIME = Duration.ofSeconds(60);
  private static final int COPIES = 64;

  /** The signing algorithm: {@code ES256} or {@code EdDSA}. */
  @Param({"ES256", "EdDSA"})
  public String alg;

  Algorithm algorithm;
  PeerTokens.Profile profile;
  TokenCodec edge;
  TokenCodec downstream;
  TokenCodec downstreamCached;
  Claims claims;
  Map<String, Object> peerClaims;
  NimbusTokens nimbus;
  Jose4jTokens jose4j;
  PeerTokens.Keys keys;
  String token;
  String[] copies;
  byte[] signingInput;
  byte[] signature;
  ECPublicKeyParameters ecPublic;
  Ed25519.PublicPoint edPublic;

  /** Keys, codecs, the peers, and the checks that they all do the same work. */
  @Setup
  public void setup() throws Exception {
    algorithm = "EdDSA".equals(alg) ? Algorithm.EDDSA : Algorithm.valueOf(alg);
    TokenKey key = TokenKey.generate("edge-2026-11", algorithm);
    edge = codec(KeySet.of(key), 0);
    downstream = codec(KeySet.of(key.publicOnly()), 0);
    downstreamCached = codec(KeySet.of(key.publicOnly()), 10_000);
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("locale", "en-GB");
    state.put("tier", "gold");
    state.put("cart", "c-20261123-0042");
    Claims.Builder b = Claims.builder().sessionId(Fixtures.SESSION_ID).subject(Fixtures.SUBJECT).claim("sid", SID);
    state.forEach(b::put);
    claims = b.build();
    peerClaims = new LinkedHashMap<>();
    peerClaims.put("sid", SID);
    peerClaims.put("st", state);
    profile = new PeerTokens.Profile(
        EDGE, SERVICE, Fixtures.SUBJECT, Fixtures.SESSION_ID, LIFETIME.getSeconds(), InternalTokens.TOKEN_TYPE);
    keys = PeerTokens.keys(key);
    nimbus = new NimbusTokens(keys, profile, false);
    jose4j = new Jose4jTokens(keys, profile, false);
    mint();

    if (algorithm == Algorithm.ES256) {
      java.security.spec.ECPoint w = ((ECPublicKey) keys.publicKey).getW();
      X9ECParameters curve = CustomNamedCurves.getByName("secp256r1");
      ECDomainParameters domain = new ECDomainParameters(curve.getCurve(), curve.getG(), curve.getN(), curve.getH());
      ecPublic = new ECPublicKeyParameters(domain.getCurve().createPoint(w.getAffineX(), w.getAffineY()), domain);
    } else {
      byte[] spki = keys.publicKey.getEncoded();   // X.509 SubjectPublicKeyInfo: the raw key is its last 32 bytes
      edPublic = Ed25519.validatePublicKeyFullExport(Arrays.copyOfRange(spki, spki.length - 32, spki.length), 0);
    }
    if (!signatureFloor()) {
      throw new IllegalStateException("the signature floor does not verify the token's signature");
    }
    ThreadSignature probe = new ThreadSignature();
    probe.setup(this);
    SessionToken t = Fixtures.mustAccept("sessionless", this::sessionlessVerify);
    Fixtures.checkSize("the state", t.stateJson().length(), 57);
    check("sessionless", t.claim("sid", String.class).orElse(null));
    check("sessionless (cache hit)", sessionlessVerifyCacheHit(new Cursor()).claim("sid", String.class).orElse(null));
    check("nimbus", Fixtures.mustAccept("nimbus", this::nimbusVerify).getStringClaim("sid"));
    check("jose4j", Fixtures.mustAccept("jose4j", this::jose4jVerify).getStringClaimValue("sid"));
    check("JDK", Fixtures.mustAccept("JDK", () -> jdkVerify(probe)).path("sid").textValue());

    String untyped = codec(KeySet.of(key), 0, null).encode(claims);
    mustReject("sessionless", () -> downstream.decode(untyped));
    mustReject("nimbus", () -> nimbus.decode(untyped));
    mustReject("jose4j", () -> jose4j.decode(untyped));
    mustReject("JDK", () -> Fixtures.jdkVerify(probe.signature, untyped, keys.alg(), sigBytes(), profile));

    for (String minted : new String[] {sessionlessMint(), nimbusMint(), jose4jMint()}) {
      check("sessionless reading a minted token",
          Fixtures.mustAccept("sessionless", () -> downstream.decode(minted)).claim("sid", String.class).orElse(null));
    }
  }

  /** Mints the token the readers verify, and its copies; before each iteration, so it never expires. */
  @Setup(Level.Iteration)
  public void mint() {
    token = edge.encode(claims);
    copies = new String[COPIES];
    char[] chars = token.toCharArray();
    for (int i = 0; i < COPIES; i++) {
      copies[i] = new String(chars);
    }
    int lastDot = token.lastIndexOf('.');
    signingInput = token.substring(0, lastDot).getBytes(StandardCharsets.US_ASCII);
    signature = Base64.getUrlDecoder().decode(token.substring(lastDot + 1));
    SessionToken first = downstreamCached.decode(token);
    for (String copy : copies) {
      if (downstreamCached.decode(copy) != first) {
        throw new IllegalStateException("a copy of the internal token missed the verification cache");
      }
    }
  }

  private TokenCodec codec(KeySet keySet, int cache) {
    return codec(keySet, cache, InternalTokens.TOKEN_TYPE);
  }

  private TokenCodec codec(KeySet keySet, int cache, String type) {
    TokenCodec.Builder b = TokenCodec.builder()
        .keys(keySet)
        .algorithm(algorithm)
        .issuer(EDGE)
        .audience(SERVICE)
        .timeToLive(LIFETIME)
        .verificationCache(cache);
    return (type == null ? b : b.tokenType(type)).build();
  }

  private int sigBytes() {
    return algorithm == Algorithm.ES256 ? 64 : 0;
  }

  private static void check(String who, String sid) {
    if (!SID.equals(sid)) {
      throw new IllegalStateException(who + " read sid " + sid + " instead of " + SID);
    }
  }

  private static void mustReject(String who, Callable<?> decode) {
    Object accepted;
    try {
      accepted = decode.call();
    } catch (Exception e) {
      return;
    }
    throw new IllegalStateException(who + " accepted a token without the internal typ: " + Objects.toString(accepted));
  }

  /**
   * A {@code Signature} initialised for verifying once per benchmark thread.
   * One class per benchmark, not shared: JMH hands a thread state's set-up the benchmark by its own class.
   */
  @State(Scope.Thread)
  public static class ThreadSignature {
    Signature signature;

    /** Initialises the thread's verifier for the edge's public key. */
    @Setup
    public void setup(PropagationBenchmark b) throws Exception {
      signature = Fixtures.verifier(b.algorithm == Algorithm.ES256 ? "SHA256withECDSAinP1363Format" : "Ed25519",
          b.keys.publicKey);
    }
  }

  /** Each thread walks the copies of the token on its own. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
  }

  @Benchmark
  public String sessionlessMint() {
    return edge.encode(claims);
  }

  @Benchmark
  public SessionToken sessionlessVerify() {
    return downstream.decode(token);
  }

  @Benchmark
  public SessionToken sessionlessVerifyCacheHit(Cursor c) {
    return downstreamCached.decode(copies[c.next++ & (COPIES - 1)]);
  }

  @Benchmark
  public String nimbusMint() throws Exception {
    return nimbus.encode(peerClaims);
  }

  @Benchmark
  public JWTClaimsSet nimbusVerify() throws Exception {
    return nimbus.decode(token);
  }

  @Benchmark
  public String jose4jMint() throws Exception {
    return jose4j.encode(peerClaims);
  }

  @Benchmark
  public JwtClaims jose4jVerify() throws Exception {
    return jose4j.decode(token);
  }

  @Benchmark
  public JsonNode jdkVerify(ThreadSignature t) throws Exception {
    return Fixtures.jdkVerify(t.signature, token, keys.alg(), sigBytes(), profile);
  }

  @Benchmark
  public boolean signatureFloor() {
    if (ecPublic == null) {
      return Ed25519.verify(signature, 0, edPublic, signingInput, 0, signingInput.length);
    }
    SHA256Digest md = new SHA256Digest();
    md.update(signingInput, 0, signingInput.length);
    byte[] hash = new byte[32];
    md.doFinal(hash, 0);
    ECDSASigner verifier = new ECDSASigner();
    verifier.init(false, ecPublic);
    return verifier.verifySignature(hash, new BigInteger(1, signature, 0, 32), new BigInteger(1, signature, 32, 32));
  }
}
