package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.StateIndex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Registered records written without the mapper: whatever {@link PlainJsonWriter} writes is
 * byte for byte what the default mapper writes, what it cannot match it leaves to the mapper,
 * and its comparison agrees with comparing the mapper's bytes.
 */
@ExtendWith(RecordsFastPathOn.class)
class PlainJsonWriterTest {
  private static final StateMapper MAPPER = StateMapper.defaults();

  record Item(String sku, String name, int quantity, long priceCents) {}

  record Cart(String locale, String currency, List<Item> items, String promotion) {}

  record Flags(boolean on, Boolean maybe, Integer count, Long big, List<String> tags, List<Long> ids,
      List<Integer> small, List<Boolean> bits, Item item) {}

  /** The mapper writes {@code total} too: a getter is a property. */
  record Priced(int cents) {
    public int getTotal() {
      return cents * 2;
    }
  }

  /** The mapper writes {@code free} too (an is-getter). */
  record Flagged(int cents) {
    public boolean isFree() {
      return cents == 0;
    }
  }

  /** An accessor the application wrote: the mapper writes what it returns. */
  record Shouted(String word) {
    @Override
    public String word() {
      return word == null ? null : word.toUpperCase(java.util.Locale.ROOT);
    }
  }

  record Numbers(List<Integer> values) {}

  record Empty() {}

  /** Not idempotent: every read adds one, so a value never reads back as itself. */
  record Bump(int n) {
    Bump {
      n = n + 1;
    }
  }

  private static final Set<Class<?>> TYPES = Set.of(Item.class, Cart.class, Flags.class, Priced.class,
      Flagged.class, Shouted.class, Numbers.class, Empty.class, Bump.class);
  private static final Map<Class<?>, RecordPlan> PLANS = RecordsFastPathOn.plans(TYPES);

  @Test
  void onlyRecordsWhoseJsonIsTheirComponentsAloneAreWrittenWithoutTheMapper() {
    for (Class<?> c : List.of(Item.class, Cart.class, Flags.class, Shouted.class, Numbers.class, Bump.class)) {
      assertTrue(PLANS.get(c).writable(), c.getSimpleName());
    }
    assertFalse(PLANS.get(Priced.class).writable(), "a getX() method is a property to the mapper");
    assertFalse(PLANS.get(Flagged.class).writable(), "so is an isX() method");
    assertFalse(PLANS.get(Empty.class).writable(), "no components: left to the mapper");
    assertEquals("{\"cents\":3,\"total\":6}", new String(MAPPER.write(new Priced(3)), StandardCharsets.UTF_8),
        "why: the mapper writes the getter's value");
  }

  @Test
  void theCartIsWrittenByteForByteAsTheMapperWritesIt() {
    Cart cart = new Cart("en-GB", "GBP", List.of(new Item("SKU-1001", "Espresso beans 1kg", 1, 2490),
        new Item("SKU-2002", "Ceramic cup, \"white\" \\ é ü 汉 😀", -2, Long.MIN_VALUE)), null);
    assertArrayEquals(MAPPER.write(cart), PlainJsonWriter.write(cart, PLANS.get(Cart.class)));
    Shouted s = new Shouted("quiet");
    assertArrayEquals(MAPPER.write(s), PlainJsonWriter.write(s, PLANS.get(Shouted.class)));
    assertEquals("{\"word\":\"QUIET\"}", new String(PlainJsonWriter.write(s, PLANS.get(Shouted.class)),
        StandardCharsets.UTF_8));
  }

  @Test
  void generatedRecordsAreWrittenAsTheMapperWritesThemOrLeftToIt() {
    Random r = new Random(31);
    int written = 0;
    for (int round = 0; round < 6000; round++) {
      Object value = round % 2 == 0 ? cart(r) : flags(r);
      RecordPlan plan = PLANS.get(value.getClass());
      byte[] expected = MAPPER.write(value);
      byte[] ours = PlainJsonWriter.write(value, plan);
      Boolean same = PlainJsonWriter.same(value, plan, expected, 0, expected.length);
      if (ours == null) {
        assertNull(same, "write and compare give up on the same values");
        assertTrue(hasUnwritable(new String(expected, StandardCharsets.UTF_8)),
            "gave up on " + new String(expected, StandardCharsets.UTF_8));
        continue;
      }
      written++;
      assertArrayEquals(expected, ours, new String(expected, StandardCharsets.UTF_8));
      assertEquals(Boolean.TRUE, same);
    }
    assertTrue(written > 4000, "written without the mapper: " + written + " of 6000");
  }

