package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class RoundTripTest {
  record Item(String sku, int qty) {}

  record Cart(List<Item> items, String currency) {}

  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  static TokenCodec codec(TokenKey key, boolean compress) {
    TokenCodec.Builder b = TokenCodec.builder()
        .keys(KeySet.of(key))
        .algorithm(key.algorithm())
        .issuer("https://shop.example")
        .audience("shop")
        .timeToLive(Duration.ofMinutes(30))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC));
    if (compress) {
      b.compress(true);
    }
    return b.build();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void everyAlgorithmRoundTripsClaimsAndTypedState(Algorithm alg) {
    TokenCodec codec = codec(TokenKey.generate("k-" + alg, alg), false);
    Cart cart = new Cart(List.of(new Item("A-1", 2), new Item("B-2", 1)), "EUR");
    String token = codec.encode(Claims.builder().subject("alice").put("cart", cart).put("n", 7).build());

    assertEquals(alg.isEncrypting() ? 4 : 2, token.chars().filter(c -> c == '.').count());
    SessionToken t = codec.decode(token);
    assertEquals("alice", t.subject().orElseThrow());
    assertEquals(cart, t.get("cart", Cart.class).orElseThrow());
    assertEquals(7, t.get("n", Integer.class).orElseThrow());
    assertEquals(NOW, t.issuedAt());
    assertEquals(NOW.plus(Duration.ofMinutes(30)), t.expiresAt());
    assertEquals("k-" + alg, t.keyId());
    assertEquals(alg, t.algorithm());
    assertEquals(22, t.id().length(), "128-bit session id in base64url");
  }

  @Test
  void compressedEncryptedTokenRoundTripsAndIsSmallerForRepetitiveState() {
    TokenKey key = TokenKey.generate("enc", Algorithm.DIR_A256GCM);
    String big = "x".repeat(1000);
    String plain = codec(key, false).encode(Claims.builder().put("s", big).build());
    String zipped = codec(key, true).encode(Claims.builder().put("s", big).build());
    assertTrue(zipped.length() < plain.length() / 3, zipped.length() + " vs " + plain.length());
    assertEquals(big, codec(key, false).decode(zipped).get("s", String.class).orElseThrow());
  }

  @Test
  void toClaimsCarriesSessionForwardWithoutRebindingState() {
    TokenCodec codec = codec(TokenKey.generate("k", Algorithm.HS256), false);
    SessionToken first = codec.decode(codec.encode(
        Claims.builder().subject("bob").put("m", Map.of("a", 1)).build()));
    SessionToken second = codec.decode(codec.encode(first.toClaims().put("extra", true).build()));
    assertEquals(first.id(), second.id());
    assertEquals(Map.of("a", 1), second.get("m", Map.class).orElseThrow());
    assertEquals(true, second.get("extra", Boolean.class).orElseThrow());
    assertEquals(List.of("m", "extra"), List.copyOf(second.stateNames()));
  }

  @Test
  void newSessionIdsAreDistinct() {
    TokenCodec codec = codec(TokenKey.generate("k", Algorithm.HS256), false);
    String a = codec.decode(codec.encode(Claims.builder().build())).id();
    String b = codec.decode(codec.encode(Claims.builder().build())).id();
    assertNotEquals(a, b);
  }

  @Test
  void toStringNeverShowsSecretsOrState() {
    TokenKey key = TokenKey.generate("k", Algorithm.HS256);
    String secretJwk = key.toJwkWithSecrets();
    String k = secretJwk.replaceAll(".*\"k\":\"([^\"]+)\".*", "$1");
    assertFalse(key.toString().contains(k));
    assertFalse(KeySet.of(key).toString().contains(k));
    TokenCodec codec = codec(key, false);
    String token = codec.encode(Claims.builder().put("secret", "hunter2").build());
    SessionToken t = codec.decode(token);
    assertFalse(t.toString().contains("hunter2"));
    assertFalse(t.toString().contains(token));
    assertFalse(t.toString().contains(t.id()));
  }

  @Test
  void builderRefusesMissingAndContradictoryOptions() {
    KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.HS256));
    assertThrows(IllegalStateException.class, () -> TokenCodec.builder().issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(1)).build());
    assertThrows(IllegalStateException.class, () -> TokenCodec.builder().keys(keys).audience("a")
        .timeToLive(Duration.ofMinutes(1)).build());
    assertThrows(IllegalStateException.class, () -> TokenCodec.builder().keys(keys).issuer("i")
        .audience("a").build());
    assertThrows(IllegalArgumentException.class, () -> TokenCodec.builder().keys(keys).issuer("i")
        .audience("a").timeToLive(Duration.ZERO).build());
    assertThrows(IllegalStateException.class, () -> TokenCodec.builder().keys(keys).keys(keys));
    assertThrows(IllegalStateException.class, () -> TokenCodec.builder().keys(keys).issuer("i")
        .audience("a").timeToLive(Duration.ofMinutes(1)).compress(true).acceptCompressedSignedTokens(false).build());
    assertThrows(IllegalArgumentException.class, () -> TokenKey.secret("k", Algorithm.HS256, new byte[31]));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.secret("k", Algorithm.HS512, new byte[63]));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.secret("k", Algorithm.DIR_A256GCM, new byte[33]));
  }
}
