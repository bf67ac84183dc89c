package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Reading the state: the value is always what the codec's mapper reads, immutable values are
 * read once per token (and so kept across verification-cache hits), mutable ones are fresh per
 * read, and a state with a strictness break is refused by every accessor.
 */
class StateReadTest {
  static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  static TokenCodec codec(JsonMapper mapper, int cache) {
    TokenCodec.Builder b = TokenCodec.builder().keys(KeySet.of(TokenKey.secret("k", Algorithm.HS256, SECRET)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).clock(new FakeClock(NOW))
        .verificationCache(cache);
    if (mapper != null) {
      b.stateMapper(dev.sessionless.core.jackson.JacksonStateMapper.of(mapper));
    }
    return b.build();
  }

  /** An HS256 token under {@link #SECRET} whose state is exactly {@code stateJson}. */
  static String tokenWithState(String stateJson) throws Exception {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    long now = NOW.getEpochSecond();
    String payload = "{\"iss\":\"i\",\"aud\":\"a\",\"iat\":" + now + ",\"exp\":" + (now + 300)
        + ",\"jti\":\"s1\",\"st\":" + stateJson + "}";
    String input = b64.encodeToString("{\"alg\":\"HS256\",\"kid\":\"k\"}".getBytes(StandardCharsets.UTF_8)) + "."
        + b64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    return input + "." + b64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void scalarValuesReadAsTheMappersOwnReading() throws Exception {
    String state = "{\"s\":\"caf\u00e9 \\u00e9\\n\\ud83d\\ude00\",\"t\":true,\"i\":-42,\"l\":9007199254740993,"
        + "\"big\":123456789012345678901234567890,\"d\":2.5e-3,\"n\":null,\"num\":12,\"m\":{\"a\":[1,2]}}";
    SessionToken t = codec(null, 0).decode(tokenWithState(state));
    ObjectMapper jackson = new ObjectMapper();
    Map<String, Object> tree = jackson.readValue(state, Map.class);
    assertEquals("caf\u00e9 \u00e9\n\ud83d\ude00", t.get("s", String.class).orElseThrow());
    assertEquals(Boolean.TRUE, t.get("t", Boolean.class).orElseThrow());
    assertEquals(-42, t.get("i", Integer.class).orElseThrow());
    assertEquals(9007199254740993L, t.get("l", Long.class).orElseThrow());
    assertEquals(new BigInteger("123456789012345678901234567890"), t.get("big", BigInteger.class).orElseThrow());
    assertEquals(new BigDecimal("2.5e-3"), t.get("d", BigDecimal.class).orElseThrow());
    assertEquals(0.0025, t.get("d", Double.class).orElseThrow());
    assertTrue(t.get("n", String.class).isEmpty(), "JSON null reads as empty");
    assertEquals("12", t.get("num", String.class).orElseThrow(), "a number read as a String is coerced, as Jackson does");
    assertEquals(tree.get("m"), t.get("m", Object.class).orElseThrow());
    assertEquals(tree.get("m"), t.get("m", Map.class).orElseThrow());
  }

  @Test
  void aNumberOutsideTheTypesRangeIsAStateMappingError() throws Exception {
    SessionToken t = codec(null, 0).decode(tokenWithState("{\"i\":2147483648,\"l\":9223372036854775808}"));
    assertEquals(2147483648L, t.get("i", Long.class).orElseThrow());
    assertEquals(TokenException.Reason.STATE_MAPPING, assertThrows(TokenException.class, () -> t.get("i", Integer.class)).reason());
    assertEquals(TokenException.Reason.STATE_MAPPING, assertThrows(TokenException.class, () -> t.get("l", Long.class)).reason());
  }

  @Test
  void aMutatedListFromGetDoesNotChangeTheNextRead() {
    TokenCodec codec = codec(null, 100);
    String token = codec.encode(Claims.builder().put("items", List.of("a", "b")).build());
    @SuppressWarnings("unchecked")
    List<String> first = codec.decode(token).get("items", List.class).orElseThrow();
    first.add("c");
    first.set(0, "z");
    @SuppressWarnings("unchecked")
    List<String> again = codec.decode(new String(token.toCharArray())).get("items", List.class).orElseThrow();
    assertEquals(List.of("a", "b"), again);
    assertNotSame(first, again);
  }

  @Test
  void aCacheHitHandsOutTheImmutableValueAlreadyRead() {
    TokenCodec codec = codec(null, 100);
    String token = codec.encode(Claims.builder().put("locale", "en-GB").put("visits", 3).build());
    SessionToken first = codec.decode(token);
    String locale = first.get("locale", String.class).orElseThrow();
    Integer visits = first.get("visits", Integer.class).orElseThrow();
    SessionToken hit = codec.decode(new String(token.toCharArray()));
    assertSame(first, hit, "the cache returns the token already parsed");
    assertSame(locale, hit.get("locale", String.class).orElseThrow());
    assertSame(visits, hit.get("visits", Integer.class).orElseThrow());
  }

  @Test
  void aMappersOwnStringDeserializerStillDecidesTheValue() {
    SimpleModule upper = new SimpleModule().addDeserializer(String.class, new ValueDeserializer<String>() {
      @Override
      public String deserialize(JsonParser p, DeserializationContext ctxt) {
        return p.getString().toUpperCase(Locale.ROOT);
      }
    });
    TokenCodec codec = codec(JsonMapper.builder().addModule(upper).build(), 100);
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("locale", "en-gb").build()));
    assertEquals("EN-GB", t.get("locale", String.class).orElseThrow());
    assertEquals("EN-GB", t.get("locale", String.class).orElseThrow());
  }

