package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sessionless.core.StateMapper;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The short type tags recorded in tokens, and the full class names older tokens recorded. */
class TypeTagTest {
  /** Two registered types sharing a simple name. */
  static final class Outer {
    record Cart(String id) {}
  }

  record Cart(String id) {}

  record Item(String sku) {}

  /** A registered type whose simple name is a JDK tag. */
  record s(String v) {}

  private final AttributeCodec codec = new AttributeCodec(StateMapper.defaults(),
      Set.of(Cart.class, Outer.Cart.class, Item.class, s.class));

  @Test
  void jdkValueTypesGetOneLetterTags() {
    assertEquals("s", codec.typeName("a", "x"));
    assertEquals("l", codec.typeName("a", 1L));
    assertEquals("D", codec.typeName("a", BigDecimal.ONE));
    assertEquals("L", codec.typeName("a", List.of(1)));
    assertEquals("M", codec.typeName("a", Map.of("k", 1)));
    assertEquals(String.class, codec.resolve("s"));
    assertEquals(List.class, codec.resolve("L"));
  }

  @Test
  void registeredTypeIsTaggedByItsSimpleNameWhenNoOtherSharesIt() {
    assertEquals("Item", codec.typeName("a", new Item("x")));
    assertEquals(Item.class, codec.resolve("Item"));
  }

  @Test
  void registeredTypesSharingASimpleNameAreTaggedByFullNameAndTheSimpleNameNamesNeither() {
    assertEquals(Cart.class.getName(), codec.typeName("a", new Cart("x")));
    assertEquals(Outer.Cart.class.getName(), codec.typeName("a", new Outer.Cart("x")));
    assertNull(codec.resolve("Cart"), "an ambiguous tag follows the bad-attribute policy");
  }

  @Test
  void registeredTypeWhoseSimpleNameIsAJdkTagIsTaggedByFullName() {
    assertEquals(s.class.getName(), codec.typeName("a", new s("x")));
    assertEquals(String.class, codec.resolve("s"));
  }

  @Test
  void fullClassNamesOfEarlierTokensStillResolve() {
    assertEquals(String.class, codec.resolve("java.lang.String"));
    assertEquals(List.class, codec.resolve("java.util.List"));
    assertEquals(Map.class, codec.resolve("java.util.Map"));
    assertEquals(Item.class, codec.resolve(Item.class.getName()));
  }

  @Test
  void unknownTagsResolveToNothing() {
    assertNull(codec.resolve("java.lang.StringBuilder"));
    assertNull(codec.resolve("x"));
    assertNull(codec.resolve(""));
  }
}
