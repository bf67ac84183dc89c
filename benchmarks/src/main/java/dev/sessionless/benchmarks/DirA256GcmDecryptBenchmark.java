package dev.sessionless.benchmarks;

import static dev.sessionless.benchmarks.Fixtures.AUDIENCE;
import static dev.sessionless.benchmarks.Fixtures.B64URL_DECODER;
import static dev.sessionless.benchmarks.Fixtures.ISSUER;
import static dev.sessionless.benchmarks.Fixtures.MAPPER;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.DirectDecrypter;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jose.proc.SecurityContext;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decrypt and check a {@code dir} + {@code A256GCM} JWE session token carrying about {@link
 * #stateBytes} of state JSON (the {@code st} object; the whole payload adds about 130 bytes of
 * registered claims). The token is made once by Sessionless, without compression, and every
 * peer decrypts that same string; set-up fails if any peer rejects it.
 *
 * <ul>
 *   <li>{@code sessionless}: {@code TokenCodec.decode} with {@code verificationCache(0)}; state lazy.
 *   <li>{@code nimbus}: {@code EncryptedJWT.parse} + {@code decrypt(DirectDecrypter)} (built once)
 *       + {@code DefaultJWTClaimsVerifier} (audience, exact issuer, required {@code exp}).
 *   <li>{@code jose4j}: {@code JwtConsumer} with the AES key, {@code dir}/{@code A256GCM}
 *       constraints, signature not required, encryption required, same claim checks.
 *   <li>{@code naiveJca}: {@code java.util.Base64}, a per-thread {@code Cipher
 *       "AES/GCM/NoPadding"} initialised with the token's IV and the header as AAD, Jackson
 *       {@code readTree} for header and payload, {@code alg}/{@code enc}/{@code exp}/{@code
 *       iss}/{@code aud} checks.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar DirA256GcmDecryptBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DirA256GcmDecryptBenchmark {
  /** The state object's JSON size in bytes (try {@code -p stateBytes=256,1024,4096}). */
  @Param({"256"})
  int stateBytes;

  String token;
  SecretKey aesKey;
  TokenCodec sessionless;
  DirectDecrypter nimbusDecrypter;
  DefaultJWTClaimsVerifier<SecurityContext> nimbusClaimsVerifier;
  JwtConsumer jose4j;

  @Setup
  public void setup() throws Exception {
    byte[] secret = Fixtures.secret(32, 4096);
    aesKey = new SecretKeySpec(secret, "AES");
    sessionless = Fixtures.codec(TokenKey.secret(Fixtures.KID, Algorithm.DIR_A256GCM, secret), 0);
    token = sessionless.encode(Fixtures.claims(Fixtures.stateOfJsonSize(stateBytes)));
    Fixtures.checkSize("the state", sessionless.decode(token).stateJson().length(), stateBytes);

    nimbusDecrypter = new DirectDecrypter(aesKey);
    nimbusClaimsVerifier = new DefaultJWTClaimsVerifier<>(
        AUDIENCE, new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("exp"));

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

    Fixtures.mustAccept("sessionless", this::sessionless);
    Fixtures.mustAccept("nimbus", this::nimbus);
    Fixtures.mustAccept("jose4j", this::jose4j);
    ThreadCipher probe = new ThreadCipher();
    probe.setup();
    Fixtures.mustAccept("naive JCA", () -> naiveJca(probe));
  }

  /** One {@code Cipher} per benchmark thread, re-initialised per token (each has its own IV). */
  @State(Scope.Thread)
  public static class ThreadCipher {
    Cipher cipher;

    @Setup
    public void setup() throws Exception {
      cipher = Cipher.getInstance("AES/GCM/NoPadding");
    }
  }

  @Benchmark
  public SessionToken sessionless() {
    return sessionless.decode(token);
  }

  @Benchmark
  public JWTClaimsSet nimbus() throws Exception {
    EncryptedJWT jwt = EncryptedJWT.parse(token);
    jwt.decrypt(nimbusDecrypter);
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    nimbusClaimsVerifier.verify(claims, null);
    return claims;
  }

  @Benchmark
  public JwtClaims jose4j() throws Exception {
    return jose4j.processToClaims(token);
  }

  @Benchmark
  public JsonNode naiveJca(ThreadCipher t) throws Exception {
    String jwe = token;
    int d1 = jwe.indexOf('.');
    int d2 = jwe.indexOf('.', d1 + 1);
    int d3 = jwe.indexOf('.', d2 + 1);
    int d4 = jwe.indexOf('.', d3 + 1);
    if (d1 < 0 || d2 != d1 + 1 || d3 < 0 || d4 < 0 || jwe.indexOf('.', d4 + 1) >= 0) {
      throw new SecurityException("not a compact dir JWE");
    }
    Fixtures.checkHeader(B64URL_DECODER.decode(jwe.substring(0, d1)), "dir", "A256GCM");
    byte[] iv = B64URL_DECODER.decode(jwe.substring(d2 + 1, d3));
    byte[] ciphertext = B64URL_DECODER.decode(jwe.substring(d3 + 1, d4));
    byte[] tag = B64URL_DECODER.decode(jwe.substring(d4 + 1));
    if (iv.length != 12 || tag.length != 16) {
      throw new SecurityException("bad IV or tag length");
    }
    byte[] ciphertextAndTag = new byte[ciphertext.length + tag.length]; // what JCA's GCM expects
    System.arraycopy(ciphertext, 0, ciphertextAndTag, 0, ciphertext.length);
    System.arraycopy(tag, 0, ciphertextAndTag, ciphertext.length, tag.length);
    Cipher c = t.cipher;
    c.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
    c.updateAAD(jwe.substring(0, d1).getBytes(StandardCharsets.US_ASCII));
    byte[] plain = c.doFinal(ciphertextAndTag);
    JsonNode claims = MAPPER.readTree(plain);
    return Fixtures.checkClaims(claims, Fixtures.nowSeconds());
  }
}
