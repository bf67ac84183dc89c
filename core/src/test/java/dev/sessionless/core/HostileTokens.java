package dev.sessionless.core;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Test-only toolkit for building hostile tokens by hand: deterministic keys of every algorithm
 * (from a seed, so fuzz failures reproduce), and independent JCA signing / AES-GCM encryption
 * over arbitrary header and payload bytes, so a test can re-sign a payload the codec would
 * never write. Not thread-safe (it caches JCA objects); one instance per test class.
 */
final class HostileTokens {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  static final long NOW_S = NOW.getEpochSecond();
  static final String ISS = "https://shop.example";
  static final String AUD = "shop";
  static final long TTL = 1800;
  /** The codec's default clock skew. */
  static final long LEEWAY = 30;
  static final BigInteger P256_N = new BigInteger(
      "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);
  /** The Ed25519 group order, 2^252 + 27742317777372353535851937790883648493. */
  static final BigInteger ED25519_L = BigInteger.ONE.shiftLeft(252)
      .add(new BigInteger("27742317777372353535851937790883648493"));

  static final ObjectMapper MAPPER = new ObjectMapper();

  final TokenKey hs256;
  final TokenKey hs384;
  final TokenKey hs512;
  final TokenKey es256;
  final TokenKey eddsa;
  final TokenKey aes;
  final KeySet keySet;

  private final Map<TokenKey, Object> jca = new IdentityHashMap<>();

  /** Keys derived from {@code seed}: the same seed gives the same keys (and so the same tokens). */
  HostileTokens(long seed) {
    Random r = new Random(seed);
    hs256 = TokenKey.secret("hs256", Algorithm.HS256, bytes(r, 32));
    hs384 = TokenKey.secret("hs384", Algorithm.HS384, bytes(r, 48));
    hs512 = TokenKey.secret("hs512", Algorithm.HS512, bytes(r, 64));
    es256 = ecKey("es256", r);
    eddsa = edKey("eddsa", r);
    aes = TokenKey.secret("aes", Algorithm.DIR_A256GCM, bytes(r, 32));
    keySet = KeySet.of(hs256, hs384, hs512, es256, eddsa, aes);
  }

  TokenKey[] all() {
    return new TokenKey[] {hs256, hs384, hs512, es256, eddsa, aes};
  }

  /** A decoder holding every key and accepting every algorithm, so only the alg-key binding stops confusion. */
  TokenCodec codec(boolean cache) {
    return codec(keySet, 8192, cache, Algorithm.values());
  }

  TokenCodec codec(KeySet keys, int maxTokenLength, boolean cache, Algorithm... accepted) {
    TokenCodec.Builder b = TokenCodec.builder()
        .keys(keys)
        .algorithm(accepted[0])
        .acceptAlgorithms(accepted[0], java.util.Arrays.copyOfRange(accepted, 1, accepted.length))
        .issuer(ISS)
        .audience(AUD)
        .timeToLive(Duration.ofSeconds(TTL))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .maxTokenLength(maxTokenLength);
    if (!cache) {
      b.verificationCache(0);
    }
    return b.build();
  }

  static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static TokenKey ecKey(String kid, Random r) {
    X9ECParameters curve = CustomNamedCurves.getByName("secp256r1");
    BigInteger d = new BigInteger(256, r).mod(P256_N.subtract(BigInteger.ONE)).add(BigInteger.ONE);
    ECPoint q = new FixedPointCombMultiplier().multiply(curve.getG(), d).normalize();
    return TokenKey.fromJwk("{\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"" + kid + "\",\"alg\":\"ES256\""
        + ",\"x\":\"" + b64(fixed32(q.getAffineXCoord().toBigInteger())) + "\""
        + ",\"y\":\"" + b64(fixed32(q.getAffineYCoord().toBigInteger())) + "\""
        + ",\"d\":\"" + b64(fixed32(d)) + "\"}");
  }

  private static TokenKey edKey(String kid, Random r) {
    byte[] d = bytes(r, 32);
    byte[] x = new byte[32];
    Ed25519.generatePublicKey(d, 0, x, 0);
    return TokenKey.fromJwk("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"" + kid + "\",\"alg\":\"EdDSA\""
        + ",\"x\":\"" + b64(x) + "\",\"d\":\"" + b64(d) + "\"}");
  }

  /** A big-endian unsigned integer in exactly 32 bytes. */
  static byte[] fixed32(BigInteger v) {
    byte[] b = v.toByteArray();
    byte[] out = new byte[32];
    int n = Math.min(b.length, 32);
    System.arraycopy(b, b.length - n, out, 32 - n, n);
    return out;
  }

  // ---- encoding -----------------------------------------------------------------------------

  static String b64(byte[] b) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  static String b64(String utf8) {
    return b64(utf8(utf8));
  }

  static byte[] unb64(String s) {
    return Base64.getUrlDecoder().decode(s);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** The JSON member {@code "name":value} (value given as JSON text). */
  static String m(String name, Object jsonValue) {
    return "\"" + name + "\":" + jsonValue;
  }

  static String q(String s) {
    return "\"" + s + "\"";
  }

  static String obj(String... members) {
    return "{" + String.join(",", members) + "}";
  }

  static final String M_ISS = m("iss", q(ISS));
  static final String M_AUD = m("aud", q(AUD));
  static final String M_IAT = m("iat", NOW_S);
  static final String M_EXP = m("exp", NOW_S + TTL);
  static final String M_JTI = m("jti", q("session-1"));

  /** A valid payload with these members added after the registered ones. */
  static String payload(String... extra) {
    String[] all = new String[5 + extra.length];
    all[0] = M_ISS;
    all[1] = M_AUD;
    all[2] = M_IAT;
    all[3] = M_EXP;
    all[4] = M_JTI;
    System.arraycopy(extra, 0, all, 5, extra.length);
    return obj(all);
  }

  /** The header the library writes for {@code key} (same member order, so it takes the fast path). */
  static String header(TokenKey key, boolean zip) {
    Algorithm a = key.algorithm();
    return a.isEncrypting()
        ? "{\"alg\":\"dir\",\"enc\":\"A256GCM\"" + (zip ? ",\"zip\":\"DEF\"" : "") + ",\"kid\":\"" + key.kid() + "\"}"
        : "{\"alg\":\"" + a.joseName() + "\",\"kid\":\"" + key.kid() + "\"}";
  }

  // ---- JWS ----------------------------------------------------------------------------------

  /** A JWS of these header and payload JSON texts (UTF-8), signed with {@code key}. */
  String jws(TokenKey key, String headerJson, String payloadJson) {
    return jwsSegments(key, b64(headerJson), b64(payloadJson));
  }

  /** A JWS of these raw header and payload bytes, signed with {@code key}. */
  String jws(TokenKey key, byte[] header, byte[] payload) {
    return jwsSegments(key, b64(header), b64(payload));
  }

  /**
   * A JWS of these already-encoded (perhaps deliberately non-canonical) segments, signed over
   * their ISO-8859-1 bytes, which is what the decoder verifies.
   */
  String jwsSegments(TokenKey key, String headerSeg, String payloadSeg) {
    String input = headerSeg + "." + payloadSeg;
    return input + "." + b64(sign(key, ascii(input)));
  }

  /** The raw JWS signature of {@code input}: HMAC, P-256 {@code r || s}, or Ed25519, through the JDK. */
  byte[] sign(TokenKey key, byte[] input) {
    try {
      Algorithm a = key.algorithm();
      switch (a) {
        case HS256:
        case HS384:
        case HS512:
          return hmac(key, "Hmac" + "SHA" + a.joseName().substring(2), input);
        case ES256: {
          Signature s = Signature.getInstance("SHA256withECDSAinP1363Format");
          s.initSign((PrivateKey) jca.computeIfAbsent(key, k -> ecPrivate(k)));
          s.update(input);
          return s.sign();
        }
        case EDDSA: {
          Signature s = Signature.getInstance("Ed25519");
          s.initSign((PrivateKey) jca.computeIfAbsent(key, k -> edPrivate(k)));
          s.update(input);
          return s.sign();
        }
        default:
          throw new IllegalArgumentException(a + " does not sign");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** HMAC of {@code input} under {@code key}'s secret, with any HMAC algorithm (for confusion tests). */
  byte[] hmac(TokenKey key, String jcaName, byte[] input) {
    return hmacWithSecret(secret(key), jcaName, input);
  }

  static byte[] hmacWithSecret(byte[] secret, String jcaName, byte[] input) {
    try {
      Mac mac = Mac.getInstance(jcaName);
      mac.init(new SecretKeySpec(secret, jcaName));
      return mac.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A DER-encoded ECDSA signature (what ES256 must not accept). */
  byte[] signDer(TokenKey key, byte[] input) {
    try {
      Signature s = Signature.getInstance("SHA256withECDSA");
      s.initSign((PrivateKey) jca.computeIfAbsent(key, k -> ecPrivate(k)));
      s.update(input);
      return s.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode jwk(TokenKey key) {
    try {
      return MAPPER.readTree(key.toJwkWithSecrets());
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] jwkBytes(TokenKey key, String member) {
    return unb64(jwk(key).get(member).asString());
  }

  byte[] secret(TokenKey key) {
    return (byte[]) jca.computeIfAbsent(key, k -> jwkBytes(k, "k"));
  }

  private static PrivateKey ecPrivate(TokenKey key) {
    try {
      AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
      p.init(new ECGenParameterSpec("secp256r1"));
      ECParameterSpec spec = p.getParameterSpec(ECParameterSpec.class);
      return KeyFactory.getInstance("EC").generatePrivate(
          new ECPrivateKeySpec(new BigInteger(1, jwkBytes(key, "d")), spec));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The ES256 key's public part as X.509 SubjectPublicKeyInfo DER (a "public key file"). */
  static byte[] ecSpki(TokenKey key) {
    try {
      AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
      p.init(new ECGenParameterSpec("secp256r1"));
      ECParameterSpec spec = p.getParameterSpec(ECParameterSpec.class);
      java.security.spec.ECPoint w = new java.security.spec.ECPoint(
          new BigInteger(1, jwkBytes(key, "x")), new BigInteger(1, jwkBytes(key, "y")));
      return KeyFactory.getInstance("EC").generatePublic(new java.security.spec.ECPublicKeySpec(w, spec)).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PrivateKey edPrivate(TokenKey key) {
    try {
      return KeyFactory.getInstance("Ed25519").generatePrivate(
          new EdECPrivateKeySpec(NamedParameterSpec.ED25519, jwkBytes(key, "d")));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- JWE ----------------------------------------------------------------------------------

  /** A dir+A256GCM JWE of {@code plaintext} (already compressed if the header says zip) under {@code key}. */
  String jwe(TokenKey key, String headerJson, byte[] plaintext, Random r) {
    return jweSegments(key, b64(headerJson), "", plaintext, bytes(r, 12), 128);
  }

  /**
   * A JWE of these parts: the header segment as given (its ASCII bytes are the AAD), an
   * encrypted-key segment, an IV of any length and a tag of any length the JDK allows.
   */
  String jweSegments(TokenKey key, String headerSeg, String encryptedKeySeg, byte[] plaintext, byte[] iv, int tagBits) {
    byte[] sealed = seal(secret(key), ascii(headerSeg), plaintext, iv, tagBits);
    int tagLen = tagBits / 8;
    byte[] ct = java.util.Arrays.copyOfRange(sealed, 0, sealed.length - tagLen);
    byte[] tag = java.util.Arrays.copyOfRange(sealed, sealed.length - tagLen, sealed.length);
    return headerSeg + "." + encryptedKeySeg + "." + b64(iv) + "." + b64(ct) + "." + b64(tag);
  }

  static byte[] seal(byte[] secret, byte[] aad, byte[] plaintext, byte[] iv, int tagBits) {
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(secret, "AES"), new GCMParameterSpec(tagBits, iv));
      c.updateAAD(aad);
      return c.doFinal(plaintext);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Raw DEFLATE (no zlib wrapper), as {@code zip: DEF} means. */
  static byte[] deflate(byte[] in) {
    return compress(in, Deflater.BEST_COMPRESSION, true);
  }

  /** The zlib-wrapped form (what {@code zip: DEF} does not mean). */
  static byte[] zlib(byte[] in) {
    return compress(in, Deflater.DEFAULT_COMPRESSION, false);
  }

  private static byte[] compress(byte[] in, int level, boolean raw) {
    Deflater d = new Deflater(level, raw);
    try {
      d.setInput(in);
      d.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[65536];
      while (!d.finished()) {
        out.write(buf, 0, d.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }

  /** Splits a compact token on every dot, keeping empty segments. */
  static String[] segments(String token) {
    return token.split("\\.", -1);
  }

  static String join(String... segments) {
    return String.join(".", segments);
  }
}
