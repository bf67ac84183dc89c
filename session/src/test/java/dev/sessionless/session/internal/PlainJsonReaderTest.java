package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.StateMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The parser-free reader of list and map attributes, held to the default mapper's results:
 * whatever it accepts, the mapper reads to an equal value of the same classes throughout, and
 * everything outside its narrow shape is handed to the mapper.
 */
@ExtendWith(RecordsFastPathOn.class)
class PlainJsonReaderTest {
  private static final StateMapper MAPPER = StateMapper.defaults();

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** The mapper's reading of {@code json} as {@code type}, or the string "refused". */
  private static Object mapperRead(byte[] json, Class<?> type) {
    try {
      return MAPPER.read(json, 0, json.length, type);
    } catch (RuntimeException e) {
      return "refused";
    }
  }

  /** Fails unless {@code a} and {@code b} are equal with the same class at every level. */
  private static void assertSameShape(Object a, Object b, String where) {
    if (a == null || b == null) {
      assertSame(a, b, where);
      return;
    }
    assertEquals(a.getClass(), b.getClass(), where);
    if (a instanceof List<?> la) {
      List<?> lb = (List<?>) b;
      assertEquals(la.size(), lb.size(), where);
      for (int k = 0; k < la.size(); k++) {
        assertSameShape(la.get(k), lb.get(k), where + "[" + k + "]");
      }
    } else if (a instanceof Map<?, ?> ma) {
      Map<?, ?> mb = (Map<?, ?>) b;
      assertEquals(new ArrayList<>(ma.keySet()), new ArrayList<>(mb.keySet()), where + " (member order)");
      for (Object k : ma.keySet()) {
        assertSameShape(ma.get(k), mb.get(k), where + "." + k);
      }
    } else {
      assertEquals(a, b, where);
    }
  }

  /** The reader's verdict on {@code json}, checked against the mapper's; true if it took it. */
  private static boolean check(byte[] json, Class<?> type) {
    Object fast = PlainJsonReader.read(json, 0, json.length, type);
    if (fast == PlainJsonReader.NOT_PLAIN) {
      return false;
    }
    Object full = mapperRead(json, type);
    if ("refused".equals(full)) {
      fail("the plain reader took what the mapper refuses: " + new String(json, StandardCharsets.UTF_8));
    }
    assertSameShape(full, fast, new String(json, StandardCharsets.UTF_8));
    return true;
  }

