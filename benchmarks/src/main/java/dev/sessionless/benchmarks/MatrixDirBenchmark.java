package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.B64URL_DECODER;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;
import static dev.sessionless.benchmarks.Fixtures.KID;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;
import static dev.sessionless.benchmarks.Fixtures.SESSION_ID;
import static dev.sessionless.benchmarks.Fixtures.SUBJECT;
import static dev.sessionless.benchmarks.Fixtures.TTL_SECONDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.CompressionAlgorithm;
import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.crypto.DirectDecrypter;
import com.nimbusds.jose.crypto.DirectEncrypter;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.AesKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix for {@code dir}/A256GCM, with and without DEFLATE ({@code zip: DEF}):
 * Sessionless, jose4j and Nimbus decoding (and reading one value), Nimbus encoding, and the
 * naive JCA path ({@code Cipher} AES/GCM, plus {@code Inflater} when compressed). jjwt and
 * java-jwt are absent: java-jwt has no JWE; jjwt's JWE was not wired in yet.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MatrixDirBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
public class MatrixDirBenchmark extends MatrixBase {
  /** Whether the payload is DEFLATE-compressed before encryption. */
  @Param({"false", "true"})
  public boolean zip;

  SecretKey aesKey;
  JwtConsumer jose4j;
  DirectDecrypter nimbusDecrypter;
  DirectEncrypter nimbusEncrypter;
  JWEHeader nimbusHeader;
  DefaultJWTClaimsVerifier<SecurityContext> nimbusClaimsVerifier;

  /** Keys, peers, and a check that every peer accepts the token. */
  @Setup
  public void setup() throws Exception {
    byte[] secret = Fixtures.secret(32, 4096);
    init(TokenKey.secret(KID, Algorithm.DIR_A256GCM, secret), zip);
    aesKey = new SecretKeySpec(secret, "AES");
    jose4j = new JwtConsumerBuilder()
        .setDecryptionKey(new AesKey(secret))
        .setDisableRequireSignature()
        .setEnableRequireEncryption()
        .setJweAlgorithmConstraints(
            AlgorithmConstraints.ConstraintType.PERMIT, KeyManagementAlgorithmIdentifiers.DIRECT)
        .setJweContentEncryptionAlgorithmConstraints(
            AlgorithmConstraints.ConstraintType.PERMIT, ContentEncryptionAlgorithmIdentifiers.AES_256_GCM)
        .setRequireExpirationTime()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(AUDIENCE)
        .build();
    nimbusDecrypter = new DirectDecrypter(aesKey);
    nimbusEncrypter = new DirectEncrypter(aesKey);
    JWEHeader.Builder h = new JWEHeader.Builder(JWEAlgorithm.DIR, EncryptionMethod.A256GCM).keyID(KID);
    nimbusHeader = (zip ? h.compressionAlgorithm(CompressionAlgorithm.DEF) : h).build();
    nimbusClaimsVerifier = new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp"));

    ThreadCipher probe = new ThreadCipher();
    probe.setup();
    Fixtures.mustAccept("jose4j", this::jose4jDecode);
    Fixtures.mustAccept("nimbus", this::nimbusDecode);
    Fixtures.mustAccept("naive JCA", () -> naiveDecode(probe));
    checkRead("jose4j", jose4jDecodeRead());
    checkRead("nimbus", nimbusDecodeRead());
    checkRead("naive JCA", naiveDecodeRead(probe));
    String nimbusToken = nimbusEncode();
    Fixtures.mustAccept("sessionless decoding nimbus's token", () -> sessionless.decode(nimbusToken));
  }

  /** One {@code Cipher} per benchmark thread, re-initialised per token (each has its own IV). */
  @State(Scope.Thread)
  public static class ThreadCipher {
    Cipher cipher;

    /** Creates the thread's cipher. */
    @Setup
    public void setup() throws Exception {
      cipher = Cipher.getInstance("AES/GCM/NoPadding");
    }
  }

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
    EncryptedJWT jwt = EncryptedJWT.parse(token);
    jwt.decrypt(nimbusDecrypter);
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    nimbusClaimsVerifier.verify(claims, null);
    return claims;
  }

  @Benchmark
  public Object nimbusDecodeRead() throws Exception {
    return nimbusDecode().getJSONObjectClaim("st").get("locale");
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
    EncryptedJWT jwt = new EncryptedJWT(nimbusHeader, c);
    jwt.encrypt(nimbusEncrypter);
    return jwt.serialize();
  }

  @Benchmark
  public JsonNode naiveDecode(ThreadCipher t) throws Exception {
    String jwe = token;
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
    byte[] ciphertextAndTag = new byte[ciphertext.length + tag.length];
    System.arraycopy(ciphertext, 0, ciphertextAndTag, 0, ciphertext.length);
    System.arraycopy(tag, 0, ciphertextAndTag, ciphertext.length, tag.length);
    Cipher c = t.cipher;
    c.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
    c.updateAAD(jwe.substring(0, d1).getBytes(StandardCharsets.US_ASCII));
    byte[] plain = c.doFinal(ciphertextAndTag);
    if (deflated) {
      plain = inflate(plain, 64 * 1024);
    }
    return Fixtures.checkClaims(MAPPER.readTree(plain), Fixtures.nowSeconds());
  }

  @Benchmark
  public String naiveDecodeRead(ThreadCipher t) throws Exception {
    return naiveDecode(t).get("st").get("locale").textValue();
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