  @Test
  void aRebuiltRecordIsWhatReadingItsJsonBackBuilds() {
    Random r = new Random(47);
    int compared = 0;
    for (int round = 0; round < 4000; round++) {
      Object value = round % 2 == 0 ? cart(r) : flags(r);
      RecordPlan plan = PLANS.get(value.getClass());
      byte[] json = PlainJsonWriter.write(value, plan);
      if (json == null) {
        continue;
      }
      Object rebuilt = PlainJsonWriter.rebuild(value, plan);
      assertEquals(value, rebuilt);
      assertEquals(MAPPER.read(json, 0, json.length, value.getClass()), rebuilt, "what the mapper reads back");
      Object read = PlainJsonReader.readRecord(json, 0, json.length, plan);
      if (read != PlainJsonReader.NOT_PLAIN) {
        compared++;
        assertEquals(read, rebuilt, "what the filter's reader reads back");
      }
      if (value instanceof Cart c && c.items() != null) {
        assertEquals(ArrayList.class, ((Cart) rebuilt).items().getClass(), "lists are new ArrayLists, as read");
      }
    }
    assertTrue(compared > 500, "compared with the reader (which leaves escapes and non-ASCII to the mapper) " + compared);
    // new Bump(1) holds 2; rebuilt, its constructor runs again on 2, as a read of {"n":2} would.
    assertEquals(3, ((Bump) PlainJsonWriter.rebuild(new Bump(1), PLANS.get(Bump.class))).n(),
        "the constructor runs again, as on a read");
  }

  @Test
  void theComparisonFindsEveryChangedTruncatedOrExtendedText() {
    Random r = new Random(37);
    int checked = 0;
    for (int round = 0; round < 3000; round++) {
      Object value = round % 2 == 0 ? cart(r) : flags(r);
      RecordPlan plan = PLANS.get(value.getClass());
      byte[] json = PlainJsonWriter.write(value, plan);
      if (json == null) {
        continue;
      }
      byte[] framed = new byte[json.length + 6];
      System.arraycopy(json, 0, framed, 3, json.length);
      assertEquals(Boolean.TRUE, PlainJsonWriter.same(value, plan, framed, 3, json.length), "in place, framed");
      int at = r.nextInt(json.length);
      byte[] changed = json.clone();
      changed[at] ^= (byte) (1 + r.nextInt(0x3f));
      assertEquals(Boolean.FALSE, PlainJsonWriter.same(value, plan, changed, 0, changed.length));
      assertEquals(Boolean.FALSE, PlainJsonWriter.same(value, plan, json, 0, json.length - 1), "shorter");
      assertEquals(Boolean.FALSE, PlainJsonWriter.same(value, plan, framed, 3, json.length + 1), "longer");
      checked++;
    }
    assertTrue(checked > 2000, "checked " + checked);
  }

  @Test
  void valuesItCannotMatchAreLeftToTheMapper() {
    RecordPlan item = PLANS.get(Item.class);
    assertNull(PlainJsonWriter.write(new Item("a\nb", "x", 1, 1), item), "a control character");
    assertNull(PlainJsonWriter.write(new Item("\uD800", "x", 1, 1), item), "a lone surrogate");
    assertNull(PlainJsonWriter.write(new Item("x", "\uDC00x", 1, 1), item), "a lone low surrogate");
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<Integer> polluted = (List) new ArrayList<>(List.of("not a number"));
    assertNull(PlainJsonWriter.write(new Numbers(polluted), PLANS.get(Numbers.class)),
        "an element of another class than the component declares");
    List<Integer> foreign = new java.util.AbstractList<>() {
      @Override
      public Integer get(int i) {
        return i;
      }

      @Override
      public int size() {
        return 2;
      }
    };
    assertNull(PlainJsonWriter.write(new Numbers(foreign), PLANS.get(Numbers.class)),
        "a list class from outside java.util may be written otherwise");
    Numbers linked = new Numbers(new LinkedList<>(List.of(1, 2)));
    assertArrayEquals(MAPPER.write(linked), PlainJsonWriter.write(linked, PLANS.get(Numbers.class)));
  }

