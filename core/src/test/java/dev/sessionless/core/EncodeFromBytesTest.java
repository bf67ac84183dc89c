package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.internal.RawJson;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The encode path writes values from bytes: a carried state value is copied from the verified
 * token's own bytes, a byte-range {@link RawJson} writes exactly its range, and a state value is
 * streamed by the mapper into the payload without an intermediate array.
 */
class EncodeFromBytesTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  static TokenCodec codec(StateMapper mapper) {
    return TokenCodec.builder()
        .keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("https://shop.example")
        .audience("shop")
        .timeToLive(Duration.ofMinutes(30))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .stateMapper(mapper)
        .build();
  }

  @Test
  void carriedStateIsWrittenBackByteForByte() {
    TokenCodec codec = codec(StateMapper.defaults());
    // Forms a re-serialisation would normalise: escapes, an exponent, multi-byte UTF-8, spacing.
    String odd = "{\"n\":1.50E+3, \"s\":\"caf\\u00e9 \\\"q\\\" \\u2028\",\"u\":\"é😀\"}";
    SessionToken first = codec.decode(codec.encode(Claims.builder()
        .put("odd", new RawJson(odd)).put("plain", List.of(1, 2)).build()));
    SessionToken second = codec.decode(codec.encode(first.toClaims().build()));
    assertEquals(first.stateJson(), second.stateJson());
    assertTrue(second.stateJson().contains(odd), second.stateJson());
    assertEquals("é😀", second.get("odd", Map.class).orElseThrow().get("u"));
  }

  @Test
  void byteRangeRawJsonWritesOnlyItsRange() {
    TokenCodec codec = codec(StateMapper.defaults());
    byte[] around = "xx[1,\"é\",{\"a\":null}]yy".getBytes(StandardCharsets.UTF_8);
    int len = around.length - 4;
    SessionToken t = codec.decode(codec.encode(Claims.builder()
        .put("v", new RawJson(around, 2, len)).put("w", 3).build()));
    assertEquals("{\"v\":[1,\"é\",{\"a\":null}],\"w\":3}", t.stateJson());
  }

  @Test
  void byteRangeRawJsonRefusesARangeOutsideItsArray() {
    assertThrows(IndexOutOfBoundsException.class, () -> new RawJson(new byte[4], 2, 3));
  }

  @Test
  void rawJsonShowsItsLengthNeverItsContent() {
    assertEquals("RawJson[6 bytes]", new RawJson("\"sec\"!".getBytes(StandardCharsets.UTF_8), 0, 6).toString());
  }

  @Test
  void stateValuesAreStreamedThroughTheMappersWriteTo() {
    TokenCodec codec = codec(new StreamOnly(StateMapper.defaults(), false));
    SessionToken t = codec.decode(codec.encode(Claims.builder()
        .put("cart", Map.of("sku", "A-1")).claim("act", Map.of("sub", "svc")).build()));
    assertEquals("{\"cart\":{\"sku\":\"A-1\"}}", t.stateJson());
    assertEquals("{\"sub\":\"svc\"}", t.claimJson("act").orElseThrow());
  }

  @Test
  void aValueThatFailsHalfWrittenIsStateMappingAndLeavesNothingBehind() {
    TokenCodec codec = codec(new StreamOnly(StateMapper.defaults(), true));
    TokenException e = assertThrows(TokenException.class,
        () -> codec.encode(Claims.builder().put("cart", Map.of("sku", "A-1")).build()));
    assertEquals(TokenException.Reason.STATE_MAPPING, e.reason());
    assertTrue(e.getMessage().contains("'cart'"), e.getMessage());
    // The pooled payload buffer the failed write used is clean for the next token.
    TokenCodec plain = codec(StateMapper.defaults());
    for (int i = 0; i < 4; i++) {
      assertEquals("{\"n\":" + i + "}", plain.decode(plain.encode(Claims.builder().put("n", i).build())).stateJson());
    }
  }

  /** A mapper whose {@code write} must not be called on encode; optionally fails after half a value. */
  private static final class StreamOnly implements StateMapper {
    private final StateMapper inner;
    private final boolean failHalfway;

    StreamOnly(StateMapper inner, boolean failHalfway) {
      this.inner = inner;
      this.failHalfway = failHalfway;
    }

    @Override
    public byte[] write(Object value) {
      throw new AssertionError("encode built an intermediate array for a state value");
    }

    @Override
    public void writeTo(Object value, OutputStream out) throws IOException {
      if (failHalfway) {
        out.write("{\"half".getBytes(StandardCharsets.UTF_8));
        throw new IllegalStateException("cannot write the rest");
      }
      inner.writeTo(value, out);
    }

    @Override
    public Object read(byte[] json, int off, int len, Type type) {
      return inner.read(json, off, len, type);
    }
  }
}
