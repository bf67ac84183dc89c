package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.StateMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Attribute values the codec refuses with a clear error instead of failing deep inside. */
class AttributeCodecTest {
  private final AttributeCodec codec = new AttributeCodec(StateMapper.defaults(), Set.of());

  @Test
  void cyclicListIsAClearErrorNamingTheAttribute() {
    List<Object> loop = new ArrayList<>();
    loop.add("x");
    loop.add(loop);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("loop", loop));
    assertTrue(e.getMessage().contains("'loop'") && e.getMessage().contains("cycle"), e.getMessage());
  }

  @Test
  void cyclicMapThroughAListIsAClearErrorNamingTheAttribute() {
    Map<String, Object> map = new HashMap<>();
    map.put("children", List.of(map));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("tree", map));
    assertTrue(e.getMessage().contains("'tree'") && e.getMessage().contains("cycle"), e.getMessage());
  }

  @Test
  void sameListTwiceSideBySideIsNoCycle() {
    List<String> shared = List.of("a");
    codec.typeName("twice", List.of(shared, shared));
  }

  @Test
  void deeplyNestedListIsAClearErrorNotAStackOverflow() {
    List<Object> deep = new ArrayList<>();
    List<Object> at = deep;
    for (int i = 0; i < 100_000; i++) {
      List<Object> next = new ArrayList<>();
      at.add(next);
      at = next;
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("deep", deep));
    assertTrue(e.getMessage().contains("'deep'"), e.getMessage());
  }

  /** A registered bean whose setter changes what it is given: it never reads back as written. */
  public static final class Shouting {
    private String name;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name + "!";
    }
  }

  /** A registered record that round-trips. */
  public record Line(String sku, int quantity, List<String> tags) {}

  /** The default mapper, counting how often each side is used. */
  static final class Counting implements StateMapper {
    int writes;
    int streamed;
    int reads;

    @Override
    public byte[] write(Object value) {
      writes++;
      return StateMapper.defaults().write(value);
    }

    @Override
    public void writeTo(Object value, java.io.OutputStream out) throws java.io.IOException {
      streamed++;
      StateMapper.defaults().writeTo(value, out);
    }

    @Override
    public Object read(byte[] json, int off, int len, java.lang.reflect.Type type) {
      reads++;
      return StateMapper.defaults().read(json, off, len, type);
    }

    @Override
    public void checkTypes(Set<Class<?>> types) {
      StateMapper.defaults().checkTypes(types);
    }
  }

  @Test
  void registeredTypeThatReadsBackAsSomethingElseIsRefusedNamingTheAttribute() {
    AttributeCodec registered = new AttributeCodec(StateMapper.defaults(), Set.of(Shouting.class));
    Shouting v = new Shouting();
    v.name = "quiet";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> registered.checkedJson("bad", v, registered.typeName("bad", v)));
    assertTrue(e.getMessage().contains("'bad'") && e.getMessage().contains("round trip")
        && e.getMessage().contains(Shouting.class.getName()), e.getMessage());
  }

  @Test
  void registeredTypeIsCheckedByOneReadAndOneStreamedComparisonAndStoredAsItsFirstJson() {
    Counting mapper = new Counting();
    AttributeCodec registered = new AttributeCodec(mapper, Set.of(Line.class));
    Line v = new Line("SKU-1", 2, List.of("gift", "é"));
    byte[] json = registered.checkedJson("line", v, registered.typeName("line", v));
    assertArrayEquals(StateMapper.defaults().write(v), json);
    assertEquals(List.of(1, 1, 1), List.of(mapper.writes, mapper.reads, mapper.streamed));
  }

  @Test
  void listReadingBackUnequalIsRefusedAndAnEqualOneIsComparedAsWritten() {
    Counting mapper = new Counting();
    AttributeCodec jdk = new AttributeCodec(mapper, Set.of());
    List<Long> longs = List.of(1L);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> jdk.checkedJson("bad", longs, jdk.typeName("bad", longs)));
    assertTrue(e.getMessage().contains("'bad'") && e.getMessage().contains("round trip"), e.getMessage());
    List<Object> fine = List.of("a", 1, true, Map.of("k", "v"));
    mapper.streamed = 0;
    jdk.checkedJson("fine", fine, jdk.typeName("fine", fine));
    assertEquals(1, mapper.streamed);
  }

  @Test
  void equalJdkValuesAreNotSerialisedASecondTime() {
    Counting mapper = new Counting();
    AttributeCodec jdk = new AttributeCodec(mapper, Set.of());
    for (Object v : List.of("text é", 7, 7L, (short) 7, (byte) 7, 1.5d, Double.NaN, -0.0d, 1.5f, true, 'c',
        new java.math.BigInteger("123456789012345678901234567890"), new java.math.BigDecimal("9.90"))) {
      byte[] json = jdk.checkedJson("v", v, jdk.typeName("v", v));
      assertArrayEquals(StateMapper.defaults().write(v), json, v.toString());
      assertEquals(v, StateMapper.defaults().read(json, 0, json.length, v.getClass()), v.toString());
    }
    assertEquals(0, mapper.streamed);
  }

  @Test
  void valuesATokenCannotCarryAreRefusedThoughTheyRoundTrip() {
    // Each survives Jackson's round trip, but the next request's token reader refuses it.
    Object deep = "x";
    for (int i = 0; i < 31; i++) {
      deep = List.of(deep);
    }
    for (Object v : List.of("a\uD800b", Map.of("k", "\uDC00"),
        new java.math.BigInteger("1".repeat(65)), deep)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> codec.checkedJson("bad", v, codec.typeName("bad", v)));
      assertTrue(e.getMessage().contains("'bad'") && e.getMessage().contains("cannot carry"), e.getMessage());
    }
  }

  @Test
  void valuesAtATokensLimitsAreAccepted() {
    Object deep = "x";
    for (int i = 0; i < 30; i++) {
      deep = List.of(deep);
    }
    for (Object v : List.of("a\uD83D\uDE00b", new java.math.BigInteger("1".repeat(64)), deep)) {
      codec.checkedJson("ok", v, codec.typeName("ok", v));
    }
  }
}
