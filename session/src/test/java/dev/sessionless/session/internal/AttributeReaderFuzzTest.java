package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenException;
import dev.sessionless.testing.FuzzSeeds;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of the session attribute reader: {@link
 * AttributeCodec#read} and its parser-free path ({@link PlainJsonReader}) for lists, maps and
 * registered records. The parser-free reader never throws and, whatever it takes, the mapper
 * reads to an equal value of the same classes throughout; {@code AttributeCodec.read} answers a
 * value or throws the mapper's {@code JacksonException} (or a {@link TokenException}), which
 * {@link TokenHttpSession} turns into a dropped attribute. Anything else escaping is a finding.
 *
 * <p>Byte 0 of the input picks the type (modulo {@link #TYPES}' size); the rest is the JSON.
 * Saved inputs live under {@code
 * src/test/resources/dev/sessionless/session/internal/AttributeReaderFuzzTestInputs/<method>/}.
 */
@Timeout(120)
class AttributeReaderFuzzTest {
  /** A registered record of plain components, as applications store. */
  public record Item(String sku, String name, int quantity, long priceCents) {}

  /** A registered record holding other records and lists. */
  public record Cart(String locale, List<Item> items, Boolean gift, List<Long> ids) {}

  static final List<Class<?>> TYPES = List.of(List.class, Map.class, Item.class, Cart.class, String.class,
      Integer.class, Long.class, Boolean.class, Double.class, BigDecimal.class, BigInteger.class, Character.class);
  static final StateMapper MAPPER = StateMapper.defaults();
  static final AttributeCodec CODEC = new AttributeCodec(MAPPER, Set.of(Item.class, Cart.class));
  static final Map<Class<?>, RecordPlan> PLANS = RecordPlan.of(Set.of(Item.class, Cart.class));

  @FuzzTest(maxDuration = "5m")
  void storedAttributesReadAsTheMapperReadsThemOrFailWithTheMappersException(byte[] input) {
    if (input.length == 0) {
      return;
    }
    Class<?> type = TYPES.get((input[0] & 0xff) % TYPES.size());
    byte[] json = Arrays.copyOfRange(input, 1, input.length);
    Object plain = PlainJsonReader.NOT_PLAIN;
    if (type == List.class || type == Map.class) {
      plain = PlainJsonReader.read(json, 0, json.length, type);
    } else if (PLANS.containsKey(type)) {
      plain = PlainJsonReader.readRecord(json, 0, json.length, PLANS.get(type));
    }
    Object mapped;
    try {
      mapped = MAPPER.read(json, 0, json.length, type);
    } catch (tools.jackson.core.JacksonException | TokenException e) {
      mapped = e;
    }
    if (plain != PlainJsonReader.NOT_PLAIN) {
      if (mapped instanceof RuntimeException e) {
        fail("the plain reader took what the mapper refuses (" + e.getClass().getSimpleName() + "): "
            + new String(json, StandardCharsets.UTF_8));
      }
      assertSameShape(mapped, plain, new String(json, StandardCharsets.UTF_8));
    }
    try {
      Object read = CODEC.read(type, json, 0, json.length);
      if (!(mapped instanceof RuntimeException)) {
        assertSameShape(mapped, read, "AttributeCodec.read of " + new String(json, StandardCharsets.UTF_8));
      }
    } catch (tools.jackson.core.JacksonException | TokenException expected) {
      // the mapper's refusal: the session drops the attribute
    }
  }

  /** Fails unless {@code a} and {@code b} are equal with the same class at every level. */
  static void assertSameShape(Object a, Object b, String where) {
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

  static final FuzzSeeds INPUTS = FuzzSeeds.of(AttributeReaderFuzzTest.class);

  @Test
  void theCheckedInSeedsAreThere() throws IOException {
    try (var files = Files.list(INPUTS.dir("storedAttributesReadAsTheMapperReadsThemOrFailWithTheMappersException"))) {
      assertTrue(files.count() >= 6);
    }
  }

  /**
   * Rewrites the checked-in seeds (values written by the mapper, as a session stores them); the
   * command is in docs/FUZZING.md.
   */
  public static void main(String[] args) throws IOException {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("theme", "dark");
    map.put("n", 3);
    map.put("on", true);
    map.put("none", null);
    map.put("tags", List.of("a", "b"));
    Item item = new Item("SKU-1", "caf\u00e9 \"mug\"", 2, 1299L);
    Object[] values = {List.of("x", 1, false), map, item, new Cart("en-GB", List.of(item, item), null, List.of(1L, 2L)),
        "a \"quoted\" \\ string \u00e9", 42, 9_000_000_000L, true, 2.5e-3, new BigDecimal("12.50"),
        new BigInteger("123456789012345678901234567890"), 'c'};
    List<byte[]> seeds = new ArrayList<>();
    for (Object value : values) {
      int t = TYPES.indexOf(value instanceof List ? List.class : value instanceof Map ? Map.class : value.getClass());
      seeds.add(FuzzSeeds.prefixed(t, MAPPER.write(value)));
    }
    INPUTS.write("storedAttributesReadAsTheMapperReadsThemOrFailWithTheMappersException", seeds);
  }
}
