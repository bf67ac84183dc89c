package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Compressed signed tokens ({@code zip} on a JWS, an extension): written only when asked, read
 * only by a codec that accepts them, and inflated only after the signature has verified.
 */
class SignedCompressionTest {
  static final HostileTokens T = new HostileTokens(0x2117L);
  static final String ZIP_DEF_HEADER = "{\"alg\":\"HS256\",\"zip\":\"DEF\",\"kid\":\"hs256\"}";

  static TokenCodec.Builder builder(TokenKey key) {
    return TokenCodec.builder().keys(T.keySet).algorithm(key.algorithm())
        .acceptAlgorithms(key.algorithm(), Algorithm.values())
        .issuer(HostileTokens.ISS).audience(HostileTokens.AUD).timeToLive(Duration.ofSeconds(HostileTokens.TTL))
        .clock(Clock.fixed(HostileTokens.NOW, ZoneOffset.UTC));
  }

  /** A codec signing with {@code key}; the key set holds every key, so any codec reads any token. */
  static TokenCodec codec(TokenKey key, Compression writes, boolean cache) {
    TokenCodec.Builder b = builder(key).compression(writes);
    return (cache ? b : b.verificationCache(0)).build();
  }

  static Claims cart() {
    return CompressionTest.cart();
  }

  @Test
  void everySigningAlgorithmWritesZipInItsHeaderAndAnAcceptingCodecReadsIt() {
    for (TokenKey key : T.all()) {
      if (key.algorithm().isEncrypting()) {
        continue;
      }
      String plain = codec(key, Compression.NONE, false).encode(cart());
      for (Compression zip : new Compression[] {Compression.DEFLATE, Compression.DEFLATE_WITH_DICTIONARY}) {
        String what = key.algorithm() + " " + zip;
        String token = codec(key, zip, false).encode(cart());
        assertEquals(3, token.split("\\.", -1).length, what + ": a JWS");
        assertEquals(zip.zipValue(), CompressionTest.zipOf(token), what);
        assertTrue(token.length() < plain.length(), what + ": " + token.length() + " < " + plain.length());
        for (boolean cache : new boolean[] {false, true}) {
          for (TokenCodec reader : new TokenCodec[] {codec(key, zip, cache), codec(key, Compression.DEFLATE, cache),
              builder(key).acceptCompressedSignedTokens(true).verificationCache(cache ? 100 : 0).build()}) {
            SessionToken t = reader.decode(token);
            assertEquals("alice", t.subject().orElseThrow(), what);
            assertEquals("GBP", t.get("cart", Map.class).orElseThrow().get("currency"), what);
            assertEquals(t.subject(), reader.decode(token).subject(), what + ": decoded again");
          }
        }
      }
    }
  }

  @Test
  void aCodecThatDoesNotAcceptThemRefusesCompressedSignedTokensAsAnUnsupportedHeader() {
    for (Compression zip : new Compression[] {Compression.DEFLATE, Compression.DEFLATE_WITH_DICTIONARY}) {
      String token = codec(T.hs256, zip, false).encode(cart());
      for (TokenCodec reader : new TokenCodec[] {codec(T.hs256, Compression.NONE, false),
          codec(T.hs256, Compression.NONE, true), builder(T.hs256).acceptCompressedSignedTokens(false).build(),
          // Writing compressed encrypted tokens says nothing about signed ones.
          codec(T.aes, zip, false)}) {
        TokenException e = assertThrows(TokenException.class, () -> reader.decode(token), zip.toString());
        assertEquals(Reason.UNSUPPORTED_HEADER, e.reason());
        assertTrue(e.getMessage().contains("acceptCompressedSignedTokens"), e.getMessage());
      }
    }
    // A header in another member order is parsed rather than found: refused the same way.
    String reordered = T.jws(T.hs256, ZIP_DEF_HEADER, HostileTokens.payload());
    assertEquals(Reason.UNSUPPORTED_HEADER, assertThrows(TokenException.class,
        () -> codec(T.hs256, Compression.NONE, false).decode(reordered)).reason());
  }

  @Test
  void theSignatureIsVerifiedBeforeAnythingIsInflated() {
    TokenCodec reader = builder(T.hs256).acceptCompressedSignedTokens(true).verificationCache(0).build();
    byte[] bomb = HostileTokens.deflate(new byte[4 * 8192 + 1]);
    String signedBomb = T.jws(T.hs256, ZIP_DEF_HEADER.getBytes(StandardCharsets.UTF_8), bomb);
    assertEquals(Reason.TOO_LARGE, assertThrows(TokenException.class, () -> reader.decode(signedBomb)).reason(),
        "a signed bomb stops at the cap");
    String other = T.jws(T.hs256, ZIP_DEF_HEADER, HostileTokens.payload());
    String forged = signedBomb.substring(0, signedBomb.lastIndexOf('.')) + other.substring(other.lastIndexOf('.'));
    assertEquals(Reason.BAD_SIGNATURE, assertThrows(TokenException.class, () -> reader.decode(forged)).reason(),
        "an unsigned bomb is never inflated");
    String notDeflate = T.jws(T.hs256, ZIP_DEF_HEADER, HostileTokens.payload());
    assertEquals(Reason.MALFORMED, assertThrows(TokenException.class, () -> reader.decode(notDeflate)).reason(),
        "JSON where DEFLATE should be");
    String compressed = T.jws(T.hs256, ZIP_DEF_HEADER.getBytes(StandardCharsets.UTF_8),
        HostileTokens.deflate(HostileTokens.payload().getBytes(StandardCharsets.UTF_8)));
    assertEquals("session-1", reader.decode(compressed).id(), "zlib's own DEFLATE, as jjwt writes it, is read");
    String unknown = T.jws(T.hs256, ZIP_DEF_HEADER.replace("DEF", "BR"), HostileTokens.payload());
    assertEquals(Reason.UNSUPPORTED_HEADER, assertThrows(TokenException.class, () -> reader.decode(unknown)).reason());
  }

  @Test
  void aCodecThatWritesCompressedSignedTokensMustReadThem() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> builder(T.hs256).compression(Compression.DEFLATE_WITH_DICTIONARY).acceptCompressedSignedTokens(false).build());
    assertTrue(e.getMessage().contains("acceptCompressedSignedTokens(false)"), e.getMessage());
    assertEquals("acceptCompressedSignedTokens was already set", assertThrows(IllegalStateException.class,
        () -> builder(T.hs256).acceptCompressedSignedTokens(true).acceptCompressedSignedTokens(true)).getMessage());
    // An encrypting codec may turn it off: it writes no signed token.
    builder(T.aes).compression(Compression.DEFLATE).acceptCompressedSignedTokens(false).build();
  }
}
