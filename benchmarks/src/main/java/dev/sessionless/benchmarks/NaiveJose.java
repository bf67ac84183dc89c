package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.B64URL_DECODER;
import static dev.sessionless.benchmarks.Fixtures.B64URL_ENCODER;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The naive JCA baselines for the symmetric algorithms, shared by the per-algorithm benchmarks
 * and the matrix: what a hand-written decoder reaches with the JDK and Jackson. Deliberately
 * simple but not careless: they check {@code alg} (and {@code enc}), compare MACs in constant
 * time, bound inflation, and take the caller's per-thread {@code Mac} or {@code Cipher} (JCA
 * objects are not thread-safe). The public-key one is {@link Fixtures#jdkVerify}.
 */
final class NaiveJose {
  private NaiveJose() {}

  /** HS256: split, check the header, verify the MAC with {@code mac} (keyed), read and check the claims. */
  static JsonNode hs256Decode(Mac mac, String jws) throws Exception {
    int d1 = jws.indexOf('.');
    int d2 = jws.indexOf('.', d1 + 1);
    if (d1 < 0 || d2 < 0 || jws.indexOf('.', d2 + 1) >= 0) {
      throw new SecurityException("not a compact JWS");
    }
    Fixtures.checkHeader(B64URL_DECODER.decode(jws.substring(0, d1)), "HS256", null);
    mac.update(jws.getBytes(StandardCharsets.US_ASCII), 0, d2);
    byte[] expected = mac.doFinal();
    if (!MessageDigest.isEqual(expected, B64URL_DECODER.decode(jws.substring(d2 + 1)))) {
      throw new SecurityException("bad signature");
    }
    JsonNode claims = MAPPER.readTree(B64URL_DECODER.decode(jws.substring(d1 + 1, d2)));
    return Fixtures.checkClaims(claims, Fixtures.nowSeconds());
  }

  /** HS256: the suite's claims with {@code state} written by Jackson, Base64, the MAC from {@code mac}. */
  static String hs256Encode(Mac mac, String encodedHeader, Map<String, Object> state) throws Exception {
    byte[] json = MAPPER.writeValueAsBytes(Fixtures.claimsMap(state, Fixtures.nowSeconds()));
    String signingInput = encodedHeader + '.' + B64URL_ENCODER.encodeToString(json);
    byte[] tag = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
    return signingInput + '.' + B64URL_ENCODER.encodeToString(tag);
  }

  /**
   * {@code dir}/A256GCM: split, check the header ({@code zip: DEF} allowed), {@code cipher}
   * re-initialised with the token's IV and the header as AAD, inflate when compressed, read and
   * check the claims.
   */
  static JsonNode dirDecode(Cipher cipher, SecretKey aesKey, String jwe) throws Exception {
    int d1 = jwe.indexOf('.');
    int d2 = jwe.indexOf('.', d1 + 1);
    int d3 = jwe.indexOf('.', d2 + 1);
    int d4 = jwe.indexOf('.', d3 + 1);
    if (d1 < 0 || d2 != d1 + 1 || d3 < 0 || d4 < 0 || jwe.indexOf('.', d4 + 1) >= 0) {
      throw new SecurityException("not a compact dir JWE");
    }
    JsonNode h = MAPPER.readTree(B64URL_DECODER.decode(jwe.substring(0, d1)));
    boolean deflated = "DEF".equals(h.path("zip").textValue());
    if (!"dir".equals(h.path("alg").textValue()) || !"A256GCM".equals(h.path("enc").textValue())
        || h.has("crit") || (h.has("zip") && !deflated)) {
      throw new SecurityException("unexpected header");
    }
    byte[] iv = B64URL_DECODER.decode(jwe.substring(d2 + 1, d3));
    byte[] ciphertext = B64URL_DECODER.decode(jwe.substring(d3 + 1, d4));
    byte[] tag = B64URL_DECODER.decode(jwe.substring(d4 + 1));
    if (iv.length != 12 || tag.length != 16) {
      throw new SecurityException("bad IV or tag length");
    }
    byte[] ciphertextAndTag = new byte[ciphertext.length + tag.length]; // what JCA's GCM expects
    System.arraycopy(ciphertext, 0, ciphertextAndTag, 0, ciphertext.length);
    System.arraycopy(tag, 0, ciphertextAndTag, ciphertext.length, tag.length);
    cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
    cipher.updateAAD(jwe.substring(0, d1).getBytes(StandardCharsets.US_ASCII));
    byte[] plain = cipher.doFinal(ciphertextAndTag);
    if (deflated) {
      plain = inflate(plain, 64 * 1024);
    }
    return Fixtures.checkClaims(MAPPER.readTree(plain), Fixtures.nowSeconds());
  }

  /** Raw DEFLATE (RFC 1951), bounded: a naive decoder still must not inflate without limit. */
  static byte[] inflate(byte[] deflated, int limit) throws DataFormatException {
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(deflated);
      ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 4);
      byte[] buf = new byte[4096];
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        out.write(buf, 0, n);
        if (out.size() > limit) {
          throw new SecurityException("inflates past " + limit + " bytes");
        }
      }
      return out.toByteArray();
    } finally {
      inflater.end();
    }
  }
}
