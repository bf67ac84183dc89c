package dev.sessionless.core.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.bean.BeanDeserializerBase;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records (and other multi-argument constructors) are built through a handle spread once per
 * type, and read exactly as Jackson alone reads them: the same values, the same defaults for
 * missing components, the same failure when the constructor refuses the JSON.
 */
class SpreadCreatorsTest {
  /** The default mapper's configuration, without the spread creators. */
  static final JsonMapper JACKSON_ALONE = JsonMapper.builder(Json.plainFactory()).configureForJackson2()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  public record Line(String sku, int quantity, long cents, double weight, boolean gift, char size) {}

  public record Order(String id, List<Line> lines, Map<String, Integer> counts) {}

  public record Positive(String name, int n) {
    public Positive {
      if (n < 0) {
        throw new IllegalArgumentException("n must not be negative");
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRecordIsBuiltThroughTheSpreadHandle() {
    JsonMapper m = JsonMapper.builder().addModule(SpreadCreators.module()).build();
    ValueDeserializer<Object> d = m._deserializationContext().findRootValueDeserializer(m.constructType(Order.class));
    assertInstanceOf(SpreadCreators.Spreading.class, ((BeanDeserializerBase) d).getValueInstantiator());
  }

  @Test
  void recordsReadBackExactlyAsJacksonAloneReadsThem() {
    Order o = new Order("o1", List.of(new Line("a", 2, 123_456_789_012L, 0.25, true, 'M'),
        new Line("b", -1, Long.MIN_VALUE, Double.NaN, false, '\u00e9')), Map.of("a", 1));
    for (StateMapper m : List.of(StateMapper.defaults(), JacksonStateMapper.of(JsonMapper.builder().build()))) {
      byte[] b = m.write(o);
      Object back = m.read(b, 0, b.length, Order.class);
      assertEquals(o, back);
      assertEquals(JACKSON_ALONE.readValue(b, Order.class), back);
    }
  }

  @Test
  void missingComponentsGetTheDefaultsJacksonAloneGives() {
    byte[] b = utf8("{\"sku\":\"a\"}");
    assertEquals(JACKSON_ALONE.readValue(b, Line.class), StateMapper.defaults().read(b, 0, b.length, Line.class));
    assertEquals(new Line("a", 0, 0, 0, false, '\0'), StateMapper.defaults().read(b, 0, b.length, Line.class));
  }

  @Test
  void aConstructorThatRefusesTheJsonFailsAsWithJacksonAlone() {
    byte[] b = utf8("{\"name\":\"x\",\"n\":-1}");
    RuntimeException alone = assertThrows(RuntimeException.class, () -> JACKSON_ALONE.readValue(b, Positive.class));
    RuntimeException ours = assertThrows(RuntimeException.class,
        () -> StateMapper.defaults().read(b, 0, b.length, Positive.class));
    assertEquals(alone.getClass(), ours.getClass());
    assertInstanceOf(IllegalArgumentException.class, ours.getCause());
    assertEquals(alone.getCause().getMessage(), ours.getCause().getMessage());
    assertEquals(alone.getMessage(), ours.getMessage());
  }
}
