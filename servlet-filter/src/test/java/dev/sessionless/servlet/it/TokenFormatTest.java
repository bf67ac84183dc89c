package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.FakeClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The token format over real HTTP: tokens record each attribute's type as a short tag, and a
 * token written before tags (full class names, as the filter wrote them up to 0.1) still reads,
 * so a rolling deploy loses no session.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenFormatTest {
  static final String ISSUER = "https://test.example";
  static final String AUDIENCE = "format";
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.HS256));
  /** The secret of the key the default filter ({@code /e/*}, no algorithm set) encrypts with. */
  final byte[] defaultSecret = new byte[32];
  final KeySet defaultKeys;

  TokenFormatTest() {
    new java.security.SecureRandom().nextBytes(defaultSecret);
    defaultKeys = KeySet.of(TokenKey.secret("e0", Algorithm.DIR_A256GCM, defaultSecret.clone()));
  }
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
  final TokenCodec codec = TokenCodec.builder().keys(keys).issuer(ISSUER).audience(AUDIENCE)
      .timeToLive(Duration.ofMinutes(30)).clock(clock).build();
  Container container;

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("sessionless", SessionlessFilter.builder().keys(keys).algorithm(Algorithm.HS256)
          .issuer(ISSUER).audience(AUDIENCE).clock(clock).cookieName("SL").attributeTypes(Cart.class).build())
          .addMappingForUrlPatterns(null, false, "/s/*");
      ctx.addFilter("compressed", SessionlessFilter.builder()
          .keys(KeySet.of(TokenKey.generate("e1", Algorithm.DIR_A256GCM))).algorithm(Algorithm.DIR_A256GCM)
          .compress(true).issuer(ISSUER).audience(AUDIENCE).clock(clock).cookieName("SLZ").build())
          .addMappingForUrlPatterns(null, false, "/z/*");
      ctx.addFilter("dictionary", SessionlessFilter.builder()
          .keys(KeySet.of(TokenKey.generate("e2", Algorithm.DIR_A256GCM))).algorithm(Algorithm.DIR_A256GCM)
          .compression(dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY).issuer(ISSUER).audience(AUDIENCE)
          .clock(clock).cookieName("SLD").build())
          .addMappingForUrlPatterns(null, false, "/d/*");
      // Signed with the same key as /s/*: /h/* writes compressed HS256 tokens, /a/* only reads them.
      ctx.addFilter("signed-dictionary", SessionlessFilter.builder().keys(keys).algorithm(Algorithm.HS256)
          .issuer(ISSUER).audience(AUDIENCE)
          .compression(dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY).clock(clock).cookieName("SLH").build())
          .addMappingForUrlPatterns(null, false, "/h/*");
      ctx.addFilter("signed-accepting", SessionlessFilter.builder().keys(keys).algorithm(Algorithm.HS256)
          .issuer(ISSUER).audience(AUDIENCE)
          .acceptCompressedSignedTokens(true).clock(clock).cookieName("SLA").build())
          .addMappingForUrlPatterns(null, false, "/a/*");
      ctx.addFilter("default", SessionlessFilter.builder().keys(defaultKeys).issuer(ISSUER).audience(AUDIENCE)
          .clock(clock).cookieName("SLE").build())
          .addMappingForUrlPatterns(null, false, "/e/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*", "/z/*", "/d/*", "/h/*", "/a/*", "/e/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  /** The decoded JSON of a compact token's header. */
  private static String headerOf(String token) {
    return new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
        java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The path and query that store {@code value} as the attribute {@code a}. */
  private static String setQuery(String value) {
    return "/set?value=" + java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** A new client that stored {@code value} under {@code path}, answered with one {@code cookie}. */
  private TestClient written(String path, String cookie, String value) {
    TestClient c = new TestClient(container);
    assertEquals(1, c.get(path + setQuery(value)).setCookie(cookie).size(), path);
    return c;
  }

  /** A token exactly as the filter wrote it before type tags: full class names. */
  private String fullClassNameToken() {
    Map<String, String> types = new LinkedHashMap<>();
    types.put("a", "java.lang.String");
    types.put("n", "java.lang.Long");
    types.put("price", "java.math.BigDecimal");
    types.put("list", "java.util.List");
    types.put("map", "java.util.Map");
    types.put("cart", Cart.class.getName());
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("c", clock.millis());
    meta.put("m", 1800);
    meta.put("t", types);
    return codec.encode(Claims.builder()
        .put("a", "kept").put("n", 42L).put("price", new BigDecimal("9.90"))
        .put("list", List.of("x", "y")).put("map", Map.of("k", "v"))
        .put("cart", Map.of("items", List.of("mug")))
        .put("$sessionless", meta).build());
  }

  @Test
  void defaultTokenIsACompressedJweThatHidesTheStateAndJose4jDecrypts() throws Exception {
    String value = "cart: SKU-1001 Espresso beans x1; csrf 4f9a2c; user alice@example.com";
    TestClient c = written("/e", "SLE", value);
    String token = c.cookies.get("SLE");
    assertEquals(5, token.split("\\.", -1).length, "a compact JWE: " + token);
    String header = headerOf(token);
    for (String member : List.of("\"alg\":\"dir\"", "\"enc\":\"A256GCM\"", "\"zip\":\"DEF\"", "\"kid\":\"e0\"")) {
      assertTrue(header.contains(member), header);
    }
    for (String part : token.split("\\.")) {
      String decoded = new String(java.util.Base64.getUrlDecoder().decode(part), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertFalse(decoded.contains("alice") || decoded.contains("Espresso"), "the state is hidden: " + part);
    }
    org.jose4j.jwe.JsonWebEncryption jwe = new org.jose4j.jwe.JsonWebEncryption();
    jwe.setAlgorithmConstraints(new org.jose4j.jwa.AlgorithmConstraints(
        org.jose4j.jwa.AlgorithmConstraints.ConstraintType.PERMIT, "dir"));
    jwe.setCompactSerialization(token);
    jwe.setKey(new javax.crypto.spec.SecretKeySpec(defaultSecret, "AES"));
    String payload = jwe.getPayload();
    assertTrue(payload.contains("\"a\":\"" + value + "\""), "jose4j inflates and decrypts it: " + payload);
    assertTrue(payload.contains("\"iss\":\"" + ISSUER + "\""), payload);
    assertEquals(value + ":String", c.get("/e/read").get("attr.a"));
  }

  @Test
  void compressedEncryptedSessionCarriesAZipHeaderAndReadsBack() {
    String value = "a value that repeats, ".repeat(20);
    TestClient c = written("/z", "SLZ", value);
    String token = c.cookies.get("SLZ");
    assertEquals(5, token.split("\\.", -1).length, "a compact JWE: " + token);
    String header = headerOf(token);
    assertTrue(header.contains("\"zip\":\"DEF\""), header);
    assertTrue(token.length() < value.length(), "compressed: " + token.length() + " characters");
    assertEquals(value + ":String", c.get("/z/read").get("attr.a"));
  }

  @Test
  void dictionaryCompressedSessionCarriesItsZipIsShorterAndReadsBack() {
    String value = "SKU-1001 Espresso beans 1kg x1";
    TestClient z = written("/z", "SLZ", value);
    TestClient d = written("/d", "SLD", value);
    String token = d.cookies.get("SLD");
    String header = headerOf(token);
    assertTrue(header.contains("\"zip\":\"SLD1\""), header);
    assertTrue(token.length() < z.cookies.get("SLZ").length(),
        "SLD1 " + token.length() + " characters, DEF " + z.cookies.get("SLZ").length());
    assertEquals(value + ":String", d.get("/d/read").get("attr.a"));
    assertEquals(value + ":String", d.get("/d/read").get("attr.a"), "and again, from the cookie the read left");
  }

  @Test
  void compressedSignedSessionIsShorterAndReadOnlyWhereAcceptedElseANewSessionNotAnError() {
    String value = "SKU-1001 Espresso beans 1kg x1, SKU-2002 Ceramic cup x2";
    TestClient plain = written("/s", "SL", value);
    TestClient h = written("/h", "SLH", value);
    String token = h.cookies.get("SLH");
    assertEquals(3, token.split("\\.", -1).length, "a compact JWS: " + token);
    String header = headerOf(token);
    assertEquals("{\"alg\":\"HS256\",\"zip\":\"SLD1\",\"kid\":\"k1\"}", header);
    assertTrue(token.length() < plain.cookies.get("SL").length(),
        "compressed " + token.length() + " characters, plain " + plain.cookies.get("SL").length());
    assertEquals(value + ":String", h.get("/h/read").get("attr.a"));

    // A node that accepts them reads it, and writes its own kind back: the way back from a rollout.
    TestClient a = new TestClient(container);
    a.cookies.put("SLA", token);
    assertEquals(value + ":String", a.get("/a/read").get("attr.a"));
    a.get("/a" + setQuery("again " + value));
    String rewritten = a.cookies.get("SLA");
    assertFalse(headerOf(rewritten).contains("zip"), "an accepting node writes plain tokens");

    // A node that does not: the token is refused as an unsupported header, and the request goes on.
    TestClient s = new TestClient(container);
    s.cookies.put("SL", token);
    TestClient.Reply r = s.get("/s/read");
    assertEquals(200, r.status, r.body);
    assertEquals("UNSUPPORTED_HEADER", r.get("rejection"), r.body);
    assertEquals("none", r.get("session"), r.body);
    assertTrue(r.setCookie("SL").get(0).contains("Max-Age=0"), "the cookie is cleared: " + r.setCookies);
  }

  @Test
  void tokenWrittenWithFullClassNamesStillReadsEveryAttribute() {
    TestClient c = new TestClient(container);
    c.cookies.put("SL", fullClassNameToken());
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status, r.body);
    assertEquals("null", r.get("rejection"), r.body);
    assertEquals("[a, cart, list, map, n, price]", r.get("names"), r.body);
    assertEquals("kept:String", r.get("attr.a"));
    assertEquals("42:Long", r.get("attr.n"));
    assertEquals("9.90:BigDecimal", r.get("attr.price"));
    assertEquals("[x, y]", r.get("attr.list").replaceAll(":.*", ""));
    assertEquals("{k=v}", r.get("attr.map").replaceAll(":.*", ""));
    assertEquals("[mug]:Cart", r.get("attr.cart"));
    assertTrue(r.setCookies.isEmpty(), "a read changes nothing: " + r.setCookies);
  }

  @Test
  void tokenWrittenWithFullClassNamesIsCarriedOnInShortTagsWithNothingLost() {
    TestClient c = new TestClient(container);
    c.cookies.put("SL", fullClassNameToken());
    TestClient.Reply w = c.get("/s/set?name=b&value=new");
    assertEquals(200, w.status, w.body);
    assertEquals(1, w.setCookie("SL").size(), w.setCookies.toString());
    SessionToken next = codec.decode(c.cookies.get("SL"));
    String meta = next.stateJson();
    assertFalse(meta.contains("java.") || meta.contains(Cart.class.getName()),
        "no class name travels on: " + meta);
    TestClient.Reply r = c.get("/s/read");
    assertEquals("[a, b, cart, list, map, n, price]", r.get("names"), r.body);
    assertEquals("kept:String", r.get("attr.a"));
    assertEquals("new:String", r.get("attr.b"));
    assertEquals("42:Long", r.get("attr.n"));
    assertEquals("9.90:BigDecimal", r.get("attr.price"));
    assertEquals("[mug]:Cart", r.get("attr.cart"));
  }

  @Test
  void tokenRecordsShortTypeTagsNotClassNames() {
    TestClient c = new TestClient(container);
    c.get("/s/set?name=a&value=v");
    c.get("/s/setint?name=i&value=7");
    c.get("/s/setcart?value=mug");
    SessionToken t = codec.decode(c.cookies.get("SL"));
    Map<?, ?> meta = t.get("$sessionless", Map.class).orElseThrow();
    assertEquals(Map.of("a", "s", "i", "i", "cart", "Cart"), meta.get("t"), meta.toString());
    TestClient.Reply r = c.get("/s/read");
    assertEquals("v:String", r.get("attr.a"));
    assertEquals("7:Integer", r.get("attr.i"));
    assertEquals("[mug]:Cart", r.get("attr.cart"));
  }

  @Test
  void cartReadUnchangedIsCarriedOnWhenAnotherAttributeIsWritten() {
    TestClient c = new TestClient(container);
    c.get("/s/setcart?value=mug");
    String before = codec.decode(c.cookies.get("SL")).get("cart", Map.class).orElseThrow().toString();
    // Sets "a", then reads every attribute (the cart is handed out, not changed) and writes the body.
    TestClient.Reply set = c.get("/s/set?name=a&value=v");
    assertEquals("[mug]:Cart", set.get("attr.cart"), set.body);
    assertEquals(1, set.setCookie("SL").size(), set.setCookies.toString());
    SessionToken next = codec.decode(c.cookies.get("SL"));
    assertEquals(before, next.get("cart", Map.class).orElseThrow().toString(), "the cart as it was stored");
    TestClient.Reply r = c.get("/s/read");
    assertEquals("[mug]:Cart", r.get("attr.cart"), r.body);
    assertEquals("v:String", r.get("attr.a"), r.body);
  }

  @Test
  void cartChangedInPlaceAfterGetAttributeIsStillWritten() {
    TestClient c = new TestClient(container);
    c.get("/s/setcart?value=mug");
    TestClient.Reply add = c.get("/s/addtocart?value=cup");
    assertEquals(1, add.setCookie("SL").size(), "the change in place is found: " + add.setCookies);
    assertEquals("[mug, cup]:Cart", c.get("/s/read").get("attr.cart"));
  }

  @Test
  void cartChangedInPlaceAfterSetAttributeIsStillWritten() {
    TestClient c = new TestClient(container);
    TestClient.Reply set = c.get("/s/setcartthenadd?value=mug&then=cup");
    assertEquals(200, set.status, set.body);
    assertEquals(1, set.setCookie("SL").size(), set.setCookies.toString());
    assertEquals(List.of("mug", "cup"),
        codec.decode(c.cookies.get("SL")).get("cart", Map.class).orElseThrow().get("items"));
    assertEquals("[mug, cup]:Cart", c.get("/s/read").get("attr.cart"));
  }

  @Test
  void attributeNeverReadIsCarriedByteForByte() {
    // JSON forms a re-serialisation would normalise: escapes, an exponent, spacing, multi-byte UTF-8.
    String odd = "{\"n\":1.50E+3, \"s\":\"caf\\u00e9 \\\"q\\\"\",\"u\":\"é😀\"}";
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("c", clock.millis());
    meta.put("m", 1800);
    meta.put("t", Map.of("odd", "M"));
    TestClient c = new TestClient(container);
    c.cookies.put("SL", codec.encode(Claims.builder()
        .put("odd", new dev.sessionless.core.internal.RawJson(odd)).put("$sessionless", meta).build()));
    TestClient.Reply w = c.get("/s/setquiet?name=a&value=v");
    assertEquals(200, w.status, w.body);
    assertEquals(1, w.setCookie("SL").size(), w.setCookies.toString());
    SessionToken next = codec.decode(c.cookies.get("SL"));
    assertTrue(next.stateJson().startsWith("{\"odd\":" + odd + ",\"a\":\"v\","), next.stateJson());
    assertEquals("é😀", next.get("odd", Map.class).orElseThrow().get("u"));
    TestClient.Reply r = c.get("/s/read");
    assertEquals("[a, odd]", r.get("names"), r.body);
  }

  @Test
  void stringWithALoneSurrogateIsRefusedAtSetAttributeNotLostNextRequest() {
    // Jackson writes it as the escape \uD800 and reads it back equal, but no token reader
    // accepts an unpaired surrogate: stored, the whole session would be lost next request.
    String refused = new TestClient(container).get("/s/refuse?value=lonesurrogate").get("refused");
    assertTrue(refused.contains("'bad'") && refused.contains("cannot carry"), refused);
  }

  @Test
  void deepestListATokenCarriesIsReadBackAndADeeperOneRefused() {
    TestClient c = new TestClient(container);
    TestClient.Reply set = c.get("/s/setdeep?name=deep&value=30");
    assertEquals(200, set.status, set.body);
    TestClient.Reply r = c.get("/s/read");
    assertEquals("null", r.get("rejection"), r.body);
    assertEquals("[deep]", r.get("names"), r.body);
    String refused = new TestClient(container).get("/s/refuse?value=deep31").get("refused");
    assertTrue(refused.contains("'bad'") && refused.contains("cannot carry"), refused);
    // Why: a token carrying it is refused by the next request, and the whole session with it.
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("c", clock.millis());
    meta.put("m", 1800);
    meta.put("t", Map.of("deep", "L", "a", "s"));
    TestClient lost = new TestClient(container);
    lost.cookies.put("SL", codec.encode(Claims.builder().put("a", "kept")
        .put("deep", AppServlet.nested(31)).put("$sessionless", meta).build()));
    TestClient.Reply gone = lost.get("/s/read");
    assertEquals("MALFORMED", gone.get("rejection"), gone.body);
    assertEquals("none", gone.get("session"), gone.body);
  }
}
