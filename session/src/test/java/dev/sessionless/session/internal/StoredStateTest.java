package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.internal.StateAccess;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The filter's own strict reading of a token's state: spans, metadata, and what it refuses. */
class StoredStateTest {
  private static final String META = "\"$sessionless\":{\"c\":1700000000000,\"m\":1800,\"t\":{%s}}";

  private static StoredState parse(String json) {
    return StoredState.parse(json);
  }

  private static String value(StoredState s, String name) {
    int[] span = s.spans.get(name);
    return new String(s.bytes, span[0], span[1] - span[0], StandardCharsets.UTF_8);
  }

  @Test
  void everyKindOfValueIsFoundExactly() {
    String state = "{\"n\":-12.5e3,\"s\":\"a \\\"q\\\" \u00e9\",\"z\":true,\"o\":{\"x\":[1,{\"y\":null}]},"
        + "\"a\":[ \"p\" , 2 ],\"i\":7," + String.format(META,
        "\"n\":\"d\",\"s\":\"s\",\"z\":\"z\",\"o\":\"M\",\"a\":\"L\",\"i\":\"i\"") + "}";
    StoredState s = parse(state);
    assertEquals(List.of("n", "s", "z", "o", "a", "i"), List.copyOf(s.types.keySet()));
    // core's index, metadata included
    assertEquals(List.of("n", "s", "z", "o", "a", "i", "$sessionless"), List.copyOf(s.spans.keySet()));
    assertEquals("-12.5e3", value(s, "n"));
    assertEquals("\"a \\\"q\\\" \u00e9\"", value(s, "s"));
    assertEquals("true", value(s, "z"));
    assertEquals("{\"x\":[1,{\"y\":null}]}", value(s, "o"));
    assertEquals("[ \"p\" , 2 ]", value(s, "a"));
    assertEquals("7", value(s, "i"));
    assertEquals(1700000000000L, s.created);
    assertEquals(1800, s.maxInactive);
    assertEquals("M", s.types.get("o"));
  }

  @Test
  void storedStateIsCoresBytesAndIndexNotACopy() {
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("https://shop.example").audience("shop").timeToLive(java.time.Duration.ofMinutes(5)).build();
    SessionToken t = codec.decode(codec.encode(Claims.builder().newSessionId().put("a", 7)
        .put(StoredState.META, new RawJson("{\"c\":5,\"m\":60,\"t\":{\"a\":\"i\"}}")).build()));
    StoredState s = StoredState.of(t);
    assertSame(StateAccess.bytes(t), s.bytes, "the token's own state bytes, not a copy");
    assertSame(StateAccess.spans(t), s.spans, "core's index of the token, not a second parse");
    assertSame(s.spans, StoredState.of(t).spans, "kept with the token (and its cache entry)");
    assertEquals("7", value(s, "a"));
    assertEquals(Map.of("a", "i"), s.types);
    assertEquals(5L, s.created);
    assertEquals(60, s.maxInactive);
  }

  @Test
  void metadataIsReadOncePerTokenAndSharedByEveryRequestThatBringsItBack() {
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("https://shop.example").audience("shop").timeToLive(java.time.Duration.ofMinutes(5)).build();
    String token = codec.encode(Claims.builder().newSessionId().put("a", 7)
        .put(StoredState.META, new RawJson("{\"c\":5,\"m\":60,\"t\":{\"a\":\"i\"}}")).build());
    SessionToken first = codec.decode(token);
    SessionToken again = codec.decode(new String(token.toCharArray())); // the next request's cookie
    assertSame(first, again, "a verification-cache hit");
    assertSame(StoredState.of(first), StoredState.of(again), "its metadata is not parsed again");
    SessionToken other = codec.decode(codec.encode(Claims.builder().newSessionId().put("a", 8)
        .put(StoredState.META, new RawJson("{\"c\":5,\"m\":60,\"t\":{\"a\":\"i\"}}")).build()));
    assertEquals(StoredState.of(first).types, StoredState.of(other).types);
    assertNotSame(StoredState.of(first), StoredState.of(other), "another token has its own");
  }

