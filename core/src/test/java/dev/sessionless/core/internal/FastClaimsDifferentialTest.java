package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.TokenException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Holds the hot-path payload scanner to the Jackson reader: whatever {@link FastClaims} accepts,
 * the Jackson path must accept too and read the same way; whatever it hands over, Jackson decides.
 */
class FastClaimsDifferentialTest {
  static final char[] ISS = "https://issuer.example".toCharArray();
  static final char[] AUD = "app".toCharArray();
  static final ExpectedClaims EXPECTED = ExpectedClaims.of("https://issuer.example", "app");

  static final String TYPICAL = "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",\"sub\":\"user-42\","
      + "\"iat\":1790000000,\"exp\":1790001800,\"jti\":\"AAECAwQFBgcICQoLDA0ODw\","
      + "\"st\":{\"locale\":\"en-GB\",\"cart\":[{\"sku\":\"SKU-1001\",\"qty\":1},{\"sku\":\"SKU-1002\",\"qty\":2.5e-3}],"
      + "\"flags\":{\"beta\":true,\"old\":false,\"none\":null},\"note\":\"caf\u00e9 \\u00e9\\n\\\"q\\\"\",\"n\":-0.0}}";

  static final List<String> SEEDS = List.of(
      TYPICAL,
      "{\"iss\":\"https://issuer.example\",\"aud\":[\"other\",\"app\"],\"iat\":1,\"exp\":2,\"nbf\":0,\"jti\":\"x\"}",
      "{\"aud\":[],\"iss\":\"nope\",\"exp\":253402300799,\"jti\":\"x\",\"st\":{}}",
      "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",\"iat\":1790000000,\"exp\":1790001800,\"jti\":\"j\","
          + "\"st\":{\"a\":[[[[[[1]]]]]],\"b\":{\"c\":{\"d\":\"\\ud83d\\ude00\"}},\"e\":[],\"f\":\"\"}}",
      "{}");

  static ParsedClaims fast(String json) {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    ParsedClaims out = new ParsedClaims();
    return FastClaims.tryRead(b, b.length, EXPECTED, out) ? out : null;
  }

  /** The Jackson path's reading, or null when it rejects. */
  static ParsedClaims jackson(byte[] b) {
    ParsedClaims out = new ParsedClaims();
    try {
      ClaimsReader.readWithJackson(b, b.length, ISS, AUD, out);
      return out;
    } catch (TokenException e) {
      return null;
    }
  }

  static String describe(ParsedClaims c) {
    return c.subject + "|" + c.id + "|" + c.issuedAt + "|" + c.expiresAt + "|" + c.notBefore + "|"
        + c.issuerPresent + c.issuerMatched + "|" + c.audiencePresent + c.audienceMatched + "|"
        + c.stateStart + "-" + c.stateEnd;
  }

  /** Fails unless the fast path, when it accepts, agrees with Jackson; answers whether it accepted. */
  static boolean agree(byte[] b) {
    ParsedClaims f = new ParsedClaims();
    if (!FastClaims.tryRead(b, b.length, EXPECTED, f)) {
      return false;
    }
    ParsedClaims j = jackson(b);
    if (j == null) {
      fail("the fast path accepted what Jackson rejects: " + new String(b, StandardCharsets.UTF_8));
    }
    assertEquals(describe(j), describe(f), () -> "readings differ for " + new String(b, StandardCharsets.UTF_8));
    if (f.stateLayout != null) {
      // The index found in the same pass must be the one the state's own scan finds.
      byte[] state = Arrays.copyOfRange(b, f.stateStart, f.stateEnd);
      assertEquals(Arrays.toString(StateScanner.scan(state)), Arrays.toString(f.stateLayout),
          () -> "the state's index differs for " + new String(b, StandardCharsets.UTF_8));
    }
    return true;
  }

