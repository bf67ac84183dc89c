package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a codec writes for each {@link Compression}, and that every codec reads every kind, so a
 * fleet can change what it writes one node at a time.
 */
class CompressionTest {
  static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
  static final TokenKey KEY = TokenKey.generate("k", Algorithm.DIR_A256GCM);

  static TokenCodec.Builder builder() {
    return TokenCodec.builder().keys(KeySet.of(KEY)).algorithm(Algorithm.DIR_A256GCM)
        .issuer("https://shop.example").audience("shop").timeToLive(Duration.ofMinutes(30))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC));
  }

  static TokenCodec codec(Compression c) {
    return builder().compression(c).build();
  }

  static Claims cart() {
    List<Map<String, Object>> items = List.of(
        Map.of("sku", "SKU-1001", "name", "Espresso beans 1kg", "quantity", 1, "priceCents", 2490),
        Map.of("sku", "SKU-2002", "name", "Ceramic cup, white", "quantity", 2, "priceCents", 1290));
    return Claims.builder().subject("alice").put("cart", Map.of("currency", "GBP", "items", items))
        .put("$sessionless", Map.of("c", 1795724494814L, "m", 1800, "t", Map.of("cart", "M"))).build();
  }

  static String zipOf(String token) {
    String header = new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
        StandardCharsets.UTF_8);
    int at = header.indexOf("\"zip\":\"");
    return at < 0 ? null : header.substring(at + 7, header.indexOf('"', at + 7));
  }

  @Test
  void eachKindWritesItsZipAndEveryCodecReadsEveryKind() {
    for (Compression written : Compression.values()) {
      String token = codec(written).encode(cart());
      assertEquals(written.zipValue(), zipOf(token), written.toString());
      for (Compression reader : Compression.values()) {
        SessionToken t = codec(reader).decode(token);
        assertEquals("alice", t.subject().orElseThrow(), written + " read by " + reader);
        assertEquals("GBP", t.get("cart", Map.class).orElseThrow().get("currency"), written + " read by " + reader);
      }
    }
  }

  @Test
  void theDictionaryMakesTheShortestToken() {
    int none = codec(Compression.NONE).encode(cart()).length();
    int deflate = codec(Compression.DEFLATE).encode(cart()).length();
    int dictionary = codec(Compression.DEFLATE_WITH_DICTIONARY).encode(cart()).length();
    assertTrue(deflate < none, deflate + " < " + none);
    assertTrue(dictionary < deflate * 0.92, "dictionary " + dictionary + ", DEF " + deflate + ", none " + none);
  }

  @Test
  void aTypedCodecWritesItsTypBesideTheZip() {
    TokenCodec typed = builder().tokenType("session+jwt").compression(Compression.DEFLATE_WITH_DICTIONARY).build();
    String token = typed.encode(cart());
    assertEquals("SLD1", zipOf(token));
    assertEquals("alice", typed.decode(token).subject().orElseThrow());
  }

  @Test
  void compressionIsSetOnce() {
    assertEquals("compress/compression was already set", assertThrows(IllegalStateException.class,
        () -> builder().compress(true).compression(Compression.DEFLATE_WITH_DICTIONARY)).getMessage());
    assertThrows(NullPointerException.class, () -> builder().compression(null));
    assertEquals(null, zipOf(builder().compress(false).build().encode(cart())), "compress(false) is NONE");
  }

  @Test
  void configurationNamesAreReadInAnyCaseWithDashesOrUnderscores() {
    assertEquals(Compression.DEFLATE_WITH_DICTIONARY, Compression.fromName("deflate-with-dictionary"));
    assertEquals(Compression.DEFLATE_WITH_DICTIONARY, Compression.fromName(" DEFLATE_WITH_DICTIONARY "));
    assertEquals(Compression.NONE, Compression.fromName("None"));
    assertEquals(Compression.DEFLATE, Compression.fromName("deflate"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.fromName("zstd"));
    assertEquals("compression must be none, deflate or deflate-with-dictionary, got 'zstd'", e.getMessage());
  }

  @Test
  void anUnknownZipIsRefusedAsAnUnsupportedHeader() {
    String token = codec(Compression.DEFLATE_WITH_DICTIONARY).encode(cart());
    String header = new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
        StandardCharsets.UTF_8).replace("SLD1", "SLD2");
    String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(header.getBytes(StandardCharsets.UTF_8))
        + token.substring(token.indexOf('.'));
    TokenException e = assertThrows(TokenException.class, () -> codec(Compression.NONE).decode(forged));
    assertEquals(TokenException.Reason.UNSUPPORTED_HEADER, e.reason());
    assertTrue(e.getMessage().contains("DEF and SLD1"), e.getMessage());
  }
}
