package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class JwkTest {
  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void jwksWithSecretsRoundTripsKeysAndLifecycle(Algorithm alg) {
    TokenKey k = TokenKey.generate("k1", alg).withLifecycle(T, T.plusSeconds(60), T.plusSeconds(3600), T.plusSeconds(7200));
    KeySet back = KeySet.fromJwks(KeySet.of(k).toJwksWithSecrets());
    TokenKey r = back.key("k1").orElseThrow();
    assertTrue(k.sameAs(r), "same key after JWKS round trip");
    assertEquals(alg, r.algorithm());
    assertEquals(T.plusSeconds(3600), r.retires().orElseThrow());
    // and it really is the same key: a token made with one decodes with the other
    TokenCodec a = codec(KeySet.of(k), alg);
    TokenCodec b = codec(back, alg);
    assertEquals("k1", b.decode(a.encode(Claims.builder().build())).keyId());
  }

  private static TokenCodec codec(KeySet keys, Algorithm alg) {
    return TokenCodec.builder().keys(keys).algorithm(alg).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).clock(new FakeClock(T.plusSeconds(120))).build();
  }

  @Test
  void publicJwksHoldsOnlyPublicPartsOfAsymmetricKeys() throws Exception {
    KeySet set = KeySet.of(TokenKey.generate("hmac", Algorithm.HS256), TokenKey.generate("ec", Algorithm.ES256),
        TokenKey.generate("ed", Algorithm.EDDSA), TokenKey.generate("aes", Algorithm.DIR_A256GCM));
    String pub = set.toPublicJwks();
    tools.jackson.databind.JsonNode keys = new tools.jackson.databind.ObjectMapper().readTree(pub).get("keys");
    assertEquals(2, keys.size(), pub);
    for (tools.jackson.databind.JsonNode k : keys) {
      assertFalse(k.has("d") || k.has("k"), pub);
      assertTrue(k.get("kid").asString().equals("ec") || k.get("kid").asString().equals("ed"), pub);
    }
    KeySet back = KeySet.fromJwks(pub);
    assertEquals(2, back.keys().size());
    assertTrue(back.keys().stream().noneMatch(TokenKey::canSign));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"kty\":\"oct\",\"kid\":\"k\",\"alg\":\"HS256\",\"k\":\"c2hvcnQ\"}",
      "{\"kty\":\"oct\",\"kid\":\"k\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
      "{\"kty\":\"RSA\",\"kid\":\"k\",\"alg\":\"RS256\",\"n\":\"AQAB\",\"e\":\"AQAB\"}",
      "{\"kty\":\"EC\",\"kid\":\"k\",\"crv\":\"P-256\",\"x\":\"AQ\",\"y\":\"AQ\"}",
      "{\"kty\":\"EC\",\"kid\":\"k\",\"crv\":\"P-384\",\"x\":\"AQ\",\"y\":\"AQ\"}",
      "{\"kty\":\"EC\",\"kid\":\"k\",\"crv\":\"P-256\",\"x\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE\",\"y\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE\"}",
      "{\"kty\":\"OKP\",\"kid\":\"k\",\"crv\":\"X25519\",\"x\":\"AQ\"}",
      "{\"kty\":\"oct\",\"kid\":\"k\",\"alg\":\"HS256\",\"alg\":\"HS512\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
      "{\"kty\":\"oct\",\"kid\":\"k\",\"alg\":\"HS256\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"}",
      "{\"kty\":\"oct\",\"alg\":\"HS256\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
      "{\"kty\":\"oct\",\"kid\":\"k\",\"alg\":\"none\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
      "[1,2]",
      "{\"kty\":"})
  void invalidOrUnsupportedJwkIsRefusedWithoutEchoingIt(String jwk) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk(jwk));
    assertFalse(e.getMessage().contains("AAAAAAAAAAAAAAAA"), e.getMessage());
  }

  @Test
  void privateKeyNotMatchingItsPublicPartIsRefused() {
    String a = TokenKey.generate("k", Algorithm.ES256).toJwkWithSecrets();
    String b = TokenKey.generate("k", Algorithm.ES256).toJwkWithSecrets();
    String mixed = a.replaceAll("\"d\":\"[^\"]+\"", b.replaceAll(".*(\"d\":\"[^\"]+\").*", "$1"));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk(mixed));
    String e1 = TokenKey.generate("k", Algorithm.EDDSA).toJwkWithSecrets();
    String e2 = TokenKey.generate("k", Algorithm.EDDSA).toJwkWithSecrets();
    String mixedEd = e1.replaceAll("\"d\":\"[^\"]+\"", e2.replaceAll(".*(\"d\":\"[^\"]+\").*", "$1"));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk(mixedEd));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "quote\"", "back\\slash", "caf\u00e9"})
  void unacceptableKidsAreRefused(String kid) {
    assertThrows(IllegalArgumentException.class, () -> TokenKey.generate(kid, Algorithm.HS256));
  }

  @Test
  void publicOnlyOfSymmetricKeyIsRefused() {
    assertThrows(IllegalStateException.class, () -> TokenKey.generate("k", Algorithm.HS256).publicOnly());
    assertThrows(IllegalStateException.class, () -> TokenKey.generate("k", Algorithm.HS256).toPublicJwk());
  }

  @Test
  void nonCanonicalSecretIsRefused() throws Exception {
    String jwk = TokenKey.generate("k", Algorithm.HS256).toJwkWithSecrets();
    tools.jackson.databind.node.ObjectNode node =
        (tools.jackson.databind.node.ObjectNode) new tools.jackson.databind.ObjectMapper().readTree(jwk);
    String k = node.get("k").stringValue();
    assertEquals(43, k.length(), "32 bytes: 43 characters with 2 spare bits");
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = k.charAt(42);
    String spareBitSet = k.substring(0, 42) + alphabet.charAt(alphabet.indexOf(last) ^ 1);
    String standardAlphabet = "+" + k.substring(1);
    for (String bad : new String[] {k + "=", spareBitSet, standardAlphabet, k.substring(0, 20) + "\n" + k.substring(20),
        k.substring(0, 20) + " " + k.substring(20), k.substring(0, 41)}) {
      node.put("k", bad);
      String text = node.toString();
      assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk(text), bad);
      assertThrows(IllegalArgumentException.class, () -> KeySet.fromJwks("{\"keys\":[" + text + "]}"), bad);
    }
    node.put("k", k);
    assertEquals(TokenKey.fromJwk(jwk).kid(), TokenKey.fromJwk(node.toString()).kid());
  }
}