  @Test
  void metadataBytesAreTheTextsBytesForEveryName() {
    java.util.Random r = new java.util.Random(18);
    String[] pieces = {"cart", "a", "", "\"", "\\", "\u2028", "\u00e9t\u00e9", "\ud83d\ude00", "\u0001", "\n",
        "\ud800", "/", "<>", "com.example.User", " "};
    int direct = 0;
    for (int i = 0; i < 3_000; i++) {
      Map<String, String> tags = new LinkedHashMap<>();
      int n = r.nextInt(4);
      for (int j = 0; j < n; j++) {
        tags.put(pieces[r.nextInt(pieces.length)] + j + pieces[r.nextInt(pieces.length)], pieces[r.nextInt(pieces.length)] + "T");
      }
      long created = r.nextInt(5) == 0 ? -r.nextLong() : r.nextLong() >>> 1;
      int maxInactive = r.nextInt(4) == 0 ? Integer.MIN_VALUE + r.nextInt(3) : r.nextInt();
      byte[] expected = StoredState.metaJson(created, maxInactive, tags).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertArrayEquals(expected, StoredState.metaBytes(created, maxInactive, tags, t -> t), tags.toString());
      if (PlainJsonWriter.meta(created, maxInactive, tags, t -> t) != null) {
        direct++;
      }
    }
    assertTrue(direct > 1_000, "most are written straight into bytes: " + direct);
    assertTrue(direct < 3_000, "names with a control character or a lone surrogate take the encoder: " + direct);
  }

