package dev.sessionless.core.jackson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.Json;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import tools.jackson.databind.type.TypeFactory;

/** The Jackson 3 state mapper: what it takes from an application's mapper, and what it refuses. */
class JacksonStateMapperTest {
  static final JsonMapper PLAIN = JsonMapper.builder(Json.plainFactory()).build();

  record Cart(String customerName, int itemCount) {}

  @Test
  void anApplicationMappersNamingStrategyReachesTheStateJson() {
    JsonMapper app = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    StateMapper m = JacksonStateMapper.of(app);
    String json = new String(m.write(new Cart("Ada", 2)), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"customer_name\":\"Ada\""), json);
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    assertEquals(new Cart("Ada", 2), m.read(b, 0, b.length, Cart.class));
  }

  @Test
  void anApplicationMapperWithDefaultTypingIsRefused() {
    JsonMapper app = JsonMapper.builder()
        .activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
            DefaultTyping.NON_FINAL)
        .build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JacksonStateMapper.of(app));
    assertTrue(e.getMessage().contains("default typing"), e.getMessage());
  }

  @Test
  void trailingDataAfterAValueIsRefusedEvenIfTheApplicationsMapperAllowsIt() {
    JsonMapper lax = JsonMapper.builder()
        .disable(tools.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    byte[] b = "\"a\" \"b\"".getBytes(StandardCharsets.UTF_8);
    assertEquals("a", lax.readValue(b, String.class), "the application's mapper itself is lax");
    StateMapper m = JacksonStateMapper.of(lax);
    assertThrows(RuntimeException.class, () -> m.read(b, 0, b.length, String.class));
    assertThrows(RuntimeException.class, () -> StateMapper.defaults().read(b, 0, b.length, String.class));
  }

  @Test
  void theDefaultMapperReadsTheCommonScalarsPlainly() {
    for (Class<?> c : List.of(String.class, Boolean.class, Integer.class, Long.class)) {
      assertTrue(StateMapper.defaults().readsPlainly(c), c.getName());
    }
  }

  @Test
  void theDefaultMapperWritesRecordsInDeclarationOrderAsEarlierVersionsDid() {
    // Jackson 3 sorts properties alphabetically by default; the default mapper keeps Jackson 2's
    // order, so a value's JSON (and a token's size) does not change with the upgrade.
    record Zebra(int z, int a) {}
    assertArrayEquals("{\"z\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8),
        StateMapper.defaults().write(new Zebra(1, 2)));
  }

  @Test
  void attributeTypesThatNameClassesInTheirJsonAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> JacksonStateMapper.defaults().checkTypes(Set.of(Holder.class)));
    JacksonStateMapper.defaults().checkTypes(Set.of(Cart.class));
  }

  /** Declares a property as Object: only polymorphic typing could read it back as stored. */
  public static final class Holder {
    public Object value;
  }

  @Test
  void readersAreMadeOncePerTypeAndTheirNumberIsBounded() {
    JacksonStateMapper readers = new JacksonStateMapper(PLAIN, 8);
    assertSame(readers.readerFor(BigDecimal.class), readers.readerFor(BigDecimal.class));
    TypeFactory types = PLAIN.getTypeFactory();
    List<Type> many = new ArrayList<>();
    for (Class<?> c : List.of(String.class, Integer.class, Long.class, Double.class, Boolean.class, BigDecimal.class)) {
      many.add(types.constructCollectionType(List.class, c));
      many.add(types.constructMapType(java.util.Map.class, String.class, c));
    }
    for (int i = 0; i < many.size(); i++) {
      Type t = many.get(i);
      if (i < 7) { // with BigDecimal's, eight readers: the bound
        assertSame(readers.readerFor(t), readers.readerFor(t), t.toString());
      } else {
        readers.readerFor(t);
      }
    }
    assertEquals(8, readers.readerCount());
    Type last = many.get(many.size() - 1);
    assertNotSame(readers.readerFor(last), readers.readerFor(last), "past the bound, readers are not kept");
    assertEquals(types.constructMapType(java.util.Map.class, String.class, BigDecimal.class), readers.readerFor(last).getValueType());
  }}
