package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code encode(claims, prefix, suffix)} returns {@code prefix + token + suffix} in one String: the
 * token inside it is a whole token the codec reads back, the text around it is exactly what was
 * given (Latin-1 or not), and the listener is told the token's own length.
 */
class EncodeWithinTest {
  static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
  final List<Integer> lengths = new ArrayList<>();

  TokenCodec codec(Algorithm alg, boolean compress) {
    return TokenCodec.builder()
        .keys(KeySet.of(TokenKey.generate("k", alg)))
        .algorithm(alg)
        .compress(compress)
        .issuer("https://shop.example")
        .audience("shop")
        .timeToLive(Duration.ofMinutes(30))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .listener(new SessionlessListener() {
          @Override
          public void tokenEncoded(String kid, Algorithm algorithm, int length) {
            lengths.add(length);
          }
        })
        .build();
  }

  static Claims cart() {
    return Claims.builder().sessionId("s-1").put("cart", Map.of("sku", "SKU-1001", "qty", 2)).build();
  }

  @Test
  void theTokenInsideTheTextIsAWholeTokenForEveryAlgorithm() {
    for (Algorithm alg : new Algorithm[] {Algorithm.HS256, Algorithm.ES256, Algorithm.EDDSA, Algorithm.DIR_A256GCM}) {
      for (boolean zip : alg.isEncrypting() ? new boolean[] {false, true} : new boolean[] {false}) {
        TokenCodec codec = codec(alg, zip);
        String prefix = "SESSIONLESS=";
        String suffix = "; Path=/; Secure; HttpOnly; SameSite=Lax";
        String text = codec.encode(cart(), prefix, suffix);
        assertTrue(text.startsWith(prefix) && text.endsWith(suffix), alg + ": " + text);
        String token = text.substring(prefix.length(), text.length() - suffix.length());
        SessionToken t = codec.decode(token);
        assertEquals("s-1", t.id(), alg.toString());
        assertEquals(2, t.get("cart", Map.class).orElseThrow().get("qty"), alg.toString());
        assertEquals(token.length(), lengths.get(lengths.size() - 1), alg + ": the listener gets the token's length");
        // The same claims, encoded alone, give a token of the same length (HS256's is the same token).
        String alone = codec.encode(cart());
        assertEquals(alone.length(), token.length(), alg.toString());
        if (alg == Algorithm.HS256) {
          assertEquals(alone, token, "HS256 over the same claims at the same instant is the same token");
        }
      }
    }
  }

  @Test
  void emptyAffixesGiveTheTokenAlone() {
    TokenCodec codec = codec(Algorithm.HS256, false);
    assertEquals(codec.encode(cart()), codec.encode(cart(), "", ""));
  }

  @Test
  void textBeyondLatin1AroundTheTokenIsKeptAsGiven() {
    TokenCodec codec = codec(Algorithm.HS256, false);
    String token = codec.encode(cart());
    assertEquals("Ünïcödé ✓ " + token + " → 😀", codec.encode(cart(), "Ünïcödé ✓ ", " → 😀"));
    assertEquals("é" + token + "ÿ", codec.encode(cart(), "é", "ÿ"), "Latin-1 beyond ASCII takes the one-copy path");
  }

  @Test
  void aTokenOverTheLimitIsRefusedWhateverTheTextAroundIt() {
    TokenCodec codec = TokenCodec.builder()
        .keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(1)).maxTokenLength(400).build();
    Claims big = Claims.builder().put("v", "x".repeat(400)).build();
    TokenException e = assertThrows(TokenException.class, () -> codec.encode(big, "p=", "; s"));
    assertEquals(TokenException.Reason.TOO_LARGE, e.reason());
    Claims small = Claims.builder().put("v", "x".repeat(100)).build();
    String text = codec.encode(small, "x".repeat(300), "y".repeat(300));
    assertTrue(text.length() > 600, "the limit is the token's, not the text's");
  }

  @Test
  void nullAffixesAreRefused() {
    TokenCodec codec = codec(Algorithm.HS256, false);
    assertThrows(NullPointerException.class, () -> codec.encode(cart(), null, ""));
    assertThrows(NullPointerException.class, () -> codec.encode(cart(), "", null));
  }
}
