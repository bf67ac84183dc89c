package dev.sessionless.core.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What both peers' tests share: the issuer and audience, the session content (a subject and
 * state values chosen to stress JSON interop), what a peer should read out of our tokens, and
 * what we should read out of theirs.
 */
final class InteropFixtures {
  /** Slashes on purpose: jose4j writes them escaped ({@code \/}). */
  static final String ISSUER = "https://issuer.example/sessions";
  static final String AUDIENCE = "interop";
  /** Non-ASCII, and a character outside the BMP (a surrogate pair in Java and in JSON escapes). */
  static final String SUBJECT = "ålice ☕ 😀";
  static final String PEER_SUBJECT = "bøb 🚲";

  /** A state record with a nested list of records. */
  record Item(String sku, int qty) {}

  record Cart(List<Item> items, String currency, long totalCents) {}

  static final Cart CART = new Cart(List.of(new Item("MUG-1", 2), new Item("BEANS-250", 1)), "EUR", 1850);
  /** Characters JSON writers escape differently: quote, slash, backslash, tab, U+2028, a control character. */
  static final String NOTE = "Grüße aus Köln ☕ 😀 \"quoted\" / slash \\ back\ttab \u2028 bell\u0007";
  /** 2^53 + 1: loses precision in any peer that reads numbers as doubles. */
  static final long BIG = 9_007_199_254_740_993L;
  static final double RATING = 4.5;
  static final Set<String> STATE_NAMES = Set.of("cart", "note", "visits", "premium", "big", "rating");

  /** The registered claims and the state claim, and nothing else, in every token we make. */
  static final Set<String> OUR_CLAIM_NAMES = Set.of("iss", "aud", "sub", "iat", "nbf", "exp", "jti", "st");

  /** Peer-made tokens: issued this long before the test's "now", with nbf the same, valid this long after it. */
  static final long PEER_AGE_SECONDS = 5;
  static final long PEER_REMAINING_SECONDS = 300;

  private static final ObjectMapper JSON = new ObjectMapper();

  private InteropFixtures() {}

  /** Our content: session id, subject, nbf and the state values. */
  static Claims.Builder ourClaims(String sessionId, Instant notBefore) {
    return Claims.builder()
        .sessionId(sessionId)
        .subject(SUBJECT)
        .notBefore(notBefore)
        .put("cart", CART)
        .put("note", NOTE)
        .put("visits", 42)
        .put("premium", true)
        .put("big", BIG)
        .put("rating", RATING);
  }

  /**
   * Our token under {@code key}, compressed with Sessionless's own {@code zip: SLD1} (an
   * encrypted one, or for a signing key a compressed JWS), with {@link #ourClaims} under the
   * key's kid as session id; checks the header says {@code SLD1}.
   */
  static String sld1Token(TokenKey key, java.time.Clock clock, Instant notBefore) {
    String token = dev.sessionless.core.TokenCodec.builder().keys(dev.sessionless.core.KeySet.of(key))
        .algorithm(key.algorithm()).issuer(ISSUER).audience(AUDIENCE).timeToLive(InteropCase.TTL)
        .clock(clock).compression(dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY).build()
        .encode(ourClaims(key.kid(), notBefore).build());
    assertEquals("SLD1", header(token).get("zip"));
    return token;
  }

  /**
   * The state as plain JSON values, written by hand (not by Jackson): what a peer must read out
   * of our {@code st} claim, and what peers write into theirs.
   */
  static Map<String, Object> stateAsJson() {
    Map<String, Object> mug = new LinkedHashMap<>();
    mug.put("sku", "MUG-1");
    mug.put("qty", 2L);
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put("sku", "BEANS-250");
    beans.put("qty", 1L);
    Map<String, Object> cart = new LinkedHashMap<>();
    cart.put("items", List.of(mug, beans));
    cart.put("currency", "EUR");
    cart.put("totalCents", 1850L);
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("cart", cart);
    st.put("note", NOTE);
    st.put("visits", 42L);
    st.put("premium", true);
    st.put("big", BIG);
    st.put("rating", RATING);
    return st;
  }