  @Test
  void theCodecStoresTheSameBytesAsTheMapperAndStillRefusesWhatDoesNotReadBack() {
    AttributeCodec codec = new AttributeCodec(MAPPER, TYPES);
    Cart cart = new Cart("fr-FR", "EUR", new ArrayList<>(List.of(new Item("SKU-9", "Café crème", 2, 390))), "É");
    assertArrayEquals(MAPPER.write(cart), codec.checkedJson("cart", cart, codec.typeName("cart", cart)));
    Priced priced = new Priced(4);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> codec.checkedJson("p", priced, codec.typeName("p", priced)),
        "a record with a getter goes to the mapper, which writes the getter and cannot read it back");
    assertTrue(refused.getMessage().contains("total"), refused.getMessage());
    Item odd = new Item("tab\there", "x", 1, 1);
    assertArrayEquals(MAPPER.write(odd), codec.checkedJson("i", odd, codec.typeName("i", odd)),
        "a value the writer leaves alone is written and checked by the mapper");
    Bump b = new Bump(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> codec.checkedJson("b", b, codec.typeName("b", b)));
    assertTrue(e.getMessage().contains("does not survive a JSON round trip"), e.getMessage());
    byte[] json = MAPPER.write(cart);
    assertTrue(codec.writesSame(cart, json, 0, json.length));
    Cart other = new Cart(cart.locale(), cart.currency(), cart.items(), "changed");
    assertFalse(codec.writesSame(other, json, 0, json.length));
    assertArrayEquals(MAPPER.write(other), codec.json(other));
  }

  @Test
  void theDeepestPlannedRecordIsWithinWhatATokenCarries() {
    // Eight records deep (the planner's limit), each holding the next in a list: the JSON the
    // codec stores without its carried-JSON check is still JSON a token's reader accepts.
    RecordPlan plan = RecordPlan.of(Set.of(L1.class)).get(L1.class);
    assertNotNull(plan);
    assertTrue(plan.writable());
    Object v = new L1(List.of(new L2(List.of(new L3(List.of(new L4(List.of(new L5(List.of(new L6(List.of(
        new L7(List.of(new L8("x")))))))))))))));
    byte[] json = PlainJsonWriter.write(v, plan);
    assertArrayEquals(MAPPER.write(v), json);
    byte[] carried = ("{\"v\":[" + new String(json, StandardCharsets.UTF_8) + "]}").getBytes(StandardCharsets.UTF_8);
    assertNotNull(StateIndex.of(carried), "indexed as a token's state would be");
    AttributeCodec codec = new AttributeCodec(MAPPER, Set.of(L1.class, L2.class, L3.class, L4.class,
        L5.class, L6.class, L7.class, L8.class));
    assertArrayEquals(json, codec.checkedJson("v", v, codec.typeName("v", v)));
  }

  record L1(List<L2> next) {}

  record L2(List<L3> next) {}

  record L3(List<L4> next) {}

  record L4(List<L5> next) {}

  record L5(List<L6> next) {}

  record L6(List<L7> next) {}

  record L7(List<L8> next) {}

  record L8(String leaf) {}

  @Test
  void generatedListsAndMapsAreWrittenAsTheMapperWritesThemOrLeftToIt() {
    Random r = new Random(43);
    int written = 0;
    for (int round = 0; round < 6000; round++) {
      Object value = r.nextBoolean() ? list(r, 0) : map(r, 0);
      byte[] expected = MAPPER.write(value);
      byte[] ours = PlainJsonWriter.writePlain(value, AttributeCodec.PLAIN_DEPTH, false);
      Boolean same = PlainJsonWriter.samePlain(value, AttributeCodec.PLAIN_DEPTH, expected, 0, expected.length);
      String text = new String(expected, StandardCharsets.UTF_8);
      if (ours == null) {
        assertNull(same, "write and compare give up on the same values");
        assertTrue(hasUnwritable(text) || text.matches("(?s).*[0-9]\\.[0-9].*|.*E[0-9-].*"),
            "gave up on " + text);
        continue;
      }
      written++;
      assertArrayEquals(expected, ours, text);
      assertEquals(Boolean.TRUE, same);
      if (ours.length > 2) {
        byte[] changed = ours.clone();
        changed[1 + r.nextInt(ours.length - 2)] ^= 0x01;
        assertEquals(Boolean.FALSE, PlainJsonWriter.samePlain(value, AttributeCodec.PLAIN_DEPTH, changed, 0,
            changed.length), text);
      }
    }
    assertTrue(written > 3000, "written without the mapper: " + written + " of 6000");
  }

  @Test
  void listsAndMapsItCannotMatchAreLeftToTheMapper() {
    assertNull(PlainJsonWriter.writePlain(List.of(1.5), 8, false), "a Double: its text is the mapper's");
    assertNull(PlainJsonWriter.writePlain(List.of(java.math.BigDecimal.ONE), 8, false), "not a plain value");
    Map<Object, Object> numberKeys = new java.util.HashMap<>();
    numberKeys.put(1, "a");
    assertNull(PlainJsonWriter.writePlain(numberKeys, 8, false), "a key that is not a string");
    Object deep = List.of();
    for (int i = 0; i < 8; i++) {
      deep = List.of(deep);
    }
    assertNull(PlainJsonWriter.writePlain(deep, 8, false), "nine levels, over the depth given");
    Object eight = ((List<?>) deep).get(0);
    assertArrayEquals(MAPPER.write(eight), PlainJsonWriter.writePlain(eight, 8, false), "eight levels are written");
    Map<String, Object> m = new java.util.TreeMap<>(Map.of("b", 2L, "a", List.of(true, "x")));
    assertArrayEquals(MAPPER.write(m), PlainJsonWriter.writePlain(m, 8, false));
    assertNull(PlainJsonWriter.writePlain(List.of(1L), 8, true), "a Long that fits an int reads back as an Integer");
    assertArrayEquals(MAPPER.write(List.of(1L)), PlainJsonWriter.writePlain(List.of(1L), 8, false),
        "but is written as the mapper writes it");
    assertArrayEquals(MAPPER.write(List.of(1L << 40)), PlainJsonWriter.writePlain(List.of(1L << 40), 8, true));
  }

  private static List<Object> list(Random r, int depth) {
    List<Object> l = r.nextInt(4) == 0 ? new LinkedList<>() : new ArrayList<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      l.add(element(r, depth));
    }
    return r.nextInt(5) == 0 ? List.copyOf(l.stream().filter(java.util.Objects::nonNull).toList()) : l;
  }

  private static Map<String, Object> map(Random r, int depth) {
    Map<String, Object> m = r.nextInt(3) == 0 ? new java.util.HashMap<>() : new java.util.LinkedHashMap<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      String k = text(r);
      m.put(k == null ? "k" + i : k, element(r, depth));
    }
    return m;
  }

  private static Object element(Random r, int depth) {
    switch (r.nextInt(depth < 3 ? 9 : 7)) {
      case 0:
        return null;
      case 1:
        return text(r);
      case 2:
        return r.nextInt() >> r.nextInt(32);
      case 3:
        return r.nextLong() >> r.nextInt(64);
      case 4:
        return r.nextBoolean();
      case 5:
        return r.nextInt(20) == 0 ? (Object) (r.nextDouble() * 1000) : "s" + r.nextInt(100);
      case 6:
        return text(r);
      case 7:
        return list(r, depth + 1);
      default:
        return map(r, depth + 1);
    }
  }

  /** A string the writer leaves to the mapper: a control character or an unpaired surrogate, escaped. */
  private static boolean hasUnwritable(String json) {
    return json.matches("(?s).*\\\\(u00[01]|[btnfr]|u[dD][89a-fA-F]).*");
  }

  private static Cart cart(Random r) {
    List<Item> items = new ArrayList<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      items.add(new Item(text(r), text(r), r.nextInt(2000) - 1000, r.nextLong() >> r.nextInt(64)));
    }
    return new Cart(text(r), text(r), r.nextInt(10) == 0 ? null : r.nextBoolean() ? items : List.copyOf(items),
        text(r));
  }

  private static Flags flags(Random r) {
    List<String> tags = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    List<Integer> small = new ArrayList<>();
    List<Boolean> bits = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      tags.add(text(r));
      ids.add(r.nextInt(6) == 0 ? null : r.nextLong() >> r.nextInt(64));
      small.add(r.nextInt(6) == 0 ? null : r.nextInt() >> r.nextInt(32));
      bits.add(r.nextInt(6) == 0 ? null : r.nextBoolean());
    }
    return new Flags(r.nextBoolean(), r.nextInt(3) == 0 ? null : r.nextBoolean(),
        r.nextInt(3) == 0 ? null : r.nextInt() >> r.nextInt(32),
        r.nextInt(3) == 0 ? null : r.nextLong() >> r.nextInt(64), r.nextInt(8) == 0 ? null : tags, ids,
        small, bits, r.nextInt(3) == 0 ? null : new Item(text(r), text(r), r.nextInt(), r.nextLong()));
  }

  /** Printable ASCII mostly; sometimes quotes, backslashes, other planes, controls and lone surrogates. */
  private static String text(Random r) {
    switch (r.nextInt(30)) {
      case 0:
        return null;
      case 1:
        return "";
      case 2:
        return "é \"q\" \\ / \u007f \u2028 \uFFFF";
      case 3:
        return "\uD83D\uDE00 pair";
      default:
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
          int k = r.nextInt(1000);
          if (k < 900) {
            b.append((char) (0x20 + r.nextInt(0x5f)));
          } else if (k < 995) {
            b.append((char) (0x80 + r.nextInt(0xD000)));
          } else if (k < 997) {
            b.append((char) r.nextInt(0x20));
          } else {
            b.append((char) (0xD800 + r.nextInt(0x800)));
          }
        }
        return b.toString();
    }
  }
}
