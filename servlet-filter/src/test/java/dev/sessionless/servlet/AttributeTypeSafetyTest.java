package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.sessionless.core.jackson.JacksonStateMapper;
import dev.sessionless.core.jackson2.Jackson2StateMapper;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builder refuses a Jackson setup under which a token's JSON could pick a class to instantiate. */
class AttributeTypeSafetyTest {
  private final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM));

  private SessionlessFilterBuilder valid() {
    return SessionlessFilter.builder().keys(keys).issuer("i").audience("a");
  }

  /** A class-level id that names any class. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
  public static class ClassTyped {
    public String label;
  }

  /** A property whose id names any class. */
  public static class MinimalClassProperty {
    @JsonTypeInfo(use = JsonTypeInfo.Id.MINIMAL_CLASS)
    public Pet pet;
  }

  /** A harmless value type. */
  public static class Pet {
    public String name;
  }

  /** Reaches a class-typed class through a list property. */
  public static class Nested {
    public List<ClassTyped> items;
  }

  /** An Object-typed property. */
  public static class Untyped {
    public Object anything;
  }

  /** An Object-typed map value, reached through a getter and setter. */
  public static class UntypedMap {
    private Map<String, Object> extras;

    public Map<String, Object> getExtras() {
      return extras;
    }

    public void setExtras(Map<String, Object> extras) {
      this.extras = extras;
    }
  }

  /** Name-based ids: a closed set of subtypes. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
  @JsonSubTypes({@JsonSubTypes.Type(value = Cat.class, name = "cat")})
  public abstract static class Animal {
    public String name;
  }

  /** A named subtype. */
  public static class Cat extends Animal {}

  /** A safe type holding safe types. */
  public static class Household {
    public List<Animal> animals;
    public Map<String, Pet> pets;
  }

  private static void assertRefused(SessionlessFilterBuilder b, String... mentions) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), e.getMessage());
    }
  }

  @Test
  void mapperWithDefaultTypingIsRefused() {
    JsonMapper typed = JsonMapper.builder().activateDefaultTyping(
        BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
        DefaultTyping.NON_FINAL).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JacksonStateMapper.of(typed));
    assertTrue(e.getMessage().contains("default typing"), e.getMessage());
  }

  @Test
  void jackson2MapperWithDefaultTypingIsRefused() {
    com.fasterxml.jackson.databind.ObjectMapper typed = com.fasterxml.jackson.databind.json.JsonMapper.builder()
        .activateDefaultTyping(com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator.builder()
            .allowIfBaseType(Object.class).build(),
            com.fasterxml.jackson.databind.ObjectMapper.DefaultTyping.NON_FINAL).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Jackson2StateMapper.of(typed));
    assertTrue(e.getMessage().contains("default typing"), e.getMessage());
  }

  @Test
  void theJackson2AdapterRefusesTheSameAttributeTypes() {
    SessionlessFilterBuilder b = valid()
        .stateMapper(Jackson2StateMapper.of(new com.fasterxml.jackson.databind.ObjectMapper()));
    assertRefused(b.attributeTypes(ClassTyped.class), ClassTyped.class.getName(), "CLASS");
  }

  @Test
  void anApplicationsJackson3MapperStillHasItsAttributeTypesChecked() {
    SessionlessFilterBuilder b = valid().stateMapper(JacksonStateMapper.of(JsonMapper.builder().build()));
    assertRefused(b.attributeTypes(MinimalClassProperty.class), "'pet'", "MINIMAL_CLASS");
  }

  @Test
  void classBasedTypeIdsOnTheClassAPropertyOrAReachableTypeAreRefused() {
    assertRefused(valid().attributeTypes(ClassTyped.class), ClassTyped.class.getName(), "CLASS");
    assertRefused(valid().attributeTypes(MinimalClassProperty.class), "'pet'", "MINIMAL_CLASS");
    assertRefused(valid().attributeTypes(Nested.class), "'items'", ClassTyped.class.getName());
  }

  @Test
  void objectTypedPropertiesAreRefused() {
    assertRefused(valid().attributeTypes(Untyped.class), "'anything'", "Object");
    assertRefused(valid().attributeTypes(UntypedMap.class), "'extras'", "Object");
  }

  @Test
  void nameBasedTypeIdsAndConcreteTypesAreAccepted() {
    valid().attributeTypes(Household.class, Pet.class, Cat.class).build();
  }
}
