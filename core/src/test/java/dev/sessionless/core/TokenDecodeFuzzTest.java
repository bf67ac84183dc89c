package dev.sessionless.core;

import static dev.sessionless.core.HostileTokens.AUD;
import static dev.sessionless.core.HostileTokens.ISS;
import static dev.sessionless.core.HostileTokens.NOW;
import static dev.sessionless.core.HostileTokens.TTL;
import static dev.sessionless.core.HostileTokens.ascii;
import static dev.sessionless.core.HostileTokens.b64;
import static dev.sessionless.core.HostileTokens.segments;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.testing.FuzzSeeds;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of {@link TokenCodec#decode(String)} over every algorithm
 * (HS256/384/512, ES256, EdDSA, dir+A256GCM) and every compression ({@code zip: DEF} and {@code
 * SLD1}, on signed tokens too): whatever the text, decode returns a token or throws {@link
 * TokenException}, a rejection's cause is absent or Jackson's parse error, an accepted token's
 * state reads without any other exception, and text nobody signed is never accepted.
 *
 * <p>In a normal build each {@code @FuzzTest} runs once per saved input under {@code
 * src/test/resources/dev/sessionless/core/TokenDecodeFuzzTestInputs/<method>/} (regression mode);
 * {@code docs/FUZZING.md} gives the command for a real campaign. The keys and clock are fixed, so
 * a saved input decodes the same way on every run.
 */
@Timeout(120)
class TokenDecodeFuzzTest {
  static final HostileTokens KEYS = new HostileTokens(20261128L);
  /** Every algorithm, compressed signed tokens accepted, no verification cache. */
  static final TokenCodec PLAIN = codec(0);
  /** The same with a verification cache: it must decide exactly as {@link #PLAIN} does. */
  static final TokenCodec CACHED = codec(256);
  /** One valid token per algorithm and compression, made by the codec itself. */
  static final List<String> VALID = validTokens();
  /** The ES256 tokens with their signature's other valid spelling. */
  static final List<String> OTHER_SPELLINGS = VALID.stream().filter(t -> t.startsWith(b64("{\"alg\":\"ES256\"")))
      .map(TokenDecodeFuzzTest::otherEs256Spelling).toList();

  static TokenCodec codec(int cache) {
    Algorithm[] all = Algorithm.values();
    return TokenCodec.builder().keys(KEYS.keySet).algorithm(Algorithm.HS256)
        .acceptAlgorithms(all[0], Arrays.copyOfRange(all, 1, all.length))
        .acceptCompressedSignedTokens(true)
        .issuer(ISS).audience(AUD).timeToLive(Duration.ofSeconds(TTL))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC)).maxTokenLength(8192).verificationCache(cache)
        .build();
  }

  /**
   * The same text on every run, so a saved input means the same token: HMAC and Ed25519 are
   * deterministic, ES256 is re-signed with RFC 6979 nonces and the encrypted tokens are sealed
   * with IVs from a fixed seed (their plaintext is the signed tokens' payload, compressed as the
   * header says).
   */
  static List<String> validTokens() {
    Map<String, Object> a1 = new LinkedHashMap<>();
    a1.put("sku", "A-1");
    a1.put("qty", 2);
    Map<String, Object> b7 = new LinkedHashMap<>();
    b7.put("sku", "B-7");
    b7.put("qty", 1);
    Claims claims = Claims.builder().sessionId("fuzz-session-1").subject("alice")
        .put("cart", List.of(a1, b7)).put("locale", "en-GB").put("n", 7).build();
    byte[] payload = HostileTokens.unb64(segments(writer(Algorithm.HS256, Compression.NONE).encode(claims))[1]);
    Random ivs = new Random(20261128L);
    List<String> out = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      for (Compression c : Compression.values()) {
        String made = writer(a, c).encode(claims);
        String[] seg = segments(made);
        TokenKey key = KEYS.keySet.key(kidOf(seg[0])).orElseThrow();
        if (a == Algorithm.ES256) {
          made = seg[0] + "." + seg[1] + "." + b64(es256Deterministic(key, ascii(seg[0] + "." + seg[1])));
        } else if (a.isEncrypting()) {
          byte[] plain = c == Compression.NONE ? payload : deflate(payload, c == Compression.DEFLATE_WITH_DICTIONARY);
          made = KEYS.jweSegments(key, seg[0], "", plain, HostileTokens.bytes(ivs, 12), 128);
        }
        out.add(made);
      }
    }
    return List.copyOf(out);
  }

  static TokenCodec writer(Algorithm a, Compression c) {
    return TokenCodec.builder().keys(KEYS.keySet).algorithm(a).compression(c)
        .issuer(ISS).audience(AUD).timeToLive(Duration.ofSeconds(TTL))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
  }

  /** An ES256 signature ({@code r || s}) with the RFC 6979 deterministic nonce. */
  static byte[] es256Deterministic(TokenKey key, byte[] input) {
    X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
    ECDomainParameters domain = new ECDomainParameters(x9.getCurve(), x9.getG(), x9.getN(), x9.getH());
    ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
    signer.init(true, new ECPrivateKeyParameters(new BigInteger(1, HostileTokens.jwkBytes(key, "d")), domain));
    SHA256Digest sha = new SHA256Digest();
    sha.update(input, 0, input.length);
    byte[] hash = new byte[32];
    sha.doFinal(hash, 0);
    BigInteger[] rs = signer.generateSignature(hash);
    return HostileTokens.concat(HostileTokens.fixed32(rs[0]), HostileTokens.fixed32(rs[1]));
  }

  /** The other valid spelling of an ES256 token's signature, (r, n - s): accepted by design (Es256MalleabilityTest). */
  static String otherEs256Spelling(String token) {
    String[] seg = segments(token);
    byte[] sig = HostileTokens.unb64(seg[2]);
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
    byte[] other = HostileTokens.concat(Arrays.copyOfRange(sig, 0, 32),
        HostileTokens.fixed32(HostileTokens.P256_N.subtract(s)));
    return seg[0] + "." + seg[1] + "." + b64(other);
  }

  // ---- the fuzz targets ---------------------------------------------------------------------

  /**
   * The input, one character per byte (ISO-8859-1, so non-ASCII characters are reached too), as
   * a whole token. Decoded by the plain and the cached codec, which must agree.
   */
  @FuzzTest(maxDuration = "5m")
  void anyTextIsDecodedOrRejectedWithTokenException(byte[] input) {
    String text = new String(input, StandardCharsets.ISO_8859_1);
    String plain = outcome(PLAIN, text, true);
    String cached = outcome(CACHED, text, true);
    assertEquals(plain, cached, "the cached codec decides otherwise than the plain one");
  }

  /**
   * A valid token with one part replaced by fuzzed content, re-signed or re-encrypted with the
   * right key when the mode says so, so the fuzzer reaches past the signature into the claims,
   * the state and the inflater. The input's layout:
   *
   * <ul>
   *   <li>byte 0: which valid token ({@link #VALID}, modulo its size);
   *   <li>byte 1, bits 0-1 (mode): 0 replaces segment {@code (bits 2-4)} with the rest as text;
   *       1 with the rest's base64url; 2 re-signs (re-encrypts) the token with the rest as its
   *       payload (plaintext) under the same header; 3 re-signs with the rest split at its
   *       first zero byte into header and payload JSON (signed tokens; encrypted ones as 2);
   *   <li>byte 1, bit 5: with a compressing header in mode 2 or 3, deflate the payload first
   *       (else the inflater gets the fuzzed bytes as they are); bit 6: with {@code SLD1}'s
   *       dictionary;
   *   <li>the rest: the content.
   * </ul>
   */
  @FuzzTest(maxDuration = "5m")
  void validTokenWithAFuzzedPartIsDecodedOrRejectedWithTokenException(byte[] input) {
    if (input.length < 2) {
      return;
    }
    String base = VALID.get((input[0] & 0xff) % VALID.size());
    int control = input[1] & 0xff;
    byte[] rest = Arrays.copyOfRange(input, 2, input.length);
    String[] seg = segments(base);
    boolean encrypted = seg.length == 5;
    String token;
    boolean blind;
    switch (control & 3) {
      case 0:
      case 1: {
        int at = ((control >>> 2) & 7) % seg.length;
        seg[at] = (control & 3) == 0 ? new String(rest, StandardCharsets.ISO_8859_1) : b64(rest);
        token = String.join(".", seg);
        blind = true;
        break;
      }
      default: {
        TokenKey key = KEYS.keySet.key(kidOf(seg[0])).orElseThrow();
        byte[] header = HostileTokens.unb64(seg[0]);
        byte[] payload = rest;
        if ((control & 3) == 3 && !encrypted) {
          int zero = indexOf(rest, (byte) 0);
          if (zero >= 0) {
            header = Arrays.copyOfRange(rest, 0, zero);
            payload = Arrays.copyOfRange(rest, zero + 1, rest.length);
          }
        }
        if ((control & 0x20) != 0 && new String(header, StandardCharsets.ISO_8859_1).contains("\"zip\"")) {
          payload = deflate(payload, (control & 0x40) != 0);
        }
        token = encrypted
            ? KEYS.jweSegments(key, seg[0], "", payload, Arrays.copyOf(payload, 12), 128)
            : KEYS.jwsSegments(key, b64(header), b64(payload));
        blind = false;
      }
    }
    String plain = outcome(PLAIN, token, blind);
    String cached = outcome(CACHED, token, blind);
    assertEquals(plain, cached, "the cached codec decides otherwise than the plain one");
  }

  // ---- the properties -----------------------------------------------------------------------

  /**
   * Decodes {@code token}, reads an accepted token's state, and answers a short description of
   * the outcome; fails on anything but a token or a {@link TokenException}. With {@code blind}
   * (nobody signed the text), acceptance is allowed only for one of the valid tokens as written.
   */
  static String outcome(TokenCodec codec, String token, boolean blind) {
    SessionToken t;
    try {
      t = codec.decode(token);
    } catch (TokenException e) {
      Throwable cause = e.getCause();
      if (cause != null && !(cause instanceof tools.jackson.core.JacksonException)) {
        throw new AssertionError("rejected " + e.reason() + " with an unexpected cause", e);
      }
      return e.reason().name();
    }
    if (blind && !VALID.contains(token) && !OTHER_SPELLINGS.contains(token)) {
      fail("text nobody signed was accepted: " + token);
    }
    StringBuilder sb = new StringBuilder("accepted ").append(t.id()).append(' ').append(t.subject())
        .append(' ').append(t.expiresAt()).append(' ').append(t.keyId());
    try {
      for (String name : t.stateNames()) {
        try {
          sb.append(' ').append(name).append('=').append(t.get(name, Object.class).orElse(null));
        } catch (TokenException e) {
          if (e.reason() != Reason.STATE_MAPPING && e.reason() != Reason.MALFORMED) {
            throw new AssertionError("reading state '" + name + "' gave " + e.reason(), e);
          }
          sb.append(' ').append(name).append('!').append(e.reason());
        }
      }
      t.toClaims().build();
    } catch (TokenException e) {
      if (e.reason() != Reason.MALFORMED) {
        throw new AssertionError("reading an accepted token's state gave " + e.reason(), e);
      }
      sb.append(" state!MALFORMED");
    }
    return sb.toString();
  }

  static String kidOf(String headerSegment) {
    String json = new String(HostileTokens.unb64(headerSegment), StandardCharsets.UTF_8);
    int at = json.indexOf("\"kid\":\"") + 7;
    return json.substring(at, json.indexOf('"', at));
  }

  static int indexOf(byte[] b, byte v) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  static byte[] deflate(byte[] in, boolean dictionary) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      if (dictionary) {
        d.setDictionary(dev.sessionless.core.internal.Deflate.dictionary());
      }
      d.setInput(in);
      d.finish();
      byte[] out = new byte[in.length + in.length / 8 + 64];
      int n = 0;
      while (!d.finished()) {
        if (n == out.length) {
          out = Arrays.copyOf(out, 2 * out.length);
        }
        n += d.deflate(out, n, out.length - n);
      }
      return Arrays.copyOf(out, n);
    } finally {
      d.end();
    }
  }

  // ---- the seeds ----------------------------------------------------------------------------

  @Test
  void everyValidTokenIsAcceptedSoTheSeedsReachPastTheSignature() {
    assertEquals(Algorithm.values().length * Compression.values().length, VALID.size());
    for (String token : VALID) {
      assertTrue(outcome(PLAIN, token, true).startsWith("accepted fuzz-session-1"), token);
    }
  }

  static final FuzzSeeds INPUTS = FuzzSeeds.of(TokenDecodeFuzzTest.class);

  @Test
  void theValidTokensAreTheSameOnEveryRunSoSavedInputsKeepTheirMeaning() throws IOException {
    try (var files = Files.list(INPUTS.dir("anyTextIsDecodedOrRejectedWithTokenException"))) {
      List<Path> seeds = files.filter(p -> p.getFileName().toString().startsWith("seed-")).toList();
      assertTrue(seeds.size() >= 6, "the checked-in seeds: " + seeds);
      for (Path p : seeds) {
        assertTrue(VALID.contains(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)),
            p + " is no longer one of the valid tokens: write the seeds again (docs/FUZZING.md)");
      }
    }
  }

  /** Rewrites the checked-in seed inputs from {@link #VALID}; the command is in docs/FUZZING.md. */
  public static void main(String[] args) throws IOException {
    Path whole = INPUTS.clean("anyTextIsDecodedOrRejectedWithTokenException");
    Path parts = INPUTS.clean("validTokenWithAFuzzedPartIsDecodedOrRejectedWithTokenException");
    Random r = new Random(7);
    for (int i = 0; i < VALID.size(); i++) {
      String token = VALID.get(i);
      if (i % 3 == 0 || token.split("\\.").length == 5) {
        FuzzSeeds.write(whole, i, ascii(token));
      }
      String[] seg = segments(token);
      byte[] header = HostileTokens.unb64(seg[0]);
      // Mode 2/3 seeds: the valid payload JSON (a signed, uncompressed token's), re-signed.
      byte[] payload = HostileTokens.unb64(segments(VALID.get(0))[1]);
      boolean zip = new String(header, StandardCharsets.UTF_8).contains("\"zip\"");
      boolean sld1 = new String(header, StandardCharsets.UTF_8).contains("SLD1");
      int mode = seg.length == 5 || r.nextBoolean() ? 2 : 3;
      int control = mode | (zip ? 0x20 : 0) | (sld1 ? 0x40 : 0);
      byte[] body = mode == 3 ? HostileTokens.concat(header, new byte[] {0}, payload) : payload;
      FuzzSeeds.write(parts, i, HostileTokens.concat(new byte[] {(byte) i, (byte) control}, body));
    }
  }
}
