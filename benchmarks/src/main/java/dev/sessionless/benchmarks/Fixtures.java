package dev.sessionless.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * What every benchmark shares: the claim values, a deterministic state object of a chosen JSON
 * size, codecs, key conversion for the peers, and the set-up checks that make sure every peer
 * really accepts the token it is timed on.
 */
final class Fixtures {
  static final String ISSUER = "https://shop.example";
  static final String AUDIENCE = "shop";
  static final String SUBJECT = "user-8f3a2c";
  /** A fixed 128-bit session id, base64url, as Sessionless makes them (22 characters). */
  static final String SESSION_ID = "q3Zt8mK1Rb6YwPn0dXe4Hg";
  static final String KID = "2026-11";
  /** Long enough that a token made in set-up stays valid through any run. */
  static final Duration TTL = Duration.ofHours(12);
  static final long TTL_SECONDS = TTL.getSeconds();

  static final ObjectMapper MAPPER = JsonMapper.builder().build();
  static final Base64.Decoder B64URL_DECODER = Base64.getUrlDecoder();
  static final Base64.Encoder B64URL_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private static final String PAD_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

  private Fixtures() {}

  /** Deterministic "random" secret bytes, so runs are repeatable. */
  static byte[] secret(int length, long seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** A Sessionless codec for {@code key}; {@code cacheSize} 0 makes every decode a real one. */
  static TokenCodec codec(TokenKey key, int cacheSize) {
    return TokenCodec.builder()
        .keys(KeySet.of(key))
        .algorithm(key.algorithm())
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .timeToLive(TTL)
        .verificationCache(cacheSize)
        .build();
  }

  /** A fixed-content HS256 key (the secret is what the peers are given). */
  static TokenKey hs256Key(byte[] secret) {
    return TokenKey.secret(KID, Algorithm.HS256, secret);
  }

  /** The HS256 secret of the benchmarks (the same bytes on every call, so every run); {@link ThreadMac}'s too. */
  static byte[] hs256Secret() {
    return secret(32, 256);
  }

  /** The HS256 key of {@link #hs256Secret()}. */
  static TokenKey hs256Key() {
    return hs256Key(hs256Secret());
  }

  /** The {@code dir} + {@code A256GCM} key of the benchmarks, of fixed content. */
  static TokenKey dirKey() {
    return TokenKey.secret(KID, Algorithm.DIR_A256GCM, secret(32, 4096));
  }

  /** {@code n} fresh HS256 keys, {@code k0} to {@code k<n-1>}. */
  static KeySet hs256Keys(int n) {
    KeySet set = KeySet.empty();
    for (int i = 0; i < n; i++) {
      set = set.with(TokenKey.generate("k" + i, Algorithm.HS256));
    }
    return set;
  }

  /** A token of about {@code payloadBytes} of payload JSON, made by {@code codec} (a signing one) and checked for size. */
  static String tokenOfPayload(TokenCodec codec, int payloadBytes) {
    String token = codec.encode(claims(stateForPayload(payloadBytes)));
    checkSize("the payload", jwsPayload(token).length, payloadBytes);
    return token;
  }

  /** A token of about 200 bytes of payload made by {@code codec}; fails set-up unless the codec reads it back. */
  static String decodedToken(TokenCodec codec) {
    String token = codec.encode(claims(stateForPayload(200)));
    if (codec.decode(token).expiresAt() == null) {
      throw new IllegalStateException("the token did not decode");
    }
    return token;
  }

  /** A JDK {@code Signature} ({@code jcaName}) initialised for verifying with {@code key}. */
  static java.security.Signature verifier(String jcaName, PublicKey key) throws GeneralSecurityException {
    java.security.Signature s = java.security.Signature.getInstance(jcaName);
    s.initVerify(key);
    return s;
  }

  // ---- state and claims ------------------------------------------------------------------

  /**
   * A state object whose compact JSON is exactly {@code jsonBytes} long (when at least ~30):
   * a locale, cart items {@code {"sku":"SKU-1001","qty":1}}, and a filler string.
   */
  static Map<String, Object> stateOfJsonSize(int jsonBytes) {
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("locale", "en-GB");
    List<Map<String, Object>> items = new ArrayList<>();
    st.put("cart", items);
    for (int i = 0; ; i++) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("sku", "SKU-" + (1001 + i));
      item.put("qty", 1 + i % 3);
      items.add(item);
      if (jsonLength(st) + ",\"ref\":\"\"".length() > jsonBytes) {
        items.remove(items.size() - 1);
        break;
      }
    }
    int room = jsonBytes - jsonLength(st) - ",\"ref\":\"\"".length();
    if (room >= 0) {
      StringBuilder pad = new StringBuilder(room);
      for (int i = 0; i < room; i++) {
        pad.append(PAD_ALPHABET.charAt(i % PAD_ALPHABET.length()));
      }
      st.put("ref", pad.toString());
    }
    return st;
  }

