package dev.sessionless.core.jackson2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Jackson 2 adapter, for applications still on Jackson 2: a codec works through it. */
class Jackson2StateMapperTest {
  record Cart(String customerName, int itemCount) {}

  private static TokenCodec codec(ObjectMapper mapper) {
    return TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(java.time.Duration.ofMinutes(5))
        .stateMapper(Jackson2StateMapper.of(mapper)).build();
  }

  @Test
  void aCodecWritesAndReadsStateThroughAnApplicationsJackson2Mapper() {
    ObjectMapper app = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    TokenCodec codec = codec(app);
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("cart", new Cart("Ada", 2)).put("n", 7).build()));
    assertEquals(new Cart("Ada", 2), t.get("cart", Cart.class).orElseThrow());
    assertEquals(7, t.get("n", Integer.class).orElseThrow());
    assertTrue(new String(Jackson2StateMapper.of(app).write(new Cart("Ada", 2)), StandardCharsets.UTF_8)
        .contains("\"customer_name\""));
  }

  @Test
  void aPlainJackson2MapperReadsScalarsPlainlyAndOneWithItsOwnStringDeserializerDoesNot() {
    assertTrue(Jackson2StateMapper.of(new ObjectMapper()).readsPlainly(String.class));
    SimpleModule upper = new SimpleModule().addDeserializer(String.class, new JsonDeserializer<String>() {
      @Override
      public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        return p.getText().toUpperCase(Locale.ROOT);
      }
    });
    ObjectMapper own = JsonMapper.builder().addModule(upper).build();
    assertFalse(Jackson2StateMapper.of(own).readsPlainly(String.class));
    TokenCodec codec = codec(own);
    assertEquals("EN-GB", codec.decode(codec.encode(Claims.builder().put("locale", "en-gb").build()))
        .get("locale", String.class).orElseThrow(), "the mapper's own deserializer decides the value");
  }

  @Test
  void aJackson2MapperWithDefaultTypingIsRefused() {
    ObjectMapper typed = JsonMapper.builder().activateDefaultTyping(
        BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
        ObjectMapper.DefaultTyping.NON_FINAL).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Jackson2StateMapper.of(typed));
    assertTrue(e.getMessage().contains("default typing"), e.getMessage());
  }

  @Test
  void trailingDataIsRefusedAndTheApplicationsMapperIsLeftAsItWas() {
    ObjectMapper app = new ObjectMapper();
    Jackson2StateMapper m = Jackson2StateMapper.of(app);
    byte[] b = "\"a\" \"b\"".getBytes(StandardCharsets.UTF_8);
    assertThrows(RuntimeException.class, () -> m.read(b, 0, b.length, String.class));
    assertFalse(app.isEnabled(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS),
        "the adapter works on a copy");
  }

  @Test
  void attributeTypesThatNameClassesInTheirJsonAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Jackson2StateMapper.of(new ObjectMapper()).checkTypes(Set.of(Holder.class)));
  }

  /** Declares a property as Object: only polymorphic typing could read it back as stored. */
  public static final class Holder {
    public Object value;
  }
}
