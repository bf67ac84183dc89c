package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The codec's own token type ({@code typ}) bound at decode, and access to iss, aud and other claims. */
class TokenTypeAndClaimsTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  static final String INTERNAL = "sl-internal+jwt";

  static TokenCodec.Builder base(KeySet keys, Algorithm alg) {
    return TokenCodec.builder()
        .keys(keys)
        .algorithm(alg)
        .issuer("https://edge.example")
        .audience("orders")
        .timeToLive(Duration.ofMinutes(1))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC));
  }

  static String headerJson(String token) {
    return new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void typedCodecWritesItsTypeAndReadsItBack(Algorithm alg) {
    KeySet keys = KeySet.of(TokenKey.generate("k1", alg));
    TokenCodec internal = base(keys, alg).tokenType(INTERNAL).build();
    String token = internal.encode(Claims.builder().subject("alice").build());
    assertTrue(headerJson(token).contains("\"typ\":\"" + INTERNAL + "\""), headerJson(token));
    assertEquals("alice", internal.decode(token).subject().orElseThrow());
    assertEquals(INTERNAL, internal.tokenType().orElseThrow());
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void sessionTokenIsRefusedByAnInternalCodec(Algorithm alg) {
    KeySet keys = KeySet.of(TokenKey.generate("k1", alg));
    TokenCodec session = base(keys, alg).build();
    TokenCodec internal = base(keys, alg).tokenType(INTERNAL).build();
    String browserToken = session.encode(Claims.builder().subject("alice").build());
    TokenException e = assertThrows(TokenException.class, () -> internal.decode(browserToken));
    assertEquals(Reason.WRONG_TOKEN_TYPE, e.reason());
    assertTrue(e.reason().isRejection());
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void internalTokenIsRefusedByASessionCodec(Algorithm alg) {
    KeySet keys = KeySet.of(TokenKey.generate("k1", alg));
    TokenCodec session = base(keys, alg).build();
    TokenCodec internal = base(keys, alg).tokenType(INTERNAL).build();
    String internalToken = internal.encode(Claims.builder().subject("alice").build());
    TokenException e = assertThrows(TokenException.class, () -> session.decode(internalToken));
    assertEquals(Reason.WRONG_TOKEN_TYPE, e.reason());
    assertTrue(e.reason().isRejection());
  }

  @Test
  void codecsOfTwoTypesRefuseEachOthersTokens() {
    KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.ES256));
    TokenCodec a = base(keys, Algorithm.ES256).tokenType(INTERNAL).build();
    TokenCodec b = base(keys, Algorithm.ES256).tokenType("other+jwt").build();
    assertEquals(Reason.WRONG_TOKEN_TYPE,
        assertThrows(TokenException.class, () -> b.decode(a.encode(Claims.builder().build()))).reason());
  }

  @Test
  void typeIsComparedIgnoringCaseAsRfc7515Advises() {
    KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.EDDSA));
    TokenCodec lower = base(keys, Algorithm.EDDSA).tokenType(INTERNAL).build();
    TokenCodec upper = base(keys, Algorithm.EDDSA).tokenType("SL-INTERNAL+JWT").build();
    assertEquals("alice", upper.decode(lower.encode(Claims.builder().subject("alice").build())).subject().orElseThrow());
  }

  @Test
  void tokenTypeRefusesJwtAndUnprintableNames() {
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType("JWT"));
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType("jwt"));
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType(""));
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType("a\"b"));
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType("a b"));
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().tokenType("x".repeat(65)));
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void otherClaimsRoundTripAndAreReadable(Algorithm alg) {
    KeySet keys = KeySet.of(TokenKey.generate("k1", alg));
    TokenCodec codec = base(keys, alg).tokenType(INTERNAL).build();
    String token = codec.encode(Claims.builder()
        .subject("alice")
        .put("cart", List.of("a", "b"))
        .claim("sid", "s-\"1\"")
        .claim("act", Map.of("sub", "edge"))
        .claim("n", 42)
        .build());
    SessionToken t = codec.decode(token);
    assertEquals("https://edge.example", t.issuer());
    assertEquals("orders", t.audience());
    assertEquals(List.of("sid", "act", "n"), List.copyOf(t.claimNames()));
    assertEquals("\"s-\\\"1\\\"\"", t.claimJson("sid").orElseThrow());
    assertEquals("s-\"1\"", t.claim("sid", String.class).orElseThrow());
    assertEquals("{\"sub\":\"edge\"}", t.claimJson("act").orElseThrow());
    assertEquals(Map.of("sub", "edge"), t.claim("act", Map.class).orElseThrow());
    assertEquals(42, t.claim("n", Integer.class).orElseThrow());
    assertTrue(t.claimJson("sub").isEmpty(), "registered claims have their own accessors");
    assertTrue(t.claimJson("st").isEmpty(), "the state has its own accessors");
    assertEquals(Set.of("cart"), t.stateNames());
    assertEquals(Reason.STATE_MAPPING,
        assertThrows(TokenException.class, () -> t.claim("act", Integer.class)).reason());
  }

  @Test
  void sessionTokenWithoutOtherClaimsHasNone() {
    KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.HS256));
    TokenCodec codec = base(keys, Algorithm.HS256).build();
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("x", 1).build()));
    assertTrue(t.claimNames().isEmpty());
    assertEquals("https://edge.example", t.issuer());
    assertEquals("orders", t.audience());
  }

  @Test
  void toClaimsCarriesOtherClaimsForward() {
    KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.ES256));
    TokenCodec codec = base(keys, Algorithm.ES256).tokenType(INTERNAL).build();
    SessionToken t = codec.decode(codec.encode(Claims.builder().claim("act", Map.of("sub", "a")).build()));
    Claims next = t.toClaims().build();
    assertEquals(Set.of("act"), next.claims().keySet());
    SessionToken again = codec.decode(codec.encode(next));
    assertEquals("{\"sub\":\"a\"}", again.claimJson("act").orElseThrow());
  }

  @Test
  void registeredClaimNamesAndTheStateClaimAreRefused() {
    for (String name : List.of("iss", "sub", "aud", "exp", "nbf", "iat", "jti", "st")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Claims.builder().claim(name, "x"), name);
      assertTrue(e.getMessage().contains(name), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Claims.builder().claim("", "x"));
    assertThrows(NullPointerException.class, () -> Claims.builder().claim("a", null));
    assertFalse(Claims.builder().claim("a", 1).removeClaim("a").build().claims().containsKey("a"));
  }

  @Test
  void claimsToStringNamesClaimsButNeverTheirValues() {
    String s = Claims.builder().claim("sid", "secret-session-id").build().toString();
    assertTrue(s.contains("sid"), s);
    assertFalse(s.contains("secret-session-id"), s);
  }

  /** An HS256 token of {@code key} with this header JSON and the payload of {@code like}, signed by the JCA. */
  static String resigned(TokenKey key, byte[] secret, String headerJson, String like) throws Exception {
    String payload = like.substring(like.indexOf('.') + 1, like.lastIndexOf('.'));
    String input = Base64.getUrlEncoder().withoutPadding().encodeToString(headerJson.getBytes(StandardCharsets.UTF_8))
        + "." + payload;
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
    byte[] sig = mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
    return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(sig);
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void typIsComparedIgnoringTheCaseOfAsciiLettersOnly() throws Exception {
    byte[] secret = new byte[32];
    new java.util.Random(7).nextBytes(secret);
    TokenKey key = TokenKey.secret("k1", Algorithm.HS256, secret);
    TokenCodec internal = base(KeySet.of(key), Algorithm.HS256).tokenType(INTERNAL).build();
    String real = internal.encode(Claims.builder().subject("alice").build());

    String upper = resigned(key, secret, "{\"alg\":\"HS256\",\"kid\":\"k1\",\"typ\":\"SL-Internal+JWT\"}", real);
    assertEquals("alice", internal.decode(upper).subject().orElseThrow(), "ASCII case is ignored");

    // U+017F LATIN SMALL LETTER LONG S upper-cases to 'S': String.equalsIgnoreCase takes it for 's'.
    String longS = resigned(key, secret, "{\"alg\":\"HS256\",\"kid\":\"k1\",\"typ\":\"\u017fl-internal+jwt\"}", real);
    TokenException e = assertThrows(TokenException.class, () -> internal.decode(longS));
    assertEquals(Reason.WRONG_TOKEN_TYPE, e.reason());
  }
}