  /**
   * A state object such that the whole JWT payload (iss, aud, sub, iat, exp, jti and {@code
   * st}) is about {@code payloadBytes} of JSON.
   */
  static Map<String, Object> stateForPayload(int payloadBytes) {
    int base = jsonLength(registeredClaims(nowSeconds())) + ",\"st\":".length();
    return stateOfJsonSize(Math.max(0, payloadBytes - base));
  }

  /** Sessionless claims: the fixed session id and subject, each state entry as a named value. */
  static Claims claims(Map<String, Object> state) {
    Claims.Builder b = Claims.builder().sessionId(SESSION_ID).subject(SUBJECT);
    state.forEach(b::put);
    return b.build();
  }

  /** The same claims as a plain map, for the naive encoder. */
  static Map<String, Object> claimsMap(Map<String, Object> state, long now) {
    Map<String, Object> c = registeredClaims(now);
    c.put("st", state);
    return c;
  }

  /** The registered claims of every benchmark token, in the order Sessionless writes them. */
  private static Map<String, Object> registeredClaims(long now) {
    Map<String, Object> c = new LinkedHashMap<>(8);
    c.put("iss", ISSUER);
    c.put("aud", AUDIENCE);
    c.put("sub", SUBJECT);
    c.put("iat", now);
    c.put("exp", now + TTL_SECONDS);
    c.put("jti", SESSION_ID);
    return c;
  }

  static long nowSeconds() {
    return Math.floorDiv(System.currentTimeMillis(), 1000);
  }