  private static Object randomValue(Random r, int depth) {
    int k = r.nextInt(depth > 4 ? 5 : 8);
    switch (k) {
      case 0:
        return "s" + Long.toString(r.nextLong() & 0xffffff, 36) + (r.nextBoolean() ? " -_.:/@" : "");
      case 1:
        return r.nextInt(2000) - 1000;
      case 2:
        return r.nextBoolean() ? r.nextInt() : r.nextInt(10);
      case 3:
        return r.nextBoolean();
      case 4:
        return null;
      case 5: {
        List<Object> l = new ArrayList<>();
        for (int n = r.nextInt(4); n > 0; n--) {
          l.add(randomValue(r, depth + 1));
        }
        return l;
      }
      default: {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int n = r.nextInt(4); n > 0; n--) {
          m.put("k" + r.nextInt(100), randomValue(r, depth + 1));
        }
        return m;
      }
    }
  }

  @Test
  void generatedListsAndMapsReadAsTheMapperReadsThemAndMostTakeThePlainPath() throws Exception {
    Random r = new Random(20261126);
    int taken = 0;
    int total = 0;
    for (int n = 0; n < 3000; n++) {
      Object v = randomValue(r, 0);
      if (!(v instanceof List || v instanceof Map)) {
        continue;
      }
      Class<?> type = v instanceof List ? List.class : Map.class;
      byte[] json = MAPPER.write(v);
      total++;
      if (check(json, type)) {
        taken++;
        assertSameShape(v, PlainJsonReader.read(json, 0, json.length, type), "the value written");
      }
    }
    // Only Integers of ten digits (about half of the nextInt() draws) send a value to the mapper.
    assertTrue(taken > total / 2, taken + " of " + total + " took the plain path");
  }

  @Test
  void mutatedJsonIsNeverTakenUnlessTheMapperReadsItTheSame() throws Exception {
    Random r = new Random(7);
    byte[] alphabet = bytes("[]{}\",:-0123456789.eEtrufalsn \\\u00e9x");
    int taken = 0;
    for (int n = 0; n < 20000; n++) {
      Object v = randomValue(r, 3);
      if (!(v instanceof List || v instanceof Map)) {
        v = List.of(String.valueOf(v));
      }
      byte[] json = MAPPER.write(v);
      byte[] m;
      int at = r.nextInt(json.length);
      byte c = alphabet[r.nextInt(alphabet.length)];
      switch (r.nextInt(3)) {
        case 0 -> {
          m = json.clone();
          m[at] = c;
        }
        case 1 -> {
          m = new byte[json.length + 1];
          System.arraycopy(json, 0, m, 0, at);
          m[at] = c;
          System.arraycopy(json, at, m, at + 1, json.length - at);
        }
        default -> {
          m = new byte[json.length - 1];
          System.arraycopy(json, 0, m, 0, at);
          System.arraycopy(json, at + 1, m, at, json.length - at - 1);
        }
      }
      if (check(m, List.class) | check(m, Map.class)) {
        taken++;
      }
    }
    assertTrue(taken > 1000, "only " + taken + " mutations were plain: the test would prove little");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "[-0]", "[01]", "[1.0]", "[1e3]", "[1E3]", "[1234567890]", "[-1234567890]", "[2147483648]",
      "[1,]", "[,1]", "[ 1]", "[1 ]", "[\"a\\\"b\"]", "[\"\u00e9\"]", "[\"a\tb\"]", "[tru]",
      "[nul]", "[1]x", "[1][2]", "{\"a\":1,\"a\":2}", "{\"a\" :1}", "{a:1}", "{\"a\":1,}", "[\"a]",
      "[-]", "[--1]", "[+1]", "[NaN]", "[\"a\"", "{\"a\":}"})
  void anythingOutsideTheShapeGoesToTheMapper(String json) {
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.read(bytes(json), 0, bytes(json).length, List.class));
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.read(bytes(json), 0, bytes(json).length, Map.class));
  }

  @Test
  void theEdgesOfTheShapeReadAsTheMapperReadsThem() {
    for (String json : new String[] {"[]", "{}", "[0]", "[-1]", "[999999999]", "[-999999999]",
        "[true,false,null]", "[\"\",\" ~\"]", "[[],{}]", "{\"\":0}", "{\"b\":1,\"a\":[{\"c\":null}]}"}) {
      Class<?> type = json.startsWith("[") ? List.class : Map.class;
      assertTrue(check(bytes(json), type), json + " should take the plain path");
    }
  }

  @Test
  void aTypeOtherThanTheJsonsOwnIsLeftToTheMapper() {
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.read(bytes("[1]"), 0, 3, Map.class));
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.read(bytes("{}"), 0, 2, List.class));
  }

  @Test
  void nestingDeeperThanTheLimitIsLeftToTheMapper() {
    String ok = "[".repeat(PlainJsonReader.MAX_DEPTH) + "]".repeat(PlainJsonReader.MAX_DEPTH);
    String deep = "[".repeat(PlainJsonReader.MAX_DEPTH + 1) + "]".repeat(PlainJsonReader.MAX_DEPTH + 1);
    assertTrue(check(bytes(ok), List.class));
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.read(bytes(deep), 0, deep.length(), List.class));
  }

  @Test
  void aRegionInsideALargerBufferIsReadAlone() {
    byte[] b = bytes("xx[\"a\",1]yy");
    assertEquals(List.of("a", 1), PlainJsonReader.read(b, 2, 7, List.class));
  }

  @Test
  void theCodecHandsEachReadANewMutableValue() {
    AttributeCodec codec = new AttributeCodec(MAPPER, Set.of());
    byte[] json = bytes("[\"a\",{\"k\":[1]}]");
    @SuppressWarnings("unchecked")
    List<Object> one = (List<Object>) codec.read(List.class, json, 0, json.length);
    @SuppressWarnings("unchecked")
    List<Object> two = (List<Object>) codec.read(List.class, json, 0, json.length);
    assertNotSame(one, two);
    one.add("b");
    @SuppressWarnings("unchecked")
    Map<String, Object> inner = (Map<String, Object>) one.get(1);
    inner.put("j", 2);
    assertEquals(List.of("a", Map.of("k", List.of(1))), two);
  }
}