  /** Where the byte-a-step loop would stop in {@code x}'s eight bytes (little-endian), or 8. */
  private static int firstNotPlain(long x) {
    for (int k = 0; k < 8; k++) {
      int c = (int) (x >>> (8 * k)) & 0xff;
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return k;
      }
    }
    return 8;
  }

  @Test
  void theWordAtATimeStringCheckStopsWhereTheByteAtATimeOneDoes() {
    long plain = 0x6161616161616161L; // "aaaaaaaa"
    for (int at = 0; at < 8; at++) {
      for (int v = 0; v < 256; v++) {
        long x = plain & ~(0xffL << (8 * at)) | (long) v << (8 * at);
        int want = firstNotPlain(x);
        long stops = Words.notPlain(x);
        assertEquals(want, stops == 0 ? 8 : Long.numberOfTrailingZeros(stops) >>> 3, "byte " + v + " at " + at);
      }
    }
    Random random = new Random(20261126L);
    byte[] interesting = {0, 0x1f, 0x20, 0x21, 0x22, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, (byte) 0x80, (byte) 0xff, 'a'};
    for (int r = 0; r < 1_000_000; r++) {
      long x = 0;
      for (int k = 0; k < 8; k++) {
        int b = random.nextBoolean() ? interesting[random.nextInt(interesting.length)] : random.nextInt(256);
        x |= (long) (b & 0xff) << (8 * k);
      }
      long stops = Words.notPlain(x);
      assertEquals(firstNotPlain(x), stops == 0 ? 8 : Long.numberOfTrailingZeros(stops) >>> 3, Long.toHexString(x));
    }
  }

  @Test
  void theExpectedIssuerAndAudienceAreFoundInOneStepAndAnythingElseIsAnother() {
    String head = "{\"iss\":\"https://issuer.example\",\"aud\":";
    assertTrue(fast(head + "\"app\"}").audienceMatched);
    assertTrue(fast(head + "[\"x\",\"app\"]}").audienceMatched);
    assertFalse(fast(head + "\"appx\"}").audienceMatched);
    assertFalse(fast(head + "\"ap\"}").audienceMatched);
    assertFalse(fast(head + "[\"APP\"]}").audienceMatched);
    assertTrue(fast(head + "\"app\"}").issuerMatched);
    assertFalse(fast("{\"iss\":\"https://issuer.exampl\"}").issuerMatched);
    assertFalse(fast("{\"iss\":\"https://issuer.example/\"}").issuerMatched);
    assertEquals(null, fast("{\"iss\":\"https://issuer.example"), "an unclosed string is handed over");
    // A required value that is not plain is never matched here: such tokens go to Jackson.
    ExpectedClaims odd = ExpectedClaims.of("caf\u00e9", "a\"b");
    byte[] b = "{\"iss\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);
    assertFalse(FastClaims.tryRead(b, b.length, odd, new ParsedClaims()));
    b = "{\"aud\":\"a\\\"b\"}".getBytes(StandardCharsets.UTF_8);
    assertFalse(FastClaims.tryRead(b, b.length, odd, new ParsedClaims()));
  }

  @Test
  void aCommonStateIsIndexedInTheSamePassAndOneTheScannerHandsOverIsNot() {
    ParsedClaims c = fast(TYPICAL);
    assertEquals(4 * 5, c.stateLayout.length, "five members, four offsets each");
    String state = TYPICAL.substring(c.stateStart);
    assertEquals("locale", state.substring(c.stateLayout[0], c.stateLayout[1]));
    assertEquals("\"en-GB\"", state.substring(c.stateLayout[2], c.stateLayout[3]));

    // Whitespace between a state's tokens: JSON, which the Jackson path takes too.
    ParsedClaims spaced = fast("{\"st\":{ \"a\" : [ 1 , 2 ] }}");
    assertEquals(6, spaced.stateStart);
    assertEquals("[3, 4, 8, 17]", Arrays.toString(spaced.stateLayout));

    // A duplicated name is valid grammar (the token decodes) but no index: the state read decides.
    for (String dup : List.of("{\"st\":{\"a\":1,\"a\":2}}", "{\"st\":{\"a\":{\"b\":1,\"b\":1}}}",
        "{\"st\":{\"\\u0061\":1}}")) {
      ParsedClaims d = fast(dup);
      assertTrue(d != null && d.stateStart == 6, dup);
      assertEquals(null, d.stateLayout, dup);
    }
  }

  @Test
  void typicalPayloadsTakeTheFastPathAndReadAsJacksonReadsThem() {
    for (String seed : SEEDS) {
      assertTrue(agree(seed.getBytes(StandardCharsets.UTF_8)), seed);
    }
    ParsedClaims c = fast(TYPICAL);
    assertEquals("user-42", c.subject);
    assertEquals(1790001800L, c.expiresAt);
    assertTrue(c.issuerMatched && c.audienceMatched);
    assertEquals('{', TYPICAL.charAt(c.stateStart));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      " {}", "{} ", "{\"exp\":01}", "{\"exp\":-1}", "{\"exp\":1.0}", "{\"exp\":1e3}", "{\"exp\":\"1\"}",
      "{\"exp\":null}", "{\"exp\":9999999999999999}", "{\"exp\":1,\"exp\":1}", "{\"\\u0065xp\":1}",
      "{\"iss\":\"a\\u0062\"}", "{\"iss\":\"caf\u00e9\"}", "{\"jti\":\"\"}", "{\"other\":1}",
      "{\"st\":[]}", "{\"st\":{\"a\":1.}}", "{\"st\":{\"a\":.5}}", "{\"st\":{\"a\":01}}", "{\"st\":{\"a\":+1}}",
      "{\"st\":{\"a\":\"\\x\"}}", "{\"st\":{\"a\":\"\\u12G4\"}}", "{\"st\":{\"a\":tru}}", "{\"st\":{\"a\":nul}}",
      "{\"st\":{\"a\":1,}}", "{\"st\":{\"a\":[1,]}}", "{\"st\":{,}}", "{\"st\":{\"a\"}}",
      "{\"st\":{\"a\":\"\t\"}}", "{\"st\":{\"a\":NaN}}", "{\"st\":{\"a\":1}}x", "{\"st\":{\"a\":1}",
      "{\"aud\":[\"app\",]}", "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",\"iss\":\"x\"}",
      "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",\"aud\":\"app\"}",
      "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",}", "{\"iss\":\"https://issuer.example\",\"aud\":\"app\",x}", "{\"aud\":[1]}", "{\"aud\":{}}", "{\"st\":{\"a\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}}"})
  void oddPayloadsAreHandedToJackson(String json) {
    assertFalse(agree(json.getBytes(StandardCharsets.UTF_8)), "the fast path should hand over " + json);
  }

  /**
   * Jackson refuses a member name holding an escaped high surrogate without its low half (found
   * by the claims reader's fuzz campaign: docs/FUZZING.md); the fast path hands such a state over
   * rather than accept it. A lone surrogate in a string value is a value Jackson keeps: still read.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "{\"st\":{\"\\ud800\":1}}", "{\"st\":{\"d0\\ud83d\":[{}]}}", "{\"st\":{\"a\":{\"\\ud83dx\":1}}}",
      "{\"st\":{\"a\":[{\"\\ud83d\\u0041\":1}]}}", "{\"st\":{\"\\udc00\":1}}"})
  void aStateMemberNameWithAnUnpairedSurrogateEscapeIsHandedToJackson(String json) {
    assertFalse(agree(json.getBytes(StandardCharsets.UTF_8)), "the fast path should hand over " + json);
  }

  @Test
  void mutatedPayloadsAreNeverAcceptedByTheFastPathAloneNorReadDifferently() {
    long seed = Long.getLong("sessionless.fuzz.seed", 20261123L);
    Random random = new Random(seed);
    byte[] alphabet = "{}[]\",:\\/-+.0123456789eEtrufalsn u\u00e9\tx".getBytes(StandardCharsets.UTF_8);
    int accepted = 0;
    int runs = 200_000;
    for (int r = 0; r < runs; r++) {
      byte[] b = SEEDS.get(random.nextInt(SEEDS.size())).getBytes(StandardCharsets.UTF_8);
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && b.length > 0; e++) {
        int at = random.nextInt(b.length);
        switch (random.nextInt(4)) {
          case 0: // replace a byte
            b[at] = alphabet[random.nextInt(alphabet.length)];
            break;
          case 1: { // delete a span
            int n = Math.min(b.length - at, 1 + random.nextInt(4));
            byte[] c = new byte[b.length - n];
            System.arraycopy(b, 0, c, 0, at);
            System.arraycopy(b, at + n, c, at, b.length - at - n);
            b = c;
            break;
          }
          case 2: { // insert a byte
            byte[] c = new byte[b.length + 1];
            System.arraycopy(b, 0, c, 0, at);
            c[at] = alphabet[random.nextInt(alphabet.length)];
            System.arraycopy(b, at, c, at + 1, b.length - at);
            b = c;
            break;
          }
          default: { // duplicate a span in place
            int n = Math.min(b.length - at, 1 + random.nextInt(12));
            byte[] c = Arrays.copyOf(b, b.length + n);
            System.arraycopy(b, at, c, at + n, b.length - at);
            b = c;
          }
        }
      }
      if (!Utf8.isValid(b, 0, b.length)) {
        continue; // the codec refuses these before either reader runs
      }
      if (agree(b)) {
        accepted++;
      }
    }
    // The mutants the fast path accepts are what gives this test teeth; make sure there are many.
    assertTrue(accepted > runs / 20, "only " + accepted + " mutants took the fast path (seed " + seed + ")");
  }
}