  static int jsonLength(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value).length;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The decoded payload of a compact JWS. */
  static byte[] jwsPayload(String jws) {
    String[] parts = jws.split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalStateException("not a compact JWS: " + parts.length + " segments");
    }
    return B64URL_DECODER.decode(parts[1]);
  }

  /** Fails set-up unless {@code actual} is within 10% of {@code target}. */
  static void checkSize(String what, int actual, int target) {
    if (Math.abs(actual - target) > Math.max(8, target / 10)) {
      throw new IllegalStateException(what + " is " + actual + " bytes, wanted about " + target);
    }
  }

  /**
   * Runs one peer's decode once in set-up: a benchmark that timed a peer rejecting the token
   * would be timing an exception path, so fail the trial instead.
   */
  static <T> T mustAccept(String peer, Callable<T> decode) {
    T result;
    try {
      result = decode.call();
    } catch (Exception e) {
      throw new IllegalStateException(peer + " rejected the token in set-up: " + e, e);
    }
    if (result == null) {
      throw new IllegalStateException(peer + " returned null in set-up");
    }
    return result;
  }

  // ---- naive JOSE pieces (the JCA baselines) ----------------------------------------------

  /** The naive claim checks: {@code exp} in the future, {@code iss} equal, {@code aud} equal or contained. */
  static JsonNode checkClaims(JsonNode claims, long now) {
    return checkClaims(claims, now, ISSUER, AUDIENCE);
  }

  /** {@link #checkClaims(JsonNode, long)} for another issuer and audience. */
  static JsonNode checkClaims(JsonNode claims, long now, String issuer, String audience) {
    JsonNode exp = claims.get("exp");
    if (exp == null || !exp.canConvertToLong() || now >= exp.longValue()) {
      throw new SecurityException("expired or no exp");
    }
    JsonNode iss = claims.get("iss");
    if (iss == null || !issuer.equals(iss.textValue())) {
      throw new SecurityException("wrong issuer");
    }
    JsonNode aud = claims.get("aud");
    boolean audOk = false;
    if (aud != null && aud.isTextual()) {
      audOk = audience.equals(aud.textValue());
    } else if (aud != null && aud.isArray()) {
      for (JsonNode a : aud) {
        if (audience.equals(a.textValue())) {
          audOk = true;
          break;
        }
      }
    }
    if (!audOk) {
      throw new SecurityException("wrong audience");
    }
    return claims;
  }

  /** Checks a decoded JOSE header's {@code alg} (and {@code enc}); the classic JWT bug is skipping it. */
  static void checkHeader(byte[] headerJson, String alg, String enc) throws java.io.IOException {
    checkHeader(headerJson, alg, enc, null);
  }

  /** {@link #checkHeader(byte[], String, String)}, and the {@code typ} required when {@code typ} is not null. */
  static void checkHeader(byte[] headerJson, String alg, String enc, String typ) throws java.io.IOException {
    JsonNode h = MAPPER.readTree(headerJson);
    if (typ != null && !typ.equals(h.path("typ").textValue())) {
      throw new SecurityException("unexpected typ");
    }
    if (!alg.equals(h.path("alg").textValue())
        || (enc != null && !enc.equals(h.path("enc").textValue()))
        || h.has("crit") || h.has("zip")) {
      throw new SecurityException("unexpected header");
    }
  }

  /** The base64url-encoded header {@code {"alg":...,"kid":...}} a naive encoder would write. */
  static String encodedHeader(String alg) {
    return B64URL_ENCODER.encodeToString(
        ("{\"alg\":\"" + alg + "\",\"kid\":\"" + KID + "\"}").getBytes(StandardCharsets.US_ASCII));
  }

  // ---- keys for the peers ------------------------------------------------------------------

  /** The JDK {@code ECPublicKey} of an ES256 key, read from its public JWK as a peer would. */
  static ECPublicKey ecPublicKey(TokenKey key) throws GeneralSecurityException {
    JsonNode jwk = readJwk(key.toPublicJwk());
    BigInteger x = new BigInteger(1, B64URL_DECODER.decode(jwk.get("x").textValue()));
    BigInteger y = new BigInteger(1, B64URL_DECODER.decode(jwk.get("y").textValue()));
    AlgorithmParameters params = AlgorithmParameters.getInstance("EC");
    params.init(new ECGenParameterSpec("secp256r1"));
    ECParameterSpec spec = params.getParameterSpec(ECParameterSpec.class);
    return (ECPublicKey) KeyFactory.getInstance("EC")
        .generatePublic(new ECPublicKeySpec(new ECPoint(x, y), spec));
  }

  /** The JDK Ed25519 {@code PublicKey} of an EdDSA key (RFC 8032 encoding: little-endian y, x parity in the top bit). */
  static PublicKey ed25519PublicKey(TokenKey key) throws GeneralSecurityException {
    JsonNode jwk = readJwk(key.toPublicJwk());
    byte[] x = B64URL_DECODER.decode(jwk.get("x").textValue());
    boolean xOdd = (x[31] & 0x80) != 0;
    byte[] be = new byte[32];
    for (int i = 0; i < 32; i++) {
      be[i] = x[31 - i];
    }
    be[0] &= 0x7f;
    EdECPoint point = new EdECPoint(xOdd, new BigInteger(1, be));
    return KeyFactory.getInstance("Ed25519")
        .generatePublic(new EdECPublicKeySpec(NamedParameterSpec.ED25519, point));
  }

  private static JsonNode readJwk(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The JDK-provider verifier both public-key benchmarks measure: split the compact JWS, check
   * the header, verify the signature with {@code s} (initialised for the key), read and check
   * the claims.
   *
   * @param signatureBytes the exact signature length required, or 0 for no check
   */
  static JsonNode jdkVerify(java.security.Signature s, String jws, String alg, int signatureBytes)
      throws Exception {
    return jdkVerify(s, jws, alg, signatureBytes, PeerTokens.Profile.SESSION);
  }

  /** {@link #jdkVerify(java.security.Signature, String, String, int)} for a profile's issuer, audience and {@code typ}. */
  static JsonNode jdkVerify(
      java.security.Signature s, String jws, String alg, int signatureBytes, PeerTokens.Profile profile)
      throws Exception {
    int d1 = jws.indexOf('.');
    int d2 = jws.indexOf('.', d1 + 1);
    if (d1 < 0 || d2 < 0 || jws.indexOf('.', d2 + 1) >= 0) {
      throw new SecurityException("not a compact JWS");
    }
    checkHeader(B64URL_DECODER.decode(jws.substring(0, d1)), alg, null, profile.type());
    byte[] sig = B64URL_DECODER.decode(jws.substring(d2 + 1));
    if (signatureBytes != 0 && sig.length != signatureBytes) {
      throw new SecurityException("an " + alg + " signature is " + signatureBytes + " bytes");
    }
    s.update(jws.getBytes(StandardCharsets.US_ASCII), 0, d2);
    if (!s.verify(sig)) {
      throw new SecurityException("bad signature");
    }
    JsonNode claims = MAPPER.readTree(B64URL_DECODER.decode(jws.substring(d1 + 1, d2)));
    return checkClaims(claims, nowSeconds(), profile.issuer(), profile.audience());
  }
}
