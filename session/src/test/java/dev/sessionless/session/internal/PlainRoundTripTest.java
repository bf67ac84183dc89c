package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.FastPaths;
import dev.sessionless.core.jackson.JacksonStateMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * With the default mapper, a list or map of plain JDK values skips the read-back in
 * {@code setAttribute}'s round-trip check. Differential: for each value, the default codec (which
 * may skip it) and a codec on an equal mapper that is not the default one (which never skips)
 * must accept and refuse the same values and write the same bytes.
 *
 * <p>Run with the records fast path ({@link PlainJsonWriter}, {@link PlainJsonReader}) on and
 * off ({@code dev.sessionless.fastpath.records}), flipped in this JVM: with it off the default
 * codec goes through the mapper for everything, and must still agree.
 */
@ParameterizedClass(name = "records fast path on: {0}")
@ValueSource(booleans = {true, false})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlainRoundTripTest {
  /** A registered record, written and read by the fast path when it is on. */
  public record Line(String sku, int quantity, List<String> tags) {}

  @Parameter
  boolean fastPath;
  boolean was;
  AttributeCodec fast;
  AttributeCodec full;
  AttributeCodec fastRecords;
  AttributeCodec fullRecords;

  @BeforeEach
  void mode() {
    was = FastPaths.set(FastPaths.Path.RECORDS, fastPath);
    fast = new AttributeCodec(StateMapper.defaults(), Set.of());
    full = new AttributeCodec(JacksonStateMapper.of(JsonMapper.builder().build()), Set.of());
    fastRecords = new AttributeCodec(StateMapper.defaults(), Set.of(Line.class));
    fullRecords = new AttributeCodec(JacksonStateMapper.of(JsonMapper.builder().build()), Set.of(Line.class));
  }

  @AfterEach
  void restore() {
    FastPaths.set(FastPaths.Path.RECORDS, was);
  }

  @Test
  void thePlainWriterAndReaderRunOnlyWithTheFastPathOn() {
    assertEquals(fastPath, PlainJsonWriter.writePlain(new ArrayList<>(List.of("a")), 8, true) != null);
    byte[] list = "[\"a\"]".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(fastPath, PlainJsonReader.read(list, 0, list.length, List.class) != PlainJsonReader.NOT_PLAIN);
    assertEquals(fastPath, !RecordPlan.of(Set.of(Line.class)).isEmpty());
  }

  @Test
  void registeredRecordsAreStoredReadAndComparedAlikeInBothCodecs() {
    Line line = new Line("sku-1", 2, new ArrayList<>(List.of("gift", "é€")));
    String tag = fastRecords.typeName("line", line);
    byte[] json = fastRecords.checkedJson("line", line, tag);
    assertArrayEquals(fullRecords.checkedJson("line", line, fullRecords.typeName("line", line)), json);
    assertArrayEquals(json, fastRecords.json(line));
    assertEquals(line, fastRecords.read(Line.class, json, 0, json.length));
    assertEquals(line, fullRecords.read(Line.class, json, 0, json.length));
    assertEquals(true, fastRecords.writesSame(line, json, 0, json.length));
    Line other = new Line("sku-1", 3, new ArrayList<>(List.of("gift", "é€")));
    assertEquals(false, fastRecords.writesSame(other, json, 0, json.length));
  }

  /** The JSON {@code codec} stores for {@code value}, or the refusal's class name. */
  static Object verdict(AttributeCodec codec, Object value) {
    try {
      String tag = codec.typeName("a", value);
      return new String(codec.checkedJson("a", value, tag), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "refused";
    }
  }

  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static List<Object> samples() {
    Map<String, Object> hash = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      hash.put("k" + i, i);
    }
    for (int i = 0; i < 30; i++) {
      hash.remove("k" + i); // a grown table: iteration order differs from a fresh map's
    }
    Map<String, Object> tree = new TreeMap<>(java.util.Comparator.reverseOrder());
    tree.put("a", 1);
    tree.put("b", 2);
    List<Object> deep = new ArrayList<>();
    List<Object> at = deep;
    for (int i = 0; i < 40; i++) {
      List<Object> next = new ArrayList<>();
      at.add(next);
      at = next;
    }
    return Arrays.asList(
        new ArrayList<>(List.of("a", "b")),
        new LinkedList<>(List.of("x")),
        Arrays.asList("x", null, true, 7, 3_000_000_000L, 1.5, -0.0, 1e300),
        new ArrayList<>(List.of(1L)),                       // reads back as Integer 1: refused
        new ArrayList<>(List.of(1.5f)),                     // reads back as Double: refused
        new ArrayList<>(List.of(Double.NaN)),
        new ArrayList<>(List.of(Double.POSITIVE_INFINITY)),
        new ArrayList<>(List.of('c')),
        new ArrayList<>(List.of(new java.math.BigDecimal("1.50"))),
        new ArrayList<>(List.of(java.math.BigInteger.TEN.pow(30))),
        new ArrayList<>(List.of((short) 3)),
        new ArrayList<>(List.of("\uD800")),                 // a lone surrogate no token reader takes
        new ArrayList<>(List.of("é€😀\"\\\n\t")),
        map("locale", "en-GB", "n", 3, "nested", map("list", new ArrayList<>(List.of(1, "two")))),
        map("empty", map(), "list", new ArrayList<>()),
        hash,
        tree,
        deep,                                               // deeper than a token nests: refused
        new ArrayList<>(List.of(map("k", 1L))));
  }

  @Test
  void fastAndFullChecksAgreeOnEverySample() {
    for (Object v : samples()) {
      assertEquals(verdict(full, v), verdict(fast, v), () -> "for " + v.getClass().getSimpleName() + " " + v);
    }
  }

  @Test
  void plainListIsStoredAsItsJson() {
    byte[] json = fast.checkedJson("viewed", new ArrayList<>(List.of("sku-1", "sku-2")), "L");
    assertArrayEquals("[\"sku-1\",\"sku-2\"]".getBytes(java.nio.charset.StandardCharsets.UTF_8), json);
  }

  @Test
  void samplesIncludeBothVerdicts() {
    long refused = samples().stream().filter(v -> "refused".equals(verdict(full, v))).count();
    assertEquals(true, refused >= 8 && refused < samples().size(), "refused " + refused);
  }
}