  @Test
  void aDuplicatedMemberAnywhereMakesEveryAccessorRefuseTheState() throws Exception {
    for (String state : List.of("{\"locale\":\"en\",\"x\":{\"k\":1,\"k\":2}}", "{\"locale\":\"en\",\"x\":[{\"k\":1,\"\\u006b\":2}]}",
        "{\"locale\":\"en\",\"locale\":\"fr\"}", "{\"locale\":\"en\",\"x\":\"\\ud800\"}")) {
      SessionToken t = codec(null, 0).decode(tokenWithState(state));
      assertEquals(TokenException.Reason.MALFORMED, assertThrows(TokenException.class, () -> t.get("locale", String.class)).reason(), state);
      assertEquals(TokenException.Reason.MALFORMED, assertThrows(TokenException.class, () -> t.has("locale")).reason(), state);
      assertEquals(TokenException.Reason.MALFORMED, assertThrows(TokenException.class, t::stateNames).reason(), state);
    }
  }

  @Test
  void namesAreFoundWhateverTheirSpellingInTheToken() throws Exception {
    SessionToken t = codec(null, 0).decode(tokenWithState("{\"\u00e9t\u00e9\":1,\"\\u0061\":2, \"b\" : \"x\" }"));
    assertEquals(1, t.get("\u00e9t\u00e9", Integer.class).orElseThrow());
    assertEquals(2, t.get("a", Integer.class).orElseThrow());
    assertEquals("x", t.get("b", String.class).orElseThrow());
    assertEquals(List.of("\u00e9t\u00e9", "a", "b"), new ArrayList<>(t.stateNames()));
    assertFalse(t.has("c"));
    assertTrue(t.get("c", String.class).isEmpty());
  }

  @Test
  void toClaimsCarriesEveryValueOnVerbatim() {
    TokenCodec codec = codec(null, 0);
    Map<String, Object> cart = new LinkedHashMap<>();
    cart.put("sku", "SKU-1");
    cart.put("qty", 2);
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("locale", "en").put("cart", cart).build()));
    assertEquals("en", t.get("locale", String.class).orElseThrow());
    SessionToken next = codec.decode(codec.encode(t.toClaims().build()));
    assertEquals(t.stateJson(), next.stateJson());
  }
}
