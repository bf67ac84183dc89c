package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.TokenException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Holds the state scanner to the Jackson index: whatever {@link StateScanner} accepts, Jackson
 * (refusing duplicates) must accept with the same names and values; whatever it hands over,
 * Jackson decides, so {@link StateIndex#of} answers exactly what the Jackson index answers.
 */
class StateScannerDifferentialTest {
  static final List<String> SEEDS = List.of(
      "{\"locale\":\"en-GB\",\"cart\":[{\"sku\":\"SKU-1001\",\"qty\":1},{\"sku\":\"SKU-1002\",\"qty\":2.5e-3}],"
          + "\"flags\":{\"beta\":true,\"old\":false,\"none\":null},\"note\":\"caf\u00e9 \\u00e9\\n\\\"q\\\"\",\"n\":-0.0}",
      "{\"a\":[[[[[[1]]]]]],\"b\":{\"c\":{\"d\":\"\\ud83d\\ude00\"}},\"e\":[],\"f\":\"\",\"\u00e9t\u00e9\":{}}",
      "{ \"a\" : 1 ,\n\t\"b\" : [ true , false , null ] , \"c\" : { \"x\" : \"y\" , \"y\" : \"x\" } }",
      "{\"k\":{\"a\":1,\"b\":{\"a\":2,\"b\":3}},\"l\":[{\"a\":1},{\"a\":1}],\"big\":123456789012345678901234567890}",
      "{}");

  /** The Jackson index's reading (name -> trimmed value text), or null when it refuses. */
  static Map<String, String> jackson(byte[] b) {
    try {
      return reading(b, StateIndex.byJackson(b));
    } catch (TokenException e) {
      assertEquals(TokenException.Reason.MALFORMED, e.reason());
      return null;
    }
  }

  static Map<String, String> reading(byte[] b, StateIndex index) {
    Map<String, String> out = new LinkedHashMap<>();
    index.spans().forEach((name, span) -> out.put(name, new String(b, span[0], span[1] - span[0], StandardCharsets.UTF_8).strip()));
    return out;
  }

  /** Fails unless the scanner, when it accepts, agrees with Jackson; answers whether it accepted. */
  static boolean agree(byte[] b) {
    int[] layout = StateScanner.scan(b);
    if (layout == null) {
      return false; // handed over: StateIndex.of is then the Jackson index itself
    }
    Map<String, String> j = jackson(b);
    if (j == null) {
      fail("the scanner accepted what Jackson refuses: " + new String(b, StandardCharsets.UTF_8));
    }
    StateIndex fast = StateIndex.of(b);
    assertEquals(j, reading(b, fast), () -> "readings differ for " + new String(b, StandardCharsets.UTF_8));
    for (Map.Entry<String, String> e : j.entrySet()) {
      long span = fast.find(e.getKey());
      assertTrue(span >= 0, e.getKey());
      assertEquals(e.getValue(), new String(b, (int) (span >>> 32), (int) span - (int) (span >>> 32), StandardCharsets.UTF_8));
    }
    return true;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void typicalStatesTakeTheScannerAndIndexAsJacksonDoes() {
    for (String seed : SEEDS) {
      assertTrue(agree(utf8(seed)), seed);
    }
  }

  @Test
  void findLooksUpNamesByTheirCharactersWhateverTheirEncoding() {
    StateIndex index = StateIndex.of(utf8("{\"\u00e9t\u00e9\":1,\"\ud83d\ude00\":2,\"et\":3}"));
    assertEquals(3, index.spans().size());
    assertTrue(index.find("\u00e9t\u00e9") >= 0);
    assertTrue(index.find("\ud83d\ude00") >= 0);
    assertTrue(index.find("et") >= 0);
    assertEquals(-1, index.find("\ud83d"), "a lone surrogate names nothing");
    assertEquals(-1, index.find("?"), "not even what a lone surrogate would be encoded as");
    assertEquals(-1, index.find("e"));
    assertEquals(-1, index.find(null));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"a\":1,\"a\":2}", "{\"x\":{\"k\":1,\"k\":2}}", "{\"x\":[{\"k\":1,\"\\u006b\":2}]}", "{\"\\u0061\":1,\"a\":2}",
      "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\\ud800\"}", "{\"\\udfff\":1}", "{\"\":1}", "{\"a\":\"\\ud800x\"}",
      "[1]", "\"s\"", "{\"a\":1} x", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":\"\t\"}"})
  void statesJacksonRefusesAreNeverAcceptedByTheScanner(String json) {
    byte[] b = utf8(json);
    assertNull(StateScanner.scan(b), json);
    assertNull(jackson(b), "Jackson should refuse " + json);
    TokenException e = assertThrows(TokenException.class, () -> StateIndex.of(b));
    assertEquals(TokenException.Reason.MALFORMED, e.reason());
  }

  @Test
  void oddButValidStatesAreHandedToJackson() {
    String wide = "{" + String.join(",", java.util.stream.IntStream.range(0, StateScanner.MAX_MEMBERS + 1)
        .mapToObj(i -> "\"m" + i + "\":" + i).toArray(String[]::new)) + "}";
    String deep = "{\"d\":" + "[".repeat(StateScanner.MAX_DEPTH) + "]".repeat(StateScanner.MAX_DEPTH) + "}";
    for (String json : new String[] {wide, deep, "{\"\\u0061\":1}"}) {
      byte[] b = utf8(json);
      assertNull(StateScanner.scan(b), json);
      assertNotNull(jackson(b), json);
      assertEquals(jackson(b), reading(b, StateIndex.of(b)));
    }
    assertTrue(agree(utf8("{\"" + "\u00e9".repeat(StateIndex.MAX_NAME) + "\":1}")), "256 chars in 512 bytes is a name");
    byte[] tooLong = utf8("{\"" + "\u00e9".repeat(StateIndex.MAX_NAME + 1) + "\":1}");
    assertNull(StateScanner.scan(tooLong));
    assertThrows(TokenException.class, () -> StateIndex.of(tooLong));
  }

  @Test
  void mutatedStatesAreNeverAcceptedByTheScannerAloneNorIndexedDifferently() {
    long seed = Long.getLong("sessionless.fuzz.seed", 20261123L);
    Random random = new Random(seed);
    byte[] alphabet = "{}[]\",:\\/-+.0123456789eEtrufalsnk u\u00e9\tx".getBytes(StandardCharsets.UTF_8);
    int accepted = 0;
    int runs = 40_000;
    for (int r = 0; r < runs; r++) {
      byte[] b = utf8(SEEDS.get(random.nextInt(SEEDS.size())));
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && b.length > 0; e++) {
        int at = random.nextInt(b.length);
        switch (random.nextInt(4)) {
          case 0:
            b[at] = alphabet[random.nextInt(alphabet.length)];
            break;
          case 1: {
            int n = Math.min(b.length - at, 1 + random.nextInt(4));
            byte[] c = new byte[b.length - n];
            System.arraycopy(b, 0, c, 0, at);
            System.arraycopy(b, at + n, c, at, b.length - at - n);
            b = c;
            break;
          }
          case 2: {
            byte[] c = new byte[b.length + 1];
            System.arraycopy(b, 0, c, 0, at);
            c[at] = alphabet[random.nextInt(alphabet.length)];
            System.arraycopy(b, at, c, at + 1, b.length - at);
            b = c;
            break;
          }
          default: { // duplicate a span in place: makes repeated members
            int n = Math.min(b.length - at, 1 + random.nextInt(16));
            byte[] c = Arrays.copyOf(b, b.length + n);
            System.arraycopy(b, at, c, at + n, b.length - at);
            b = c;
          }
        }
      }
      if (b.length == 0 || !Utf8.isValid(b, 0, b.length)) {
        continue; // the codec refuses these before the state is ever indexed
      }
      if (agree(b)) {
        accepted++;
      }
    }
    assertTrue(accepted > runs / 20, "only " + accepted + " mutants took the scanner (seed " + seed + ")");
  }
}
