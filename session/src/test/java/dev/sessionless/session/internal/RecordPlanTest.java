package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sessionless.core.StateMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Registered records read without the mapper: whatever {@link PlainJsonReader#readRecord}
 * accepts, the default mapper reads to an equal record, and the plan is only made for records
 * whose JSON nothing but their components shapes.
 */
@ExtendWith(RecordsFastPathOn.class)
class RecordPlanTest {
  private static final StateMapper MAPPER = StateMapper.defaults();

  record Item(String sku, String name, int quantity, long priceCents) {}

  record Cart(String locale, String currency, List<Item> items, String promotion) {}

  record Flags(boolean on, Boolean maybe, Integer count, Long big, List<String> tags, List<Long> ids,
      List<Integer> small, Item item) {}

  record Empty() {}

  /** Not idempotent: every read adds one, so a value never reads back as itself. */
  record Bump(int n) {
    Bump {
      n = n + 1;
    }
  }

  record Refuses(int n) {
    Refuses {
      if (n < 0) {
        throw new IllegalArgumentException("negative");
      }
    }
  }

  record Renamed(@JsonProperty("x") String a) {}

  record Loose(Object anything) {}

  record Tree(String label, List<Tree> children) {}

  record Decimal(double d) {}

  private static final Set<Class<?>> TYPES = Set.of(Item.class, Cart.class, Flags.class,
      Empty.class, Bump.class, Refuses.class, Renamed.class, Loose.class, Tree.class, Decimal.class);
  private static final Map<Class<?>, RecordPlan> PLANS = RecordsFastPathOn.plans(TYPES);
  /** What a filter may register (the codec refuses {@code Loose}: an Object component). */
  private static final Set<Class<?>> REGISTERED = Set.of(Item.class, Cart.class, Flags.class,
      Empty.class, Bump.class, Refuses.class);

  @Test
  void onlyRecordsShapedByTheirComponentsAloneGetAPlan() {
    for (Class<?> c : List.of(Item.class, Cart.class, Flags.class, Empty.class, Bump.class, Refuses.class)) {
      assertNotNull(PLANS.get(c), c.getSimpleName());
    }
    assertNull(PLANS.get(Renamed.class), "a Jackson annotation renames a member");
    assertNull(PLANS.get(Loose.class), "an Object component: the mapper picks its class");
    assertNull(PLANS.get(Tree.class), "a record that holds itself");
    assertNull(PLANS.get(Decimal.class), "a double: its text is the mapper's to read");
  }

  @Test
  void aCartReadsAsTheMapperReadsItWithAMutableList() {
    Cart cart = new Cart("en-GB", "GBP", new ArrayList<>(List.of(
        new Item("SKU-1", "Beans", 1, 2490), new Item("SKU-2", null, -3, Long.MAX_VALUE / 1000))), "W-1");
    byte[] json = MAPPER.write(cart);
    Object fast = PlainJsonReader.readRecord(json, 0, json.length, PLANS.get(Cart.class));
    assertEquals(cart, fast);
    assertEquals(MAPPER.read(json, 0, json.length, Cart.class), fast);
    assertSame(ArrayList.class, ((Cart) fast).items().getClass());
    assertEquals(new Empty(), PlainJsonReader.readRecord("{}".getBytes(StandardCharsets.US_ASCII), 0, 2,
        PLANS.get(Empty.class)));
  }

  @Test
  void generatedRecordsReadEqualToTheMappersAndMostTakeTheFastPath() {
    Random r = new Random(17);
    int fastReads = 0;
    for (int round = 0; round < 4000; round++) {
      Object value = round % 2 == 0 ? cart(r) : flags(r);
      byte[] json = MAPPER.write(value);
      Object fast = PlainJsonReader.readRecord(json, 0, json.length, PLANS.get(value.getClass()));
      if (fast != PlainJsonReader.NOT_PLAIN) {
        fastReads++;
        assertEquals(MAPPER.read(json, 0, json.length, value.getClass()), fast, new String(json, StandardCharsets.UTF_8));
        assertEquals(value, fast);
      }
    }
    assertTrue(fastReads > 2000, "the fast path read " + fastReads + " of 4000");
  }

  @Test
  void mutatedJsonIsEitherHandedToTheMapperOrReadExactlyAsTheMapperReadsIt() {
    Random r = new Random(23);
    String alphabet = "{}[],:\"0123456789-.eEtrufalsn \\abcxyz";
    int accepted = 0;
    for (int round = 0; round < 30_000; round++) {
      Object value = round % 2 == 0 ? cart(r) : flags(r);
      byte[] json = MAPPER.write(value);
      byte[] m = mutate(json, r, alphabet);
      Object fast = PlainJsonReader.readRecord(m, 0, m.length, PLANS.get(value.getClass()));
      if (fast == PlainJsonReader.NOT_PLAIN) {
        continue;
      }
      accepted++;
      Object slow;
      try {
        slow = MAPPER.read(m, 0, m.length, value.getClass());
      } catch (RuntimeException e) {
        fail("accepted what the mapper refuses: " + new String(m, StandardCharsets.UTF_8) + " (" + e + ")");
        return;
      }
      assertEquals(slow, fast, new String(m, StandardCharsets.UTF_8));
    }
    assertTrue(accepted > 100, "some mutations stay valid and are read: " + accepted);
  }

  @Test
  void aConstructorThatRefusesHandsTheJsonToTheMapperWhichWordsTheRefusal() {
    byte[] json = "{\"n\":-1}".getBytes(StandardCharsets.US_ASCII);
    assertSame(PlainJsonReader.NOT_PLAIN, PlainJsonReader.readRecord(json, 0, json.length, PLANS.get(Refuses.class)));
    AttributeCodec codec = new AttributeCodec(MAPPER, REGISTERED);
    assertThrows(RuntimeException.class, () -> codec.read(Refuses.class, json, 0, json.length));
    assertEquals(new Refuses(4), codec.read(Refuses.class, "{\"n\":4}".getBytes(StandardCharsets.US_ASCII), 0, 7));
  }

  @Test
  void aRecordThatDoesNotReadBackAsItselfIsStillRefusedAtSetAttribute() {
    AttributeCodec codec = new AttributeCodec(MAPPER, REGISTERED);
    Bump b = new Bump(1); // n is 2; read back, it becomes 3
    byte[] json = MAPPER.write(b);
    assertEquals(new Bump(2), PlainJsonReader.readRecord(json, 0, json.length, PLANS.get(Bump.class)),
        "the fast path builds it through the same constructor");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> codec.checkedJson("b", b, codec.typeName("b", b)));
    assertTrue(e.getMessage().contains("does not survive a JSON round trip"), e.getMessage());
  }

  private static Cart cart(Random r) {
    List<Item> items = new ArrayList<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      items.add(new Item(text(r), text(r), r.nextInt(2000) - 1000, r.nextLong() >> r.nextInt(64)));
    }
    return new Cart(text(r), text(r), r.nextInt(10) == 0 ? null : items, text(r));
  }

  private static Flags flags(Random r) {
    List<String> tags = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    List<Integer> small = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      tags.add(text(r));
      ids.add(r.nextInt(6) == 0 ? null : r.nextLong() >> r.nextInt(64));
      small.add(r.nextInt(6) == 0 ? null : r.nextInt() >> r.nextInt(32));
    }
    return new Flags(r.nextBoolean(), r.nextInt(3) == 0 ? null : r.nextBoolean(),
        r.nextInt(3) == 0 ? null : r.nextInt() >> r.nextInt(32),
        r.nextInt(3) == 0 ? null : r.nextLong() >> r.nextInt(64), tags, ids, small,
        r.nextInt(3) == 0 ? null : new Item(text(r), text(r), r.nextInt(), r.nextLong()));
  }

  private static String text(Random r) {
    switch (r.nextInt(40)) {
      case 0:
        return null;
      case 1:
        return "";
      case 2:
        return "é \"q\" \\ \n";
      default:
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
          b.append((char) (0x20 + r.nextInt(0x5f)));
        }
        return b.toString();
    }
  }

  private static byte[] mutate(byte[] json, Random r, String alphabet) {
    StringBuilder s = new StringBuilder(new String(json, StandardCharsets.ISO_8859_1));
    for (int k = 1 + r.nextInt(2); k > 0 && s.length() > 0; k--) {
      int at = r.nextInt(s.length());
      switch (r.nextInt(3)) {
        case 0:
          s.deleteCharAt(at);
          break;
        case 1:
          s.insert(at, alphabet.charAt(r.nextInt(alphabet.length())));
          break;
        default:
          s.setCharAt(at, alphabet.charAt(r.nextInt(alphabet.length())));
      }
    }
    return s.toString().getBytes(StandardCharsets.ISO_8859_1);
  }
}
