package dev.sessionless.core;

import static dev.sessionless.core.HostileTokens.AUD;
import static dev.sessionless.core.HostileTokens.ED25519_L;
import static dev.sessionless.core.HostileTokens.ISS;
import static dev.sessionless.core.HostileTokens.LEEWAY;
import static dev.sessionless.core.HostileTokens.M_AUD;
import static dev.sessionless.core.HostileTokens.M_EXP;
import static dev.sessionless.core.HostileTokens.M_IAT;
import static dev.sessionless.core.HostileTokens.M_ISS;
import static dev.sessionless.core.HostileTokens.M_JTI;
import static dev.sessionless.core.HostileTokens.NOW_S;
import static dev.sessionless.core.HostileTokens.P256_N;
import static dev.sessionless.core.HostileTokens.TTL;
import static dev.sessionless.core.HostileTokens.ascii;
import static dev.sessionless.core.HostileTokens.b64;
import static dev.sessionless.core.HostileTokens.bytes;
import static dev.sessionless.core.HostileTokens.concat;
import static dev.sessionless.core.HostileTokens.deflate;
import static dev.sessionless.core.HostileTokens.fixed32;
import static dev.sessionless.core.HostileTokens.header;
import static dev.sessionless.core.HostileTokens.join;
import static dev.sessionless.core.HostileTokens.m;
import static dev.sessionless.core.HostileTokens.obj;
import static dev.sessionless.core.HostileTokens.payload;
import static dev.sessionless.core.HostileTokens.q;
import static dev.sessionless.core.HostileTokens.segments;
import static dev.sessionless.core.HostileTokens.unb64;
import static dev.sessionless.core.HostileTokens.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.TokenException.Reason;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of hand-built hostile tokens, each with the exact {@link Reason} decode must give.
 *
 * <p>Every token differs from a valid one (see the "control" rows, which must be accepted) in
 * one hostile respect. Payload and encoding cases are re-signed (or re-encrypted) with the right
 * key, so only the decoder's strictness can refuse them. Each row runs against a decoder with
 * the verification cache off and one with it on, and every rejection must carry no cause or an
 * {@code JacksonException} (Jackson's parse error): anything else is a bug hidden by the catch-all
 * in {@link TokenCodec#decode(String)}.
 */
class HostileInputTest {
  static final HostileTokens T = new HostileTokens(0x5E55_1011L);
  static final TokenCodec[] DEFAULT = {T.codec(false), T.codec(true)};
  static final Random RANDOM = new Random(42);
  static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** A decoder that, like a verifying-only service, holds just the public ES256 and EdDSA keys. */
  static final TokenCodec VERIFY_ONLY = T.codec(KeySet.of(T.es256.publicOnly(), T.eddsa.publicOnly()), 8192, false,
      Algorithm.values());
  static final String HS = header(T.hs256, false);
  static final String P = payload();

  /** One row: how to make the token, which decoders to try, and what to do with a decoded token. */
  record Input(Supplier<String> token, TokenCodec[] codecs, Function<SessionToken, Object> access,
      Consumer<SessionToken> check) {}

  @ParameterizedTest(name = "{0}")
  @MethodSource({"headers", "sizeAndStructure", "encoding", "json", "claims", "crypto", "controls"})
  void decodeGivesTheExactReason(Input in, Reason expected) {
    String token = in.token().get();
    for (TokenCodec codec : in.codecs()) {
      if (expected == null) {
        SessionToken t = codec.decode(token);
        in.access().apply(t);
        t.toClaims().build(); // an accepted session can always be carried on
        in.check().accept(t);
        in.check().accept(codec.decode(token)); // again: a cache hit must agree
        continue;
      }
      TokenException e = assertThrows(TokenException.class, () -> in.access().apply(codec.decode(token)));
      assertEquals(expected, e.reason(), e::toString);
      Throwable cause = e.getCause();
      if (cause != null && !(cause instanceof tools.jackson.core.JacksonException)) {
        fail("a rejection's cause must be absent or a Jackson parse error, got " + cause, cause);
      }
    }
  }

  // ---- row builders ---------------------------------------------------------------------------

  static Arguments no(String name, Reason reason, Supplier<String> token) {
    return row(name + " -> " + reason, reason, token, DEFAULT, t -> t);
  }

  static Arguments no(String name, Reason reason, TokenCodec codec, Supplier<String> token) {
    return row(name + " -> " + reason, reason, token, new TokenCodec[] {codec}, t -> t);
  }

  /** Decode accepts (the state is read lazily), and reading the state names must refuse. */
  static Arguments stateNo(String name, Supplier<String> token) {
    return row(name + " -> decoded, state refused MALFORMED", Reason.MALFORMED, token, DEFAULT, SessionToken::stateNames);
  }

  static Arguments yes(String name, Supplier<String> token) {
    return yes(name, token, t -> {});
  }

  static Arguments yes(String name, Supplier<String> token, Consumer<SessionToken> check) {
    return Arguments.of(Named.of(name + " -> accepted",
        new Input(token, DEFAULT, SessionToken::stateNames, check)), null);
  }

  static Arguments yes(String name, TokenCodec codec, Supplier<String> token) {
    return Arguments.of(Named.of(name + " -> accepted",
        new Input(token, new TokenCodec[] {codec}, SessionToken::stateNames, t -> {})), null);
  }

  private static Arguments row(String name, Reason reason, Supplier<String> token, TokenCodec[] codecs,
      Function<SessionToken, Object> access) {
    return Arguments.of(Named.of(name, new Input(token, codecs, access, t -> {})), reason);
  }

  // ---- token builders -------------------------------------------------------------------------

  static String hs(String payloadJson) {
    return T.jws(T.hs256, HS, payloadJson);
  }

  static String hsBytes(byte[] payload) {
    return T.jws(T.hs256, utf8(HS), payload);
  }

  static String hsHeader(String headerJson) {
    return T.jws(T.hs256, headerJson, P);
  }

  static String es(String payloadJson) {
    return T.jws(T.es256, header(T.es256, false), payloadJson);
  }

  static String ed(String payloadJson) {
    return T.jws(T.eddsa, header(T.eddsa, false), payloadJson);
  }

  static String jwe(String payloadJson) {
    return T.jwe(T.aes, header(T.aes, false), utf8(payloadJson), RANDOM);
  }

  static String jweZip(byte[] plain) {
    return T.jwe(T.aes, header(T.aes, true), deflate(plain), RANDOM);
  }

  /** The payload with a {@code sub} whose string content is these raw bytes. */
  static byte[] withSubBytes(int... raw) {
    byte[] b = new byte[raw.length];
    for (int i = 0; i < raw.length; i++) {
      b[i] = (byte) raw[i];
    }
    return concat(utf8(P.substring(0, P.length() - 1) + ",\"sub\":\"a"), b, utf8("z\"}"));
  }

  static String withSegment(String token, int i, UnaryOperator<String> f) {
    String[] s = segments(token);
    s[i] = f.apply(s[i]);
    return join(s);
  }

  /** Re-signs a JWS whose header or payload segment was edited as text. */
  static String resigned(TokenKey key, String token) {
    String[] s = segments(token);
    return T.jwsSegments(key, s[0], s[1]);
  }

  /** Sets the unused low bit of a segment's last character: the same bytes, non-canonically. */
  static String nonCanonicalTail(String seg) {
    assertNotEquals(0, seg.length() % 4, "the segment must have unused trailing bits");
    int i = ALPHABET.indexOf(seg.charAt(seg.length() - 1));
    assertEquals(0, i & 1, "a canonical encoding has zero unused bits");
    String bumped = seg.substring(0, seg.length() - 1) + ALPHABET.charAt(i | 1);
    assertTrue(Arrays.equals(Base64.getUrlDecoder().decode(seg), Base64.getUrlDecoder().decode(bumped)),
        "the lenient JDK decoder reads the same bytes");
    return bumped;
  }

  static String replaceAt(String s, int i, String with) {
    return s.substring(0, i) + with + s.substring(i + 1);
  }

  static String insertAt(String s, int i, String what) {
    return s.substring(0, i) + what + s.substring(i);
  }

  static String flipBit(String seg, int byteIndex, int bit) {
    byte[] b = unb64(seg);
    b[byteIndex] ^= (byte) (1 << bit);
    return b64(b);
  }

  static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  static String stateOf(String stateJson) {
    return payload(m("st", stateJson));
  }

  /** A payload whose base64url form uses both '-' and '_', so a standard-alphabet form differs. */
  static String payloadNeedingUrlAlphabet() {
    Random r = new Random(1);
    for (int i = 0; i < 100_000; i++) {
      String p = payload(m("sub", q(randomText(r, 12))));
      String enc = b64(p);
      if (enc.contains("-") && enc.contains("_")) {
        return p;
      }
    }
    throw new IllegalStateException("no payload found");
  }

  /** Printable ASCII and a little Latin-1, none of it needing a JSON escape. */
  static String randomText(Random r, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      char c = (char) (r.nextBoolean() ? 0x21 + r.nextInt(0x5e) : 0xa1 + r.nextInt(0x5e));
      sb.append(c == '"' || c == '\\' ? 'x' : c);
    }
    return sb.toString();
  }

  /** A valid HS256 token whose signature's encoding holds a '-' or '_'. */
  static String tokenWithUrlCharInSignature() {
    for (int i = 0; i < 100_000; i++) {
      String t = hs(payload(m("sub", q("s" + i))));
      String sig = segments(t)[2];
      if (sig.contains("-") || sig.contains("_")) {
        return t;
      }
    }
    throw new IllegalStateException("no token found");
  }

  /** A payload whose length is not a multiple of 3, so its encoding has unused bits and padding. */
  static String payloadWithRemainder() {
    for (int i = 0; ; i++) {
      String p = payload(m("sub", q("x".repeat(i))));
      if (utf8(p).length % 3 != 0) {
        return p;
      }
    }
  }

  static String padded(String json) {
    return Base64.getUrlEncoder().encodeToString(utf8(json));
  }

  // ---- headers --------------------------------------------------------------------------------

  static Stream<Arguments> headers() {
    String pubEcJwk = T.es256.toPublicJwk();
    String pubEdJwk = T.eddsa.toPublicJwk();
    byte[] ecX = HostileTokens.jwkBytes(T.es256, "x");
    byte[] ecY = HostileTokens.jwkBytes(T.es256, "y");
    byte[] edX = HostileTokens.jwkBytes(T.eddsa, "x");
    return Stream.of(
        no("alg none, unsigned (empty signature)", Reason.ALGORITHM_MISMATCH,
            () -> b64("{\"alg\":\"none\",\"kid\":\"hs256\"}") + "." + b64(P) + "."),
        no("alg None (capitalised), unsigned, no kid", Reason.ALGORITHM_MISMATCH,
            () -> b64("{\"alg\":\"None\"}") + "." + b64(P) + "."),
        no("alg NONE, HMAC-signed anyway", Reason.ALGORITHM_MISMATCH,
            () -> hsHeader("{\"alg\":\"NONE\",\"kid\":\"hs256\"}")),
        no("alg none in a JWE-shaped token", Reason.ALGORITHM_MISMATCH,
            () -> withSegment(jwe(P), 0, s -> b64("{\"alg\":\"none\",\"enc\":\"A256GCM\",\"kid\":\"aes\"}"))),
        no("HS512 header on an HS256 key, HMAC-SHA512 over its secret", Reason.ALGORITHM_MISMATCH, () -> {
          String input = b64("{\"alg\":\"HS512\",\"kid\":\"hs256\"}") + "." + b64(P);
          return input + "." + b64(T.hmac(T.hs256, "HmacSHA512", ascii(input)));
        }),
        no("HS256 header on an HS512 key, HMAC-SHA256 over its secret", Reason.ALGORITHM_MISMATCH, () -> {
          String input = b64("{\"alg\":\"HS256\",\"kid\":\"hs512\"}") + "." + b64(P);
          return input + "." + b64(T.hmac(T.hs512, "HmacSHA256", ascii(input)));
        }),
        no("HS256 forged with the ES256 key's public JWK JSON as HMAC secret", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("es256", utf8(pubEcJwk))),
        no("HS256 forged with the public JWKS JSON as HMAC secret", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("es256", utf8(T.keySet.toPublicJwks()))),
        no("HS256 forged with the ES256 key's x||y as HMAC secret", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("es256", concat(ecX, ecY))),
        no("HS256 forged with the ES256 key's uncompressed point 04||x||y", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("es256", concat(new byte[] {4}, ecX, ecY))),
        no("HS256 forged with the ES256 key's X.509 SubjectPublicKeyInfo DER", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("es256", HostileTokens.ecSpki(T.es256))),
        no("HS256 forged with the EdDSA key's public JWK JSON as HMAC secret", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("eddsa", utf8(pubEdJwk))),
        no("HS256 forged with the EdDSA key's raw public key x", Reason.ALGORITHM_MISMATCH,
            () -> hmacForged("eddsa", edX)),
        no("HS256 forged with the ES256 public JWK, to a verify-only decoder holding public keys only",
            Reason.ALGORITHM_MISMATCH, VERIFY_ONLY, () -> hmacForged("es256", utf8(pubEcJwk))),
        no("HS256 forged with the EdDSA public key, to a verify-only decoder holding public keys only",
            Reason.ALGORITHM_MISMATCH, VERIFY_ONLY, () -> hmacForged("eddsa", edX)),
        yes("valid ES256 token to the verify-only decoder (control)", VERIFY_ONLY, () -> es(P)),
        no("ES256 header naming the HS256 key", Reason.ALGORITHM_MISMATCH,
            () -> T.jws(T.es256, "{\"alg\":\"ES256\",\"kid\":\"hs256\"}", P)),
        no("HS256 header naming the AES key, HMAC over the AES secret", Reason.ALGORITHM_MISMATCH, () -> {
          String input = b64("{\"alg\":\"HS256\",\"kid\":\"aes\"}") + "." + b64(P);
          return input + "." + b64(T.hmac(T.aes, "HmacSHA256", ascii(input)));
        }),
        no("dir JWE naming the HS256 key, AES-GCM with the HMAC secret", Reason.ALGORITHM_MISMATCH,
            () -> T.jweSegments(T.hs256, b64("{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"kid\":\"hs256\"}"), "",
                utf8(P), bytes(RANDOM, 12), 128)),
        no("ES256 header naming the EdDSA key", Reason.ALGORITHM_MISMATCH,
            () -> T.jws(T.es256, "{\"alg\":\"ES256\",\"kid\":\"eddsa\"}", P)),
        no("EdDSA header naming the ES256 key", Reason.ALGORITHM_MISMATCH,
            () -> T.jws(T.eddsa, "{\"alg\":\"EdDSA\",\"kid\":\"es256\"}", P)),
        no("alg hs256 in lower case", Reason.ALGORITHM_MISMATCH, () -> hsHeader("{\"alg\":\"hs256\",\"kid\":\"hs256\"}")),
        no("alg missing", Reason.MALFORMED, () -> hsHeader("{\"kid\":\"hs256\"}")),
        no("alg a number", Reason.MALFORMED, () -> hsHeader("{\"alg\":256,\"kid\":\"hs256\"}")),
        no("alg null", Reason.MALFORMED, () -> hsHeader("{\"alg\":null,\"kid\":\"hs256\"}")),
        no("kid missing", Reason.UNKNOWN_KEY, () -> hsHeader("{\"alg\":\"HS256\"}")),
        no("kid unknown", Reason.UNKNOWN_KEY, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"nope\"}")),
        no("kid empty", Reason.UNKNOWN_KEY, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"\"}")),
        no("kid in another case", Reason.UNKNOWN_KEY, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"HS256\"}")),
        no("kid with a trailing space", Reason.UNKNOWN_KEY, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256 \"}")),
        no("kid a number", Reason.MALFORMED, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":256}")),
        no("kid an array of kids", Reason.MALFORMED, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":[\"hs256\"]}")),
        no("kid with a lone surrogate escape", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\\ud800\"}")),
        no("kid naming a key that has expired", Reason.UNKNOWN_KEY,
            T.codec(KeySet.of(T.hs256.withLifecycle(null, null, Instant.ofEpochSecond(NOW_S - 1), Instant.ofEpochSecond(NOW_S - 1))), 8192,
                false, Algorithm.HS256),
            () -> hs(P)),
        no("valid ES256 token to a decoder that holds the key but accepts only HS256", Reason.ALGORITHM_MISMATCH,
            T.codec(T.keySet, 8192, false, Algorithm.HS256), () -> es(P)),
        no("crit empty array", Reason.UNSUPPORTED_HEADER,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"crit\":[]}")),
        no("crit naming exp (with exp present)", Reason.UNSUPPORTED_HEADER,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"crit\":[\"exp\"],\"exp\":1}")),
        no("crit naming b64 with b64 false (unencoded payload)", Reason.UNSUPPORTED_HEADER,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"b64\":false,\"crit\":[\"b64\"]}")),
        no("zip DEF on an HS256 token", Reason.UNSUPPORTED_HEADER,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"zip\":\"DEF\"}")),
        no("zip DEF on an ES256 token", Reason.UNSUPPORTED_HEADER,
            () -> T.jws(T.es256, "{\"alg\":\"ES256\",\"zip\":\"DEF\",\"kid\":\"es256\"}", P)),
        no("two alg members, none then HS256", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"none\",\"alg\":\"HS256\",\"kid\":\"hs256\"}")),
        no("two identical alg members", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"HS256\",\"alg\":\"HS256\",\"kid\":\"hs256\"}")),
        no("alg twice via \\u0061lg escape", Reason.MALFORMED,
            () -> hsHeader("{\"\\u0061lg\":\"none\",\"alg\":\"HS256\",\"kid\":\"hs256\"}")),
        no("kid twice via \\u006bid escape", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"\\u006bid\":\"hs512\"}")),
        no("unknown header member twice", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"x\":1,\"x\":2}")),
        no("cty JWT (nested token)", Reason.UNSUPPORTED_HEADER,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"cty\":\"JWT\"}")),
        no("enc A256GCM on a JWS", Reason.ALGORITHM_MISMATCH,
            () -> hsHeader("{\"alg\":\"HS256\",\"enc\":\"A256GCM\",\"kid\":\"hs256\"}")),
        no("typ other than JWT", Reason.WRONG_TOKEN_TYPE,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"typ\":\"at+jwt\"}")),
        no("typ of an internal service token on a session codec", Reason.WRONG_TOKEN_TYPE,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"typ\":\"sl-internal+jwt\"}")),
        no("typ a number", Reason.MALFORMED, () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"typ\":1}")),
        no("embedded jwk header with the attacker's key, signed with it", Reason.BAD_SIGNATURE, () -> {
          byte[] attacker = bytes(RANDOM, 32);
          String h = "{\"alg\":\"HS256\",\"kid\":\"hs256\",\"jwk\":{\"kty\":\"oct\",\"k\":\"" + b64(attacker) + "\"}}";
          String input = b64(h) + "." + b64(P);
          return input + "." + b64(HostileTokens.hmacWithSecret(attacker, "HmacSHA256", ascii(input)));
        }),
        no("jku header pointing elsewhere, signed with another secret", Reason.BAD_SIGNATURE, () -> {
          String input = b64("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"jku\":\"https://evil.example/jwks\"}") + "." + b64(P);
          return input + "." + b64(HostileTokens.hmacWithSecret(bytes(RANDOM, 32), "HmacSHA256", ascii(input)));
        }),
        no("header a JSON array", Reason.MALFORMED, () -> hsHeader("[\"HS256\",\"hs256\"]")),
        no("header a JSON string", Reason.MALFORMED, () -> hsHeader("\"HS256\"")),
        no("header empty", Reason.MALFORMED, () -> hsHeader("")),
        no("header with trailing data", Reason.MALFORMED, () -> hsHeader(HS + "{}")),
        no("header nested 40 deep in an unknown member", Reason.MALFORMED,
            () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"x\":" + nested(40) + "}")),
        no("header with invalid UTF-8 in an unknown member", Reason.MALFORMED,
            () -> T.jws(T.hs256, concat(utf8("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"x\":\""),
                new byte[] {(byte) 0xC0, (byte) 0xAF}, utf8("\"}")), utf8(P))),
        no("header as UTF-16LE", Reason.MALFORMED,
            () -> T.jws(T.hs256, HS.getBytes(StandardCharsets.UTF_16LE), utf8(P))),
        no("header as UTF-16BE", Reason.MALFORMED,
            () -> T.jws(T.hs256, HS.getBytes(StandardCharsets.UTF_16BE), utf8(P))),
        no("header after a UTF-8 byte order mark", Reason.MALFORMED,
            () -> T.jws(T.hs256, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(HS)), utf8(P))),
        no("JWS shape (3 segments) with the AES key's dir header", Reason.MALFORMED,
            () -> b64(header(T.aes, false)) + "." + b64(P) + "." + b64(bytes(RANDOM, 16))),
        no("JWE shape (5 segments) with an HS256 header", Reason.MALFORMED,
            () -> withSegment(jwe(P), 0, s -> b64(HS))),
        no("JWE with enc A128GCM", Reason.ALGORITHM_MISMATCH,
            () -> T.jwe(T.aes, "{\"alg\":\"dir\",\"enc\":\"A128GCM\",\"kid\":\"aes\"}", utf8(P), RANDOM)),
        no("JWE without enc", Reason.ALGORITHM_MISMATCH,
            () -> T.jwe(T.aes, "{\"alg\":\"dir\",\"kid\":\"aes\"}", utf8(P), RANDOM)),
        no("JWE with zip GZIP", Reason.UNSUPPORTED_HEADER,
            () -> T.jwe(T.aes, "{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"zip\":\"GZIP\",\"kid\":\"aes\"}",
                deflate(utf8(P)), RANDOM)),
        no("JWE with zip def in lower case", Reason.UNSUPPORTED_HEADER,
            () -> T.jwe(T.aes, "{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"zip\":\"def\",\"kid\":\"aes\"}",
                deflate(utf8(P)), RANDOM)));
  }

  static String hmacForged(String kid, byte[] secret) {
    String input = b64("{\"alg\":\"HS256\",\"kid\":\"" + kid + "\"}") + "." + b64(P);
    return input + "." + b64(HostileTokens.hmacWithSecret(secret, "HmacSHA256", ascii(input)));
  }

  // ---- size and structure ---------------------------------------------------------------------

  static Stream<Arguments> sizeAndStructure() {
    return Stream.of(
        no("9 KB of garbage (refused on length, before decoding)", Reason.TOO_LARGE, () -> "!\u00e9%".repeat(3072)),
        no("8193 dots", Reason.TOO_LARGE, () -> ".".repeat(8193)),
        no("8193 characters of base64url with JWS shape", Reason.TOO_LARGE,
            () -> "A".repeat(4000) + "." + "B".repeat(4000) + "." + "C".repeat(191)),
        no("1 MiB string", Reason.TOO_LARGE, () -> "a".repeat(1 << 20)),
        no("valid HS256 token just over the limit", Reason.TOO_LARGE, () -> tokenOfAtLeast(8193)),
        yes("valid HS256 token exactly at the 8192 limit", () -> tokenOfExactly(8192)),
        no("exactly 8192 characters of garbage (under the limit, so decoded)", Reason.MALFORMED,
            () -> "!".repeat(8192)),
        no("no dot", Reason.MALFORMED, () -> b64(HS) + b64(P)),
        no("2 segments", Reason.MALFORMED, () -> b64(HS) + "." + b64(P)),
        no("4 segments", Reason.MALFORMED, () -> hs(P) + "." + b64(P)),
        no("4 segments, trailing dot", Reason.MALFORMED, () -> hs(P) + "."),
        no("6 segments", Reason.MALFORMED, () -> jwe(P) + ".AAAA"),
        no("only dots (3 empty segments)", Reason.MALFORMED, () -> ".."),
        no("only dots (5 empty segments)", Reason.MALFORMED, () -> "...."),
        no("empty string", Reason.MALFORMED, () -> ""),
        no("null", Reason.MALFORMED, () -> null),
        no("JWS segments reordered payload.header.signature", Reason.MALFORMED, () -> {
          String[] s = segments(hs(P));
          return join(s[1], s[0], s[2]);
        }),
        no("JWS segments reordered header.signature.payload", Reason.BAD_SIGNATURE, () -> {
          String[] s = segments(hs(P));
          return join(s[0], s[2], s[1]);
        }),
        no("JWS segments reordered signature.payload.header", Reason.MALFORMED, () -> {
          String[] s = segments(hs(P));
          return join(s[2], s[1], s[0]);
        }),
        no("JWE IV and tag swapped", Reason.MALFORMED, () -> {
          String[] s = segments(jwe(P));
          return join(s[0], s[1], s[4], s[3], s[2]);
        }),
        no("JWE IV and ciphertext swapped", Reason.MALFORMED, () -> {
          String[] s = segments(jwe(P));
          return join(s[0], s[1], s[3], s[2], s[4]);
        }),
        no("JWE header and ciphertext swapped", Reason.MALFORMED, () -> {
          String[] s = segments(jwe(P));
          return join(s[3], s[1], s[2], s[0], s[4]);
        }),
        no("JWS signature short by one character", Reason.BAD_SIGNATURE,
            () -> withSegment(hs(P), 2, s -> s.substring(0, s.length() - 1))),
        no("JWS signature short by four characters", Reason.BAD_SIGNATURE,
            () -> withSegment(hs(P), 2, s -> s.substring(0, s.length() - 4))),
        no("JWS signature empty", Reason.BAD_SIGNATURE, () -> withSegment(hs(P), 2, s -> "")),
        no("ES256 signature short by one character", Reason.BAD_SIGNATURE,
            () -> withSegment(es(P), 2, s -> s.substring(0, s.length() - 1))),
        no("header short by one character", Reason.MALFORMED,
            () -> withSegment(hs(P), 0, s -> s.substring(0, s.length() - 1))),
        no("payload missing its last four characters, not re-signed", Reason.BAD_SIGNATURE,
            () -> withSegment(hs(P), 1, s -> s.substring(0, s.length() - 4))),
        no("payload missing its last four characters, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> s.substring(0, s.length() - 4)))),
        no("payload missing its first four characters, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> s.substring(4)))),
        no("JWE ciphertext missing its first four characters", Reason.DECRYPTION_FAILED,
            () -> withSegment(jwe(P), 3, s -> s.substring(4))),
        no("JWE ciphertext empty", Reason.DECRYPTION_FAILED, () -> withSegment(jwe(P), 3, s -> "")),
        no("JWE tag short by one character", Reason.MALFORMED,
            () -> withSegment(jwe(P), 4, s -> s.substring(0, s.length() - 1))),
        no("JWE IV short by one character", Reason.MALFORMED,
            () -> withSegment(jwe(P), 2, s -> s.substring(0, s.length() - 1))),
        no("leading space", Reason.MALFORMED, () -> " " + hs(P)),
        no("leading newline", Reason.MALFORMED, () -> "\n" + hs(P)),
        no("trailing space", Reason.MALFORMED, () -> hs(P) + " "),
        no("trailing newline", Reason.MALFORMED, () -> hs(P) + "\n"),
        no("trailing CRLF", Reason.MALFORMED, () -> hs(P) + "\r\n"),
        no("trailing tab on an ES256 token", Reason.MALFORMED, () -> es(P) + "\t"),
        no("trailing newline on a JWE", Reason.MALFORMED, () -> jwe(P) + "\n"),
        no("trailing no-break space", Reason.MALFORMED, () -> hs(P) + "\u00a0"),
        no("Bearer prefix left on", Reason.MALFORMED, () -> "Bearer " + hs(P)),
        no("quoted cookie value", Reason.MALFORMED, () -> "\"" + hs(P) + "\""));
  }

  /** The shortest valid HS256 token (state padded) of at least {@code length} characters. */
  static String tokenOfAtLeast(int length) {
    String base = hs(stateOf(obj(m("p", q("")))));
    for (int pad = Math.max(0, (length - base.length()) * 3 / 4 - 8); ; pad++) {
      String t = hs(stateOf(obj(m("p", q("x".repeat(pad))))));
      if (t.length() >= length) {
        return t;
      }
    }
  }

  static String tokenOfExactly(int length) {
    String t = tokenOfAtLeast(length);
    assertEquals(length, t.length(), "a token of exactly this length");
    return t;
  }

  // ---- encoding -------------------------------------------------------------------------------

  static Stream<Arguments> encoding() {
    return Stream.of(
        no("header with '=' padding", Reason.MALFORMED, () -> resigned(T.hs256, withSegment(hs(P), 0, s -> padded(HS)))),
        no("payload with '=' padding, re-signed", Reason.MALFORMED, () -> {
          String p = payloadWithRemainder();
          return T.jwsSegments(T.hs256, b64(HS), padded(p));
        }),
        no("HS256 signature with '=' padding", Reason.MALFORMED, () -> hs(P) + "="),
        no("ES256 signature with '==' padding", Reason.MALFORMED, () -> es(P) + "=="),
        no("JWE tag with '==' padding", Reason.MALFORMED, () -> jwe(P) + "=="),
        no("payload in the standard alphabet ('+', '/'), re-signed", Reason.MALFORMED, () -> {
          String p = payloadNeedingUrlAlphabet();
          return T.jwsSegments(T.hs256, b64(HS), b64(p).replace('-', '+').replace('_', '/'));
        }),
        no("header in the standard alphabet ('+', '/')", Reason.MALFORMED, () -> {
          Random r = new Random(2);
          for (int i = 0; i < 100_000; i++) {
            String h = "{\"alg\":\"HS256\",\"kid\":\"hs256\",\"x\":\"" + randomText(r, 6) + "\"}";
            String enc = b64(h);
            if (enc.contains("-") || enc.contains("_")) {
              return T.jwsSegments(T.hs256, enc.replace('-', '+').replace('_', '/'), b64(P));
            }
          }
          throw new IllegalStateException("no header found");
        }),
        no("signature in the standard alphabet ('+', '/')", Reason.MALFORMED,
            () -> withSegment(tokenWithUrlCharInSignature(), 2, s -> s.replace('-', '+').replace('_', '/'))),
        no("space inside the payload, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> insertAt(s, s.length() / 2, " ")))),
        no("payload folded with CRLF, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> insertAt(s, 40, "\r\n")))),
        no("newline inside the header", Reason.MALFORMED, () -> withSegment(hs(P), 0, s -> insertAt(s, 8, "\n"))),
        no("tab inside the signature", Reason.MALFORMED, () -> withSegment(hs(P), 2, s -> insertAt(s, 10, "\t"))),
        no("space replacing a signature character", Reason.MALFORMED, () -> withSegment(hs(P), 2, s -> replaceAt(s, 10, " "))),
        no("'!' in the header", Reason.MALFORMED, () -> withSegment(hs(P), 0, s -> replaceAt(s, 5, "!"))),
        no("'*' in the payload, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> replaceAt(s, 7, "*")))),
        no("NUL in the payload, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> replaceAt(s, 7, "\0")))),
        no("percent-encoded character in the payload, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> s.substring(0, 8) + "%41" + s.substring(9)))),
        no("'~' in the signature", Reason.MALFORMED, () -> withSegment(hs(P), 2, s -> replaceAt(s, 3, "~"))),
        no("DEL in the JWE IV", Reason.MALFORMED, () -> withSegment(jwe(P), 2, s -> replaceAt(s, 3, "\u007f"))),
        no("'=' inside the JWE ciphertext", Reason.MALFORMED, () -> withSegment(jwe(P), 3, s -> replaceAt(s, 3, "="))),
        no("HS256 signature with non-zero unused trailing bits", Reason.MALFORMED,
            () -> withSegment(hs(P), 2, HostileInputTest::nonCanonicalTail)),
        no("ES256 signature with non-zero unused trailing bits", Reason.MALFORMED,
            () -> withSegment(es(P), 2, HostileInputTest::nonCanonicalTail)),
        no("EdDSA signature with non-zero unused trailing bits", Reason.MALFORMED,
            () -> withSegment(ed(P), 2, HostileInputTest::nonCanonicalTail)),
        no("header with non-zero unused trailing bits", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 0, HostileInputTest::nonCanonicalTail))),
        no("payload with non-zero unused trailing bits, re-signed", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(payloadWithRemainder()), 1, HostileInputTest::nonCanonicalTail))),
        no("JWE tag with non-zero unused trailing bits", Reason.MALFORMED,
            () -> withSegment(jwe(P), 4, HostileInputTest::nonCanonicalTail)),
        no("JWE header with non-zero unused trailing bits (AAD re-encrypted)", Reason.MALFORMED, () -> {
          String h = nonCanonicalTail(b64("{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"kid\":\"aes\",\"x\":1}"));
          return T.jweSegments(T.aes, h, "", utf8(P), bytes(RANDOM, 12), 128);
        }),
        no("'\u00e9' in the header", Reason.MALFORMED, () -> withSegment(hs(P), 0, s -> replaceAt(s, 4, "\u00e9"))),
        no("'\u00e9' in the payload, re-signed over its Latin-1 byte", Reason.MALFORMED,
            () -> resigned(T.hs256, withSegment(hs(P), 1, s -> replaceAt(s, 4, "\u00e9")))),
        no("'\\u0100' in the payload, re-signed over the '?' it becomes", Reason.MALFORMED, () -> {
          String[] s = segments(hs(P));
          String p = replaceAt(s[1], 4, "\u0100");
          String signedAs = replaceAt(s[1], 4, "?");
          return s[0] + "." + p + "." + segments(T.jwsSegments(T.hs256, s[0], signedAs))[2];
        }),
        no("full-width letter in the signature", Reason.MALFORMED, () -> withSegment(hs(P), 2, s -> replaceAt(s, 5, "\uff21"))),
        no("full-width letter appended to the signature", Reason.MALFORMED, () -> hs(P) + "\uff21"),
        no("'\u00e9' appended to the signature", Reason.MALFORMED, () -> hs(P) + "\u00e9"),
        no("full-width full stop instead of the first dot", Reason.MALFORMED, () -> hs(P).replaceFirst("\\.", "\uff0e")),
        no("emoji (surrogate pair) in the header", Reason.MALFORMED, () -> withSegment(hs(P), 0, s -> insertAt(s, 4, "\ud83d\ude00"))),
        no("emoji (surrogate pair) in the payload", Reason.MALFORMED, () -> withSegment(hs(P), 1, s -> insertAt(s, 4, "\ud83d\ude00"))),
        no("emoji (surrogate pair) appended to the signature", Reason.MALFORMED, () -> hs(P) + "\ud83d\ude00"),
        no("two emoji appended to an ES256 signature", Reason.MALFORMED, () -> es(P) + "\ud83d\ude00\ud83d\ude00"),
        no("emoji (surrogate pair) in the JWE ciphertext", Reason.MALFORMED,
            () -> withSegment(jwe(P), 3, s -> insertAt(s, 4, "\ud83d\ude00"))),
        no("lone surrogate character in the payload, re-signed over the '?' it becomes", Reason.MALFORMED, () -> {
          String[] s = segments(hs(P));
          return s[0] + "." + replaceAt(s[1], 4, "\ud800") + "."
              + segments(T.jwsSegments(T.hs256, s[0], replaceAt(s[1], 4, "?")))[2];
        }),
        no("emoji (surrogate pair) in the payload, re-signed over the '?' it becomes", Reason.MALFORMED, () -> {
          String[] s = segments(hs(P));
          return s[0] + "." + insertAt(s[1], 4, "\ud83d\ude00") + "."
              + segments(T.jwsSegments(T.hs256, s[0], insertAt(s[1], 4, "?")))[2];
        }),
        no("non-ASCII in the JWE IV", Reason.MALFORMED, () -> withSegment(jwe(P), 2, s -> replaceAt(s, 1, "\u00ff"))));
  }

  // ---- JSON strictness (all re-signed with the right key) ------------------------------------

  static Stream<Arguments> json() {
    String pre = P.substring(0, P.length() - 1);
    return Stream.of(
        no("invalid UTF-8 byte 0xFF in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xFF))),
        no("invalid UTF-8 sequence C3 28 in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xC3, 0x28))),
        no("lone UTF-8 continuation byte in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0x80))),
        no("truncated 3-byte UTF-8 sequence in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xE2, 0x82))),
        no("overlong UTF-8 '/' (C0 AF) in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xC0, 0xAF))),
        no("overlong UTF-8 NUL (C0 80) in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xC0, 0x80))),
        no("overlong 3-byte UTF-8 (E0 80 AF) in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xE0, 0x80, 0xAF))),
        no("overlong 4-byte UTF-8 (F0 80 80 AF) in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xF0, 0x80, 0x80, 0xAF))),
        no("UTF-8-encoded high surrogate U+D800 in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xED, 0xA0, 0x80))),
        no("UTF-8-encoded low surrogate U+DFFF in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xED, 0xBF, 0xBF))),
        no("CESU-8 surrogate pair in sub", Reason.MALFORMED,
            () -> hsBytes(withSubBytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80))),
        no("UTF-8 above U+10FFFF (F4 90 80 80) in sub", Reason.MALFORMED, () -> hsBytes(withSubBytes(0xF4, 0x90, 0x80, 0x80))),
        no("invalid UTF-8 inside the state", Reason.MALFORMED,
            () -> hsBytes(concat(utf8(pre + ",\"st\":{\"a\":\""), new byte[] {(byte) 0xFE}, utf8("\"}}")))),
        no("invalid UTF-8 in an encrypted payload", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, false), withSubBytes(0xC0, 0xAF), RANDOM)),
        no("lone surrogate escape \\ud800 in sub", Reason.MALFORMED, () -> hs(payload(m("sub", q("a\\ud800"))))),
        no("lone surrogate escape \\ud800 in jti", Reason.MALFORMED,
            () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", q("\\ud800"))))),
        no("lone low surrogate escape \\udc00 in jti", Reason.MALFORMED,
            () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", q("x\\udc00y"))))),
        no("reversed surrogate pair escape in sub", Reason.MALFORMED, () -> hs(payload(m("sub", q("\\ude00\\ud83d"))))),
        stateNo("lone surrogate escape in a state string", () -> hs(stateOf("{\"a\":\"\\ud800\"}"))),
        stateNo("lone surrogate escape in a state member name", () -> hs(stateOf("{\"\\udfff\":1}"))),
        no("state nested to a total depth of 33", Reason.MALFORMED, () -> hs(stateOf(obj(m("d", nested(31)))))),
        no("state nested 2,500 deep", Reason.MALFORMED, () -> hs(stateOf(obj(m("d", nested(2_500)))))),
        no("unknown claim nested to a total depth of 33", Reason.MALFORMED, () -> hs(payload(m("x", nested(32))))),
        no("aud nested arrays 100 deep", Reason.MALFORMED, () -> hs(obj(M_ISS, m("aud", nested(100)), M_IAT, M_EXP, M_JTI))),
        no("trailing object after the payload", Reason.MALFORMED, () -> hs(P + "{}")),
        no("trailing letter after the payload", Reason.MALFORMED, () -> hs(P + "x")),
        no("trailing brace after the payload", Reason.MALFORMED, () -> hs(P + "}")),
        no("trailing comma after the payload", Reason.MALFORMED, () -> hs(P + ",")),
        no("trailing NUL byte after the payload", Reason.MALFORMED, () -> hs(P + "\0")),
        no("trailing data after an encrypted payload", Reason.MALFORMED, () -> jwe(P + "[]")),
        no("exp twice", Reason.MALFORMED, () -> hs(payload(m("exp", NOW_S + 99_999)))),
        no("exp twice via \\u0065 escape", Reason.MALFORMED, () -> hs(payload(m("\\u0065xp", NOW_S + 99_999)))),
        no("exp twice via escaped last letter e\\u0078p", Reason.MALFORMED, () -> hs(payload(m("e\\u0078p", NOW_S + 99_999)))),
        no("iss twice, attacker's first", Reason.MALFORMED,
            () -> hs(obj(m("iss", q("https://evil.example")), M_ISS, M_AUD, M_IAT, M_EXP, M_JTI))),
        no("aud twice via \\u0061ud escape", Reason.MALFORMED, () -> hs(payload(m("\\u0061ud", q("other"))))),
        no("iat twice", Reason.MALFORMED, () -> hs(payload(M_IAT))),
        no("nbf twice", Reason.MALFORMED, () -> hs(payload(m("nbf", 1), m("nbf", 2)))),
        no("jti twice", Reason.MALFORMED, () -> hs(payload(m("jti", q("other"))))),
        no("sub twice", Reason.MALFORMED, () -> hs(payload(m("sub", q("alice")), m("sub", q("admin"))))),
        no("st twice", Reason.MALFORMED, () -> hs(payload(m("st", "{}"), m("st", "{\"role\":\"admin\"}")))),
        no("unknown claim twice", Reason.MALFORMED, () -> hs(payload(m("x", 1), m("x", 2)))),
        no("unknown claim twice via escape", Reason.MALFORMED, () -> hs(payload(m("role", 1), m("r\\u006fle", 2)))),
        no("member twice inside an unknown claim", Reason.MALFORMED, () -> hs(payload(m("x", "{\"a\":1,\"a\":2}")))),
        no("member twice two levels inside an unknown claim after a nested state", Reason.MALFORMED,
            () -> hs(payload(m("st", "{\"a\":{\"x\":1}}"), m("ext", "{\"b\":{\"y\":1,\"y\":2}}")))),
        no("member twice in an object inside an unknown array claim after a nested state", Reason.MALFORMED,
            () -> hs(payload(m("st", "{\"a\":{\"x\":1}}"), m("ext", "[{\"y\":1,\"y\":2}]")))),
        no("member twice deep inside an unknown claim via escape", Reason.MALFORMED,
            () -> hs(payload(m("x", "[{\"k\":1,\"\\u006b\":2}]")))),
        stateNo("member twice inside the state", () -> hs(stateOf("{\"role\":\"user\",\"role\":\"admin\"}"))),
        stateNo("member twice deep inside the state", () -> hs(stateOf("{\"a\":[{\"k\":1,\"\\u006b\":2}]}"))),
        no("exp a string", Reason.MALFORMED, () -> hs(numericDate("exp", q(String.valueOf(NOW_S + TTL))))),
        no("exp null", Reason.MALFORMED, () -> hs(numericDate("exp", "null"))),
        no("exp a float 1.7e9", Reason.MALFORMED, () -> hs(numericDate("exp", (NOW_S + TTL) / 1e9 + "E9"))),
        no("exp with a zero fraction", Reason.MALFORMED, () -> hs(numericDate("exp", (NOW_S + TTL) + ".0"))),
        no("exp 99999999999999999999 (beyond long)", Reason.MALFORMED, () -> hs(numericDate("exp", "99999999999999999999"))),
        no("exp 65 digits (beyond the number length limit)", Reason.MALFORMED, () -> hs(numericDate("exp", "9".repeat(65)))),
        no("exp 1e30 as a float", Reason.MALFORMED, () -> hs(numericDate("exp", "1e30"))),
        no("exp negative", Reason.MALFORMED, () -> hs(numericDate("exp", "-1"))),
        no("exp Long.MIN_VALUE (the absent marker)", Reason.MALFORMED, () -> hs(numericDate("exp", String.valueOf(Long.MIN_VALUE)))),
        no("exp after 9999-12-31", Reason.MALFORMED, () -> hs(numericDate("exp", "253402300800"))),
        no("exp with a leading zero", Reason.MALFORMED, () -> hs(numericDate("exp", "0" + (NOW_S + TTL)))),
        no("exp with a plus sign", Reason.MALFORMED, () -> hs(numericDate("exp", "+" + (NOW_S + TTL)))),
        no("exp NaN", Reason.MALFORMED, () -> hs(numericDate("exp", "NaN"))),
        no("exp true", Reason.MALFORMED, () -> hs(numericDate("exp", "true"))),
        no("exp an array", Reason.MALFORMED, () -> hs(numericDate("exp", "[" + (NOW_S + TTL) + "]"))),
        no("iat a string", Reason.MALFORMED, () -> hs(numericDate("iat", q(String.valueOf(NOW_S))))),
        no("nbf a float", Reason.MALFORMED, () -> hs(payload(m("nbf", NOW_S + ".5")))),
        no("iss a number", Reason.MALFORMED, () -> hs(obj(m("iss", 42), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("iss null", Reason.MALFORMED, () -> hs(obj(m("iss", "null"), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("iss an array of the issuer", Reason.MALFORMED, () -> hs(obj(m("iss", "[" + q(ISS) + "]"), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("aud an object", Reason.MALFORMED, () -> hs(obj(M_ISS, m("aud", "{\"shop\":true}"), M_IAT, M_EXP, M_JTI))),
        no("aud an array with a number", Reason.MALFORMED, () -> hs(obj(M_ISS, m("aud", "[1]"), M_IAT, M_EXP, M_JTI))),
        no("aud an array of the audience and a number", Reason.MALFORMED,
            () -> hs(obj(M_ISS, m("aud", "[" + q(AUD) + ",1]"), M_IAT, M_EXP, M_JTI))),
        no("aud null", Reason.MALFORMED, () -> hs(obj(M_ISS, m("aud", "null"), M_IAT, M_EXP, M_JTI))),
        no("sub a number", Reason.MALFORMED, () -> hs(payload(m("sub", 7)))),
        no("jti a number", Reason.MALFORMED, () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", 7)))),
        no("jti null", Reason.MALFORMED, () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", "null")))),
        no("jti empty (no session id Claims could carry on)", Reason.MALFORMED,
            () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", q(""))))),
        no("jti of 129 characters", Reason.MALFORMED, () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", q("j".repeat(129)))))),
        no("unknown claim with an empty name (no Claims could carry it on)", Reason.MALFORMED,
            () -> hs(payload(m("", 1)))),
        no("unknown claim with a name of 257 characters", Reason.MALFORMED,
            () -> hs(payload(m("c".repeat(257), 1)))),
        yes("unknown claim with a name of 256 characters", () -> hs(payload(m("c".repeat(256), 1)))),
        stateNo("state member name empty", () -> hs(stateOf("{\"\":1}"))),
        stateNo("state member name of 257 characters", () -> hs(stateOf(obj(m("n".repeat(257), "1"))))),
        no("st an array", Reason.MALFORMED, () -> hs(payload(m("st", "[1]")))),
        no("st a string", Reason.MALFORMED, () -> hs(payload(m("st", q("{}"))))),
        no("st null", Reason.MALFORMED, () -> hs(payload(m("st", "null")))),
        no("payload an array", Reason.MALFORMED, () -> hs("[" + P + "]")),
        no("payload a string", Reason.MALFORMED, () -> hs(q("hello"))),
        no("payload a number", Reason.MALFORMED, () -> hs("42")),
        no("payload null", Reason.MALFORMED, () -> hs("null")),
        no("payload empty", Reason.MALFORMED, () -> hs("")),
        no("payload an unclosed object", Reason.MALFORMED, () -> hs(pre)),
        no("payload with a comment", Reason.MALFORMED, () -> hs("/*c*/" + P)),
        no("payload with single-quoted strings", Reason.MALFORMED, () -> hs(P.replace('"', '\''))),
        no("payload with an unquoted member name", Reason.MALFORMED, () -> hs(payload("sub:\"x\""))),
        no("payload with a trailing comma inside", Reason.MALFORMED, () -> hs(pre + ",}")),
        no("payload with a raw tab inside a string", Reason.MALFORMED, () -> hs(payload(m("sub", q("a\tb"))))),
        no("payload with a raw newline inside a string", Reason.MALFORMED, () -> hs(payload(m("sub", q("a\nb"))))),
        no("payload as UTF-16BE", Reason.MALFORMED, () -> hsBytes(P.getBytes(StandardCharsets.UTF_16BE))),
        no("payload as UTF-16LE", Reason.MALFORMED, () -> hsBytes(P.getBytes(StandardCharsets.UTF_16LE))),
        no("payload as UTF-32BE", Reason.MALFORMED, () -> hsBytes(P.getBytes(Charset.forName("UTF-32BE")))),
        no("encrypted payload as UTF-16LE", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, false), P.getBytes(StandardCharsets.UTF_16LE), RANDOM)),
        no("payload after a UTF-8 byte order mark", Reason.MALFORMED,
            () -> hsBytes(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(P)))));
  }

  /** The payload with {@code name} (one of iat, exp) set to this JSON value text. */
  static String numericDate(String name, String value) {
    return obj(M_ISS, M_AUD, name.equals("iat") ? m("iat", value) : M_IAT,
        name.equals("exp") ? m("exp", value) : M_EXP, M_JTI);
  }

  // ---- claims ---------------------------------------------------------------------------------

  static Stream<Arguments> claims() {
    return Stream.of(
        no("expired an hour ago", Reason.EXPIRED, () -> hs(numericDate("exp", String.valueOf(NOW_S - 3600)))),
        no("exp exactly at now - leeway", Reason.EXPIRED, () -> hs(numericDate("exp", String.valueOf(NOW_S - LEEWAY)))),
        yes("exp one second after now - leeway", () -> hs(numericDate("exp", String.valueOf(NOW_S - LEEWAY + 1))),
            t -> assertEquals(NOW_S - LEEWAY + 1, t.expiresAt().getEpochSecond())),
        no("exp 0 (1970)", Reason.EXPIRED, () -> hs(numericDate("exp", "0"))),
        no("expired ES256 token", Reason.EXPIRED, () -> es(numericDate("exp", String.valueOf(NOW_S - 3600)))),
        no("expired JWE", Reason.EXPIRED, () -> jwe(numericDate("exp", String.valueOf(NOW_S - 3600)))),
        no("nbf an hour ahead", Reason.NOT_YET_VALID, () -> hs(payload(m("nbf", NOW_S + 3600)))),
        no("nbf one second beyond now + leeway", Reason.NOT_YET_VALID, () -> hs(payload(m("nbf", NOW_S + LEEWAY + 1)))),
        yes("nbf exactly now + leeway", () -> hs(payload(m("nbf", NOW_S + LEEWAY)))),
        no("iat an hour ahead", Reason.ISSUED_IN_FUTURE, () -> hs(numericDate("iat", String.valueOf(NOW_S + 3600)))),
        no("iat one second beyond now + leeway", Reason.ISSUED_IN_FUTURE,
            () -> hs(numericDate("iat", String.valueOf(NOW_S + LEEWAY + 1)))),
        yes("iat exactly now + leeway", () -> hs(numericDate("iat", String.valueOf(NOW_S + LEEWAY)))),
        no("another issuer", Reason.WRONG_ISSUER, () -> hs(obj(m("iss", q("https://evil.example")), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("issuer with a trailing slash", Reason.WRONG_ISSUER, () -> hs(obj(m("iss", q(ISS + "/")), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("issuer in another case", Reason.WRONG_ISSUER,
            () -> hs(obj(m("iss", q(ISS.toUpperCase())), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("issuer with a lone surrogate appended", Reason.WRONG_ISSUER,
            () -> hs(obj(m("iss", q(ISS + "\\ud800")), M_AUD, M_IAT, M_EXP, M_JTI))),
        yes("issuer spelled with escapes (\\/ and \\u0068)",
            () -> hs(obj(m("iss", q("\\u0068ttps:\\/\\/shop.example")), M_AUD, M_IAT, M_EXP, M_JTI))),
        no("another audience", Reason.WRONG_AUDIENCE, () -> hs(obj(M_ISS, m("aud", q("admin")), M_IAT, M_EXP, M_JTI))),
        no("audience in another case", Reason.WRONG_AUDIENCE, () -> hs(obj(M_ISS, m("aud", q("Shop")), M_IAT, M_EXP, M_JTI))),
        no("audience empty array", Reason.WRONG_AUDIENCE, () -> hs(obj(M_ISS, m("aud", "[]"), M_IAT, M_EXP, M_JTI))),
        no("audience array of others", Reason.WRONG_AUDIENCE,
            () -> hs(obj(M_ISS, m("aud", "[\"a\",\"b\"]"), M_IAT, M_EXP, M_JTI))),
        yes("audience array holding ours", () -> hs(obj(M_ISS, m("aud", "[\"a\"," + q(AUD) + "]"), M_IAT, M_EXP, M_JTI))),
        no("valid token for another issuer and audience (JWE)", Reason.WRONG_ISSUER,
            () -> jwe(obj(m("iss", q("other")), m("aud", q("other")), M_IAT, M_EXP, M_JTI))),
        no("iss missing", Reason.MISSING_CLAIM, () -> hs(obj(M_AUD, M_IAT, M_EXP, M_JTI))),
        no("aud missing", Reason.MISSING_CLAIM, () -> hs(obj(M_ISS, M_IAT, M_EXP, M_JTI))),
        no("exp missing", Reason.MISSING_CLAIM, () -> hs(obj(M_ISS, M_AUD, M_IAT, M_JTI))),
        no("iat missing", Reason.MISSING_CLAIM, () -> hs(obj(M_ISS, M_AUD, M_EXP, M_JTI))),
        no("jti missing", Reason.MISSING_CLAIM, () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP))),
        no("every claim missing", Reason.MISSING_CLAIM, () -> hs("{}")),
        no("exp missing from an EdDSA token", Reason.MISSING_CLAIM, () -> ed(obj(M_ISS, M_AUD, M_IAT, M_JTI))));
  }

  // ---- cryptography ---------------------------------------------------------------------------

  static Stream<Arguments> crypto() {
    BigInteger n = P256_N;
    return Stream.of(
        no("ES256 signature r = 0, s = 0", Reason.BAD_SIGNATURE, () -> esSig(BigInteger.ZERO, BigInteger.ZERO)),
        no("ES256 signature r = 0, s valid", Reason.BAD_SIGNATURE, () -> esSig(BigInteger.ZERO, null)),
        no("ES256 signature r valid, s = 0", Reason.BAD_SIGNATURE, () -> esSig(null, BigInteger.ZERO)),
        no("ES256 signature r = n, s valid", Reason.BAD_SIGNATURE, () -> esSig(n, null)),
        no("ES256 signature r valid, s = n", Reason.BAD_SIGNATURE, () -> esSig(null, n)),
        no("ES256 signature r = n, s = n", Reason.BAD_SIGNATURE, () -> esSig(n, n)),
        no("ES256 signature r = n + 1 (out of range, same residue as 1)", Reason.BAD_SIGNATURE,
            () -> esSig(n.add(BigInteger.ONE), null)),
        no("ES256 signature s = n + 1 (out of range, same residue as 1)", Reason.BAD_SIGNATURE,
            () -> esSig(null, n.add(BigInteger.ONE))),
        no("ES256 signature r = n - 1, s = n - 1 (in range, wrong)", Reason.BAD_SIGNATURE,
            () -> esSig(n.subtract(BigInteger.ONE), n.subtract(BigInteger.ONE))),
        no("ES256 signature all ones", Reason.BAD_SIGNATURE,
            () -> withSegment(es(P), 2, s -> b64(fixedBytes(64, (byte) 0xFF)))),
        no("ES256 signature DER-encoded instead of r||s", Reason.BAD_SIGNATURE, () -> {
          String input = b64(header(T.es256, false)) + "." + b64(P);
          return input + "." + b64(T.signDer(T.es256, ascii(input)));
        }),
        no("ES256 signature halves swapped (s||r)", Reason.BAD_SIGNATURE, () -> withSegment(es(P), 2, s -> {
          byte[] b = unb64(s);
          return b64(concat(Arrays.copyOfRange(b, 32, 64), Arrays.copyOfRange(b, 0, 32)));
        })),
        no("ES256 signature of another payload", Reason.BAD_SIGNATURE,
            () -> withSegment(es(P), 2, s -> segments(es(payload(m("sub", q("x")))))[2])),
        no("Ed25519 signature with S + L (not reduced)", Reason.BAD_SIGNATURE, () -> withSegment(ed(P), 2, s -> {
          byte[] b = unb64(s);
          BigInteger sv = new BigInteger(1, reverse(Arrays.copyOfRange(b, 32, 64)));
          byte[] big = reverse(fixed32(sv.add(ED25519_L)));
          System.arraycopy(big, 0, b, 32, 32);
          return b64(b);
        })),
        no("Ed25519 signature with S = L", Reason.BAD_SIGNATURE, () -> withSegment(ed(P), 2, s -> {
          byte[] b = unb64(s);
          System.arraycopy(reverse(fixed32(ED25519_L)), 0, b, 32, 32);
          return b64(b);
        })),
        no("Ed25519 signature with R not a point", Reason.BAD_SIGNATURE, () -> withSegment(ed(P), 2, s -> {
          byte[] b = unb64(s);
          Arrays.fill(b, 0, 32, (byte) 0xFF);
          return b64(b);
        })),
        no("Ed25519 signature all zero", Reason.BAD_SIGNATURE, () -> withSegment(ed(P), 2, s -> b64(new byte[64]))),
        no("Ed25519 signature by another key", Reason.BAD_SIGNATURE, () -> {
          HostileTokens other = new HostileTokens(7);
          return withSegment(ed(P), 2, s -> segments(other.jws(other.eddsa, header(T.eddsa, false), P))[2]);
        }),
        no("HS256 signature by another secret", Reason.BAD_SIGNATURE, () -> {
          HostileTokens other = new HostileTokens(7);
          return other.jws(other.hs256, HS, P);
        }),
        no("HS256 signature one bit flipped", Reason.BAD_SIGNATURE, () -> withSegment(hs(P), 2, s -> flipBit(s, 31, 0))),
        no("JWE IV of 64 bits", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), "", utf8(P), bytes(RANDOM, 8), 128)),
        no("JWE IV of 128 bits", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), "", utf8(P), bytes(RANDOM, 16), 128)),
        no("JWE IV empty", Reason.MALFORMED, () -> withSegment(jwe(P), 2, s -> "")),
        no("JWE tag of 96 bits", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), "", utf8(P), bytes(RANDOM, 12), 96)),
        no("JWE tag of 120 bits", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), "", utf8(P), bytes(RANDOM, 12), 120)),
        no("JWE tag empty", Reason.MALFORMED, () -> withSegment(jwe(P), 4, s -> "")),
        no("JWE non-empty encrypted key", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), b64(bytes(RANDOM, 32)), utf8(P), bytes(RANDOM, 12), 128)),
        no("JWE encrypted key holding the AES key itself", Reason.MALFORMED,
            () -> T.jweSegments(T.aes, b64(header(T.aes, false)), b64(T.secret(T.aes)), utf8(P), bytes(RANDOM, 12), 128)),
        no("JWE ciphertext one bit flipped", Reason.DECRYPTION_FAILED, () -> withSegment(jwe(P), 3, s -> flipBit(s, 5, 3))),
        no("JWE tag one bit flipped", Reason.DECRYPTION_FAILED, () -> withSegment(jwe(P), 4, s -> flipBit(s, 15, 7))),
        no("JWE IV one bit flipped", Reason.DECRYPTION_FAILED, () -> withSegment(jwe(P), 2, s -> flipBit(s, 0, 0))),
        no("JWE header changed after encryption (AAD)", Reason.DECRYPTION_FAILED,
            () -> withSegment(jwe(P), 0, s -> b64("{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"kid\":\"aes\",\"typ\":\"JWT\"}"))),
        no("JWE zip added to the header after encryption", Reason.DECRYPTION_FAILED,
            () -> withSegment(jwe(P), 0, s -> b64(header(T.aes, true)))),
        no("JWE ciphertext and tag spliced from another token", Reason.DECRYPTION_FAILED, () -> {
          String[] a = segments(jwe(P));
          String[] b = segments(jwe(payload(m("sub", q("admin")))));
          return join(a[0], a[1], a[2], b[3], b[4]);
        }),
        no("JWE under another AES key", Reason.DECRYPTION_FAILED, () -> {
          HostileTokens other = new HostileTokens(7);
          return other.jwe(other.aes, header(T.aes, false), utf8(P), RANDOM);
        }),
        no("DEFLATE bomb: 10 MB of zeros, default limit", Reason.TOO_LARGE, () -> jweZip(new byte[10_000_000])),
        no("DEFLATE bomb: 10 MB of zeros, 64 KiB token limit (refused on inflation)", Reason.TOO_LARGE,
            T.codec(T.keySet, 65_536, false, Algorithm.DIR_A256GCM), () -> {
              String t = jweZip(new byte[10_000_000]);
              assertTrue(t.length() < 65_536, "the bomb itself fits the limit");
              return t;
            }),
        no("DEFLATE bomb: a 1 MB state string of '0'", Reason.TOO_LARGE,
            () -> jweZip(utf8(stateOf(obj(m("z", q("0".repeat(1_000_000)))))))),
        yes("DEFLATE payload inflating to exactly 4 x the token limit", () -> jweZip(utf8(sizedPayload(4 * 8192)))),
        no("DEFLATE payload inflating to one byte over 4 x the token limit", Reason.TOO_LARGE,
            () -> jweZip(utf8(sizedPayload(4 * 8192 + 1)))),
        no("invalid DEFLATE (reserved block type)", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, true), fixedBytes(40, (byte) 0xFF), RANDOM)),
        no("truncated DEFLATE stream", Reason.MALFORMED, () -> {
          byte[] d = deflate(utf8(P));
          return T.jwe(T.aes, header(T.aes, true), Arrays.copyOf(d, d.length / 2), RANDOM);
        }),
        no("DEFLATE with trailing bytes after the final block", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, true), concat(deflate(utf8(P)), new byte[] {1, 2, 3}), RANDOM)),
        no("zlib-wrapped instead of raw DEFLATE", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, true), HostileTokens.zlib(utf8(P)), RANDOM)),
        no("DEFLATE of nothing", Reason.MALFORMED, () -> jweZip(new byte[0])),
        no("DEFLATE of invalid UTF-8", Reason.MALFORMED, () -> jweZip(withSubBytes(0xED, 0xA0, 0x80))),
        no("compressed payload without zip in the header", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, false), deflate(utf8(P)), RANDOM)),
        no("empty plaintext, correctly encrypted", Reason.MALFORMED,
            () -> T.jwe(T.aes, header(T.aes, false), new byte[0], RANDOM)));
  }

  static byte[] fixedBytes(int n, byte v) {
    byte[] b = new byte[n];
    Arrays.fill(b, v);
    return b;
  }

  static byte[] reverse(byte[] b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      r[i] = b[b.length - 1 - i];
    }
    return r;
  }

  /** A valid ES256 token whose signature has r and/or s replaced ({@code null} keeps the real one). */
  static String esSig(BigInteger r, BigInteger s) {
    return withSegment(es(P), 2, seg -> {
      byte[] b = unb64(seg);
      if (r != null) {
        System.arraycopy(fixed32(r), 0, b, 0, 32);
      }
      if (s != null) {
        System.arraycopy(fixed32(s), 0, b, 32, 32);
      }
      return b64(b);
    });
  }

  /** A valid payload of exactly {@code length} UTF-8 bytes. */
  static String sizedPayload(int length) {
    String base = stateOf(obj(m("p", q(""))));
    String p = stateOf(obj(m("p", q("0".repeat(length - utf8(base).length)))));
    assertEquals(length, utf8(p).length);
    return p;
  }

  // ---- controls: the builders make acceptable tokens -------------------------------------------

  static Stream<Arguments> controls() {
    List<Arguments> rows = new ArrayList<>();
    rows.add(yes("control: hand-built HS256", () -> hs(P), t -> {
      assertEquals("hs256", t.keyId());
      assertEquals("session-1", t.id());
      assertEquals(NOW_S + TTL, t.expiresAt().getEpochSecond());
    }));
    rows.add(yes("control: hand-built HS384", () -> T.jws(T.hs384, header(T.hs384, false), P)));
    rows.add(yes("control: hand-built HS512", () -> T.jws(T.hs512, header(T.hs512, false), P)));
    rows.add(yes("control: hand-built ES256", () -> es(P), t -> assertEquals(Algorithm.ES256, t.algorithm())));
    rows.add(yes("control: hand-built EdDSA", () -> ed(P), t -> assertEquals(Algorithm.EDDSA, t.algorithm())));
    rows.add(yes("control: hand-built dir+A256GCM", () -> jwe(P), t -> assertEquals("aes", t.keyId())));
    rows.add(yes("control: hand-built dir+A256GCM with zip", () -> jweZip(utf8(P))));
    rows.add(yes("control: stored (uncompressed) DEFLATE block", () -> {
      java.util.zip.Deflater d = new java.util.zip.Deflater(java.util.zip.Deflater.NO_COMPRESSION, true);
      d.setInput(utf8(P));
      d.finish();
      byte[] out = new byte[P.length() + 64];
      int k = d.deflate(out);
      d.end();
      return T.jwe(T.aes, header(T.aes, true), Arrays.copyOf(out, k), RANDOM);
    }));
    rows.add(yes("control: header with typ JWT (slow path)", () -> hsHeader("{\"typ\":\"JWT\",\"alg\":\"HS256\",\"kid\":\"hs256\"}")));
    rows.add(yes("control: header with an unknown member (ignored)",
        () -> hsHeader("{\"alg\":\"HS256\",\"kid\":\"hs256\",\"x-trace\":{\"a\":[1,2]}}")));
    rows.add(yes("control: sub with a valid surrogate pair escape", () -> hs(payload(m("sub", q("\\ud83d\\ude00")))),
        t -> assertEquals("\ud83d\ude00", t.subject().orElseThrow())));
    rows.add(yes("control: sub with 4-byte UTF-8", () -> hsBytes(withSubBytes(0xF0, 0x9F, 0x98, 0x80)),
        t -> assertEquals("a\ud83d\ude00z", t.subject().orElseThrow())));
    rows.add(yes("control: exp spelled once with an escape", () -> hs(obj(M_ISS, M_AUD, M_IAT, m("\\u0065xp", NOW_S + TTL), M_JTI)),
        t -> assertEquals(NOW_S + TTL, t.expiresAt().getEpochSecond())));
    rows.add(yes("control: exp at 9999-12-31T23:59:59Z", () -> hs(numericDate("exp", "253402300799"))));
    rows.add(yes("control: whitespace around and inside the payload JSON", () -> hs(" \n" + P.replace(",", " ,\t") + "\r\n ")));
    rows.add(yes("control: jti of 128 characters", () -> hs(obj(M_ISS, M_AUD, M_IAT, M_EXP, m("jti", q("j".repeat(128))))),
        t -> assertEquals(128, t.toClaims().build().sessionId().orElseThrow().length())));
    rows.add(yes("control: state member name of 256 characters", () -> hs(stateOf(obj(m("n".repeat(256), "1")))),
        t -> assertEquals(1, t.toClaims().build().state().size())));
    rows.add(yes("control: state nested to a total depth of 32", () -> hs(stateOf(obj(m("d", nested(30)))))));
    rows.add(yes("control: state with nested objects and unicode", () -> hs(stateOf("{\"a\":{\"b\":[1,2,{\"c\":\"\u00e9\"}]}}")),
        t -> assertEquals("{\"a\":{\"b\":[1,2,{\"c\":\"\u00e9\"}]}}", t.stateJson())));
    return rows.stream();
  }

  // ---- what the table rests on ------------------------------------------------------------------

  @Test
  void theDefaultLimitsAreTheOnesTheTableAssumes() {
    // 8 KiB tokens and 30 s of leeway are the builder's defaults; the table's boundaries use them.
    TokenCodec codec = TokenCodec.builder().keys(T.keySet).issuer(ISS).audience(AUD)
        .timeToLive(java.time.Duration.ofSeconds(TTL)).clock(java.time.Clock.fixed(HostileTokens.NOW, java.time.ZoneOffset.UTC))
        .verificationCache(0).build();
    assertEquals(Reason.TOO_LARGE, assertThrows(TokenException.class, () -> codec.decode(tokenOfAtLeast(8193))).reason());
    codec.decode(tokenOfExactly(8192));
    assertEquals(Reason.EXPIRED, assertThrows(TokenException.class,
        () -> codec.decode(hs(numericDate("exp", String.valueOf(NOW_S - 30))))).reason());
    codec.decode(hs(numericDate("exp", String.valueOf(NOW_S - 29))));
  }

  @Test
  void tooLargeTokensAreRefusedBeforeTheKeySetIsEvenConsulted() {
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    TokenCodec codec = TokenCodec.builder().keys(() -> {
      asked.incrementAndGet();
      return T.keySet;
    }).issuer(ISS).audience(AUD).timeToLive(java.time.Duration.ofSeconds(TTL)).verificationCache(0).build();
    for (String token : new String[] {"!".repeat(9 * 1024), tokenOfAtLeast(8193), "a".repeat(1 << 20)}) {
      assertEquals(Reason.TOO_LARGE, assertThrows(TokenException.class, () -> codec.decode(token)).reason());
    }
    assertEquals(0, asked.get(), "no key set was consulted for an over-long token");
  }

  @Test
  void tokensTheLibraryWritesUseTheSameHeadersAsTheTable() {
    // So the table's hand-built "valid" tokens take the same fast header path as real ones.
    for (TokenKey k : T.all()) {
      assertEquals(b64(header(k, false)), new String(k.header(Compression.NONE), StandardCharsets.US_ASCII), k.kid());
      if (k.algorithm().isEncrypting()) {
        assertEquals(b64(header(k, true)), new String(k.header(Compression.DEFLATE), StandardCharsets.US_ASCII), k.kid());
      }
    }
  }
}
