package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;
import dev.sessionless.core.jackson.JacksonStateMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Holds the scalar reads that skip Jackson to Jackson's own: for every value of a corpus (escapes,
 * surrogate pairs, non-ASCII, big and odd numbers, literals) read as each fast type, {@link
 * StateValues} must answer exactly what a plain mapper reads, or hand over; never another value,
 * and never a value where Jackson fails.
 */
class StateValuesDifferentialTest {
  static final JsonMapper PLAIN = JsonMapper.builder(Json.plainFactory()).build();
  static final List<Class<?>> TYPES = List.of(String.class, Boolean.class, Integer.class, Long.class);

  static final List<String> CORPUS = List.of(
      "\"en-GB\"", "\"\"", "\"caf\u00e9\"", "\"\u4e2d\u6587\"", "\"\ud83d\ude00 raw pair\"",
      "\"\\ud83d\\ude00 escaped pair\"", "\"\\u00e9\\u4E2D\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
      "\"a\\u0000b\"", "\"tail\\\\\"", "\"\\\\u0041\"", "\"mixed \u00e9\\n\u00e9\\t\ud83d\ude00\"",
      "true", "false", "null", "0", "-0", "7", "-7", "2147483647", "2147483648", "-2147483648", "-2147483649",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "123456789012345678901234567890", "1.0", "1.5", "-0.0", "1e3", "1E-3", "2.5e-3", "1e400", "0.1",
      "{}", "[]", "[1]", "{\"a\":1}", " \"spaced\" ", " 42 ", "\ttrue\n");

  /** Jackson's reading of {@code json} as {@code type}: the value, or the exception. */
  static Object jackson(ObjectMapper mapper, Class<?> type, byte[] json) {
    try {
      return mapper.readerFor(type).readValue(json);
    } catch (RuntimeException e) {
      return e;
    }
  }

  static void agree(ObjectMapper mapper, StateReaders readers, Class<?> type, String json, List<String> readFast) {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    Object expected = jackson(mapper, type, b);
    Object fast = readers.readPlain(type, b, 0, b.length);
    if (fast == StateValues.UNREAD) {
      return;
    }
    if (expected instanceof Exception) {
      fail("read " + json + " as " + type.getSimpleName() + " to " + fast + " where Jackson fails: " + expected);
    }
    assertEquals(expected, fast, () -> json + " as " + type.getSimpleName());
    assertEquals(type, fast.getClass());
    readFast.add(type.getSimpleName() + " " + json);
  }

  @Test
  void scalarsReadWithoutJacksonAreExactlyWhatJacksonReads() {
    StateReaders readers = new StateReaders(JacksonStateMapper.of(PLAIN));
    List<String> readFast = new ArrayList<>();
    for (Class<?> type : TYPES) {
      assertTrue(readers.isPlainValue(type), type.getName());
      for (String json : CORPUS) {
        agree(PLAIN, readers, type, json, readFast);
      }
    }
    // The cases that give the test its teeth did take the fast path.
    for (String expected : List.of("String \"en-GB\"", "String \"\\ud83d\\ude00 escaped pair\"",
        "String \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "Boolean true", "Integer -2147483648", "Long 9223372036854775807",
        "Long -0", "String  \"spaced\" ")) {
      assertTrue(readFast.contains(expected), expected + " was not read fast: " + readFast);
    }
  }

  @Test
  void randomStringsAndNumbersReadAsJacksonReadsThem() throws Exception {
    StateReaders readers = new StateReaders(JacksonStateMapper.of(PLAIN));
    Random random = new Random(Long.getLong("sessionless.fuzz.seed", 20261123L));
    List<String> readFast = new ArrayList<>();
    String pool = "aZ09 \u00e9\u4e2d\ud83d\ude00\"\\/\b\f\n\r\t\u0001\u2028";
    for (int r = 0; r < 8_000; r++) {
      StringBuilder s = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) {
        int at = random.nextInt(pool.length());
        char c = pool.charAt(at);
        if (Character.isHighSurrogate(c)) {
          s.append(c).append(pool.charAt(at + 1));
        } else if (!Character.isLowSurrogate(c)) {
          s.append(c);
        }
      }
      String json = PLAIN.writeValueAsString(s.toString());
      if (random.nextBoolean()) {
        json = escapeSomeAsUnicode(json, random);
      }
      agree(PLAIN, readers, String.class, json, readFast);
      long n = random.nextLong() >> random.nextInt(64);
      agree(PLAIN, readers, Long.class, Long.toString(n), readFast);
      agree(PLAIN, readers, Integer.class, Long.toString(n), readFast);
    }
    assertTrue(readFast.size() > 12_000, "only " + readFast.size() + " reads took the fast path");
  }

  /** Rewrites some plain characters of a JSON string as {@code \\uXXXX} escapes (pairs kept whole). */
  static String escapeSomeAsUnicode(String json, Random random) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 1; i < json.length() - 1; i++) {
      char c = json.charAt(i);
      if (c == '\\') {
        out.append(c).append(json.charAt(++i));
      } else if (random.nextInt(3) == 0) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  @Test
  void aMapperWithItsOwnStringDeserializerIsNeverBypassed() {
    SimpleModule upper = new SimpleModule().addDeserializer(String.class, new ValueDeserializer<String>() {
      @Override
      public String deserialize(JsonParser p, DeserializationContext ctxt) {
        return p.getString().toUpperCase(java.util.Locale.ROOT);
      }
    });
    StateReaders readers = new StateReaders(JacksonStateMapper.of(JsonMapper.builder().addModule(upper).build()));
    assertTrue(!readers.isPlainValue(String.class), "String has its own deserializer here");
    assertTrue(readers.isPlainValue(Integer.class), "Integer is still read the standard way");
  }

  @Test
  void aMapperThatUnwrapsRootValuesReadsNothingWithoutJackson() {
    StateReaders readers = new StateReaders(JacksonStateMapper.of(JsonMapper.builder().enable(DeserializationFeature.UNWRAP_ROOT_VALUE).build()));
    for (Class<?> type : TYPES) {
      assertTrue(!readers.isPlainValue(type), type.getName());
    }
  }

  @Test
  void stringsOverTheMappersLimitAreLeftToJackson() {
    JsonMapper strict = JsonMapper.builder(Json.plainFactory().rebuild()
        .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(4).build()).build()).build();
    StateReaders readers = new StateReaders(JacksonStateMapper.of(strict));
    byte[] b = "\"abcdef\"".getBytes(StandardCharsets.UTF_8);
    assertSame(StateValues.UNREAD, readers.readPlain(String.class, b, 0, b.length));
    assertTrue(jackson(strict, String.class, b) instanceof Exception);
  }


}