  @Test
  void metadataWrittenIsMetadataRead() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("we\"ird\u2028name", "Cart");
    tags.put("b", "s");
    String state = "{\"we\\\"ird\u2028name\":{},\"b\":\"x\",\"$sessionless\":"
        + StoredState.metaJson(5L, -1, tags) + "}";
    StoredState s = parse(state);
    assertEquals(tags, s.types);
    assertEquals(5L, s.created);
    assertEquals(-1, s.maxInactive);
  }

  @Test
  void unknownMetadataMembersAreSkipped() {
    StoredState s = parse("{\"$sessionless\":{\"v\":[1,2],\"c\":1,\"m\":2,\"t\":{},\"later\":{\"x\":1}}}");
    assertEquals(Map.of(), s.types);
  }

  private static void assertRefused(TokenException.Reason reason, String state) {
    TokenException e = assertThrows(TokenException.class, () -> parse(state), state);
    assertEquals(reason, e.reason(), state);
  }

  @Test
  void stateWithoutMetadataIsAMissingClaim() {
    assertRefused(TokenException.Reason.MISSING_CLAIM, "{\"a\":1}");
  }

  @Test
  void malformedStatesAreRefusedAsMalformed() {
    String ok = String.format(META, "\"a\":\"i\"");
    for (String bad : List.of(
        "[1]",
        "{\"a\":1,\"a\":2," + ok + "}",                                  // duplicated attribute
        "{\"a\":{\"x\":1,\"x\":2}," + ok + "}",                          // duplicated member inside a value
        "{\"a\":\"\\ud800\"," + ok + "}",                                // unpaired surrogate
        "{\"a\":1," + ok + "} {}",                                       // trailing data
        "{\"a\":1,\"b\":2," + ok + "}",                                  // an attribute with no recorded type
        "{" + ok + "}",                                                  // a recorded type with no attribute
        "{\"a\":1,\"$sessionless\":{\"c\":1.5,\"m\":1,\"t\":{\"a\":\"i\"}}}",        // fractional time
        "{\"a\":1,\"$sessionless\":{\"c\":1,\"m\":99999999999,\"t\":{\"a\":\"i\"}}}", // out of range
        "{\"a\":1,\"$sessionless\":{\"c\":1,\"m\":1,\"t\":{\"a\":7}}}",               // tag not a string
        "{\"a\":1,\"$sessionless\":{\"c\":1,\"t\":{\"a\":\"i\"}}}",                   // incomplete
        "{\"a\":1,\"$sessionless\":[]}",
        "{\"\":1,\"$sessionless\":{\"c\":1,\"m\":1,\"t\":{\"\":\"i\"}}}")) {            // empty name
      assertRefused(TokenException.Reason.MALFORMED, bad);
    }
  }

  /** The metadata as read, or the refusal's reason. */
  private static Object read(String state, boolean ownReader) {
    try {
      StoredState s = StoredState.parse(state, ownReader);
      return List.of(s.created, s.maxInactive, new java.util.ArrayList<>(s.types.entrySet()));
    } catch (TokenException e) {
      return e.reason();
    }
  }

  @Test
  void ownMetadataReaderAgreesWithTheParserOnEveryShape() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("profile", "M");
    tags.put("cart", "L");
    tags.put("user", "com.example.User");
    String attrs = "\"profile\":{},\"cart\":[],\"user\":{}";
    List<String> states = new java.util.ArrayList<>();
    for (long created : new long[] {0L, 1795481400148L, -5L, 999_999_999_999_999_999L}) {
      for (int maxInactive : new int[] {0, 1800, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
        states.add("{" + attrs + ",\"$sessionless\":" + StoredState.metaJson(created, maxInactive, tags) + "}");
      }
    }
    states.add("{\"$sessionless\":" + StoredState.metaJson(1L, 2, Map.of()) + "}");
    for (String meta : List.of(
        "{\"c\":1,\"m\":2,\"t\":{\"a\":\"i\"}}",
        "{\"c\": 1,\"m\":2,\"t\":{\"a\":\"i\"}}",                // whitespace: the parser's
        "{\"m\":2,\"c\":1,\"t\":{\"a\":\"i\"}}",                 // another order
        "{\"c\":1,\"m\":2,\"t\":{\"a\":\"\\u0069\"}}",           // an escape
        "{\"c\":1,\"m\":2,\"t\":{\"a\":\"i\"},\"x\":0}",           // a later member
        "{\"c\":1234567890123456789,\"m\":2,\"t\":{\"a\":\"i\"}}",  // 19 digits
        "{\"c\":1,\"m\":2147483648,\"t\":{\"a\":\"i\"}}",          // over int
        "{\"c\":1.5,\"m\":2,\"t\":{\"a\":\"i\"}}",
        "{\"c\":1,\"m\":2,\"t\":{\"a\":7}}",
        "{\"c\":1,\"m\":2,\"t\":{}}",                             // a value with no type
        "{\"c\":1,\"t\":{\"a\":\"i\"}}")) {
      states.add("{\"a\":1,\"$sessionless\":" + meta + "}");
    }
    states.add("{\"\u00e9t\u00e9\":1,\"$sessionless\":{\"c\":1,\"m\":2,\"t\":{\"\u00e9t\u00e9\":\"i\"}}}");
    states.add("{\"\":1,\"$sessionless\":{\"c\":1,\"m\":2,\"t\":{\"\":\"i\"}}}");
    for (String state : states) {
      assertEquals(read(state, false), read(state, true), state);
    }
    long own = states.stream().filter(st -> {
      try {
        return StoredState.ownReaderTakes(st);
      } catch (TokenException e) {
        return false; // core's index refuses the state itself
      }
    }).count();
    assertEquals(21 + 2, own, "what metaJson writes (and the two plain hand-written ones) is read without the parser");
    assertEquals(List.of(1795481400148L, 1800, new java.util.ArrayList<>(tags.entrySet())),
        read("{" + attrs + ",\"$sessionless\":" + StoredState.metaJson(1795481400148L, 1800, tags) + "}", true));
  }
}