  /** A peer's JSON value with every integral number as a Long, so peers' number types compare. */
  static Object normalize(Object v) {
    if (v instanceof Map) {
      Map<String, Object> out = new LinkedHashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> out.put((String) k, normalize(x)));
      return out;
    }
    if (v instanceof List) {
      List<Object> out = new ArrayList<>();
      ((List<?>) v).forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger) {
      return ((BigInteger) v).longValueExact();
    }
    if (v instanceof Float) {
      return ((Float) v).doubleValue();
    }
    return v;
  }

  /** Asserts a peer read exactly our state out of the {@code st} claim. */
  static void assertPeerReadOurState(Object st) {
    assertTrue(st instanceof Map, "the peer reads st as a JSON object, got " + st);
    // The values most likely to go wrong first, so a failure names them; then everything.
    Map<?, ?> m = (Map<?, ?>) st;
    assertEquals(NOTE, m.get("note"), "escapes and characters outside the BMP");
    assertEquals(BIG, ((Number) m.get("big")).longValue(), "an integer above 2^53");
    assertEquals(stateAsJson(), normalize(st));
  }

  /** Asserts we read, typed, exactly the state a peer wrote from {@link #stateAsJson()}. */
  static void assertWeReadPeerState(SessionToken t) {
    assertEquals(STATE_NAMES, t.stateNames());
    assertEquals(CART, t.get("cart", Cart.class).orElseThrow());
    assertEquals(NOTE, t.get("note", String.class).orElseThrow());
    assertEquals(42, t.get("visits", Integer.class).orElseThrow());
    assertEquals(true, t.get("premium", Boolean.class).orElseThrow());
    assertEquals(BIG, t.get("big", Long.class).orElseThrow());
    assertEquals(RATING, t.get("rating", Double.class).orElseThrow());
    assertFalse(t.get("absent", String.class).isPresent());
  }

  /**
   * Asserts a peer token decoded here carries what the peer wrote: subject, session id, the
   * times relative to {@code now}, the key and algorithm, and the state.
   */
  static void assertPeerToken(SessionToken t, InteropCase c, String kid, String sessionId, Instant now) {
    assertEquals(PEER_SUBJECT, t.subject().orElseThrow());
    assertEquals(sessionId, t.id());
    assertEquals(kid, t.keyId());
    assertEquals(c.algorithm, t.algorithm());
    assertEquals(now.minusSeconds(PEER_AGE_SECONDS), t.issuedAt());
    assertEquals(now.minusSeconds(PEER_AGE_SECONDS), t.notBefore().orElseThrow());
    assertEquals(now.plusSeconds(PEER_REMAINING_SECONDS), t.expiresAt());
    assertWeReadPeerState(t);
  }

  /**
   * Asserts a header (as the peer parsed it) is exactly ours: {@code alg} and {@code kid} for a
   * JWS; {@code alg}, {@code enc}, {@code kid} and, compressed, {@code zip} for a JWE.
   */
  static void assertOurHeader(Map<String, Object> header, InteropCase c, String kid) {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("alg", c.alg());
    c.algorithm.encryption().ifPresent(enc -> expected.put("enc", enc));
    if (c.zip) {
      expected.put("zip", "DEF");
    }
    expected.put("kid", kid);
    assertEquals(expected, header);
  }

  /** The protected header of a compact token, read with Jackson. */
  static Map<String, Object> header(String token) {
    return json(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))));
  }

  /** A JSON object text (a JWK, a JWKS) as a map; for checking members, never for printing. */
  static Map<String, Object> json(String text) {
    try {
      return JSON.readValue(text, new TypeReference<Map<String, Object>>() {});
    } catch (tools.jackson.core.JacksonException e) {
      // Not the cause: Jackson's message may quote the document, which may hold secrets.
      throw new IllegalArgumentException("not a JSON object");
    }
  }

  private static Map<String, Object> json(byte[] bytes) {
    try {
      return JSON.readValue(bytes, new TypeReference<Map<String, Object>>() {});
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The decoded last segment: a JWS signature (or a JWE tag). */
  static byte[] lastSegment(String token) {
    return Base64.getUrlDecoder().decode(token.substring(token.lastIndexOf('.') + 1));
  }

  /** What a verifier needs of our key as JWK: the secret for symmetric keys, the public key otherwise. */
  static String verifierJwk(TokenKey key) {
    return key.algorithm().isSymmetric() ? key.toJwkWithSecrets() : key.toPublicJwk();
  }

  /**
   * Asserts a JWK document holds no private or secret member ({@code d}, {@code k}, or the RSA
   * ones); never prints the document.
   */
  static void assertNoSecretMembers(Map<String, Object> jwk) {
    for (String m : List.of("d", "k", "p", "q", "dp", "dq", "qi")) {
      assertFalse(jwk.containsKey(m), "a public JWK must not carry \"" + m + "\" (kid " + jwk.get("kid") + ")");
    }
  }

  /** Coverage of ES256 signature shapes a loop has seen: r or s with a leading zero byte, and high s. */
  static final class EcSignatureShapes {
    private static final BigInteger HALF_N = new BigInteger(
        "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16).shiftRight(1);
    boolean rLeadingZero;
    boolean sLeadingZero;
    boolean highS;
    boolean lowS;
    int seen;

    void add(byte[] sig) {
      assertEquals(64, sig.length, "an ES256 JWS signature is r || s, 64 bytes");
      seen++;
      rLeadingZero |= sig[0] == 0;
      sLeadingZero |= sig[32] == 0;
      boolean high = new BigInteger(1, java.util.Arrays.copyOfRange(sig, 32, 64)).compareTo(HALF_N) > 0;
      highS |= high;
      lowS |= !high;
    }

    boolean complete() {
      return rLeadingZero && sLeadingZero && highS && lowS;
    }

    /** Fails unless every shape was seen (with 20,000 tries, missing one by chance is below 1e-30). */
    void assertComplete() {
      assertTrue(complete(), "after " + seen + " signatures: r with leading zero " + rLeadingZero
          + ", s with leading zero " + sLeadingZero + ", high s " + highS + ", low s " + lowS);
    }
  }

  /** The cap on the ES256 loops; the expected number of rounds is about 400. */
  static final int EC_ROUNDS = 20_000;
}
