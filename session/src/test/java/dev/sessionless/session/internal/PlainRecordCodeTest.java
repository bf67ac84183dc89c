package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.StateMapper;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which records skip {@code setAttribute}'s round-trip check: exactly those whose canonical
 * constructor and accessors are the compiler's own, read from their bytecode. Any code of the
 * application's in either keeps the check, and the check still refuses what does not read back.
 */
class PlainRecordCodeTest {
  private static final StateMapper MAPPER = StateMapper.defaults();

  record Item(String sku, String name, int quantity, long priceCents) {}

  record Cart(String locale, String currency, List<Item> items, String promotion) {}

  /** Every kind of component, and longs past local slot 3 (the two-byte load instructions). */
  record Wide(long a, long b, boolean c, Integer d, Long e, Boolean f, String g, int h, long i, List<String> j) {}

  record EmptyCompact(String a) {
    EmptyCompact {
    }
  }

  record Checked(String a) {
    Checked {
      Objects.requireNonNull(a, "a");
    }
  }

  record Trimmed(String a) {
    Trimmed {
      a = a == null ? null : a.trim();
    }
  }

  /** An accessor that computes: the JSON holds what it returns, the next read wraps that again. */
  record Exclaimed(String word) {
    @Override
    public String word() {
      return word + "!";
    }
  }

  record Shouted(String word) {
    @Override
    public String word() {
      return word == null ? null : word.toUpperCase(Locale.ROOT);
    }
  }

  /** Plain itself, but holding a record whose constructor checks: rebuilt, as a whole. */
  record Holder(Checked inner, List<Item> items) {}

  @Test
  void theCompilersOwnConstructorAndAccessorsAreRecognised() {
    for (Class<?> c : List.of(Item.class, Cart.class, Wide.class, EmptyCompact.class)) {
      assertTrue(PlainRecordCode.isPlain(c), c.getSimpleName());
    }
  }

  @Test
  void anyCodeOfTheApplicationsKeepsTheCheck() {
    for (Class<?> c : List.of(Checked.class, Trimmed.class, Exclaimed.class, Shouted.class)) {
      assertFalse(PlainRecordCode.isPlain(c), c.getSimpleName());
    }
  }

  @Test
  void aPlanSkipsTheRebuildOnlyWhenEveryRecordInItIsPlain() {
    var plans = RecordPlan.of(Set.of(Cart.class, Item.class, Holder.class, Checked.class, Wide.class, Exclaimed.class));
    assertTrue(plans.get(Cart.class).rebuildsUnchanged);
    assertTrue(plans.get(Wide.class).rebuildsUnchanged);
    assertFalse(plans.get(Checked.class).rebuildsUnchanged);
    assertFalse(plans.get(Holder.class).rebuildsUnchanged, "a nested record with a checking constructor");
    assertFalse(plans.get(Exclaimed.class).rebuildsUnchanged);
  }

  @Test
  void whatSkipsTheCheckReadsBackEqualAndWhatKeepsItIsStillRefused() {
    AttributeCodec codec = new AttributeCodec(MAPPER, Set.of(Cart.class, Item.class, Wide.class, Exclaimed.class,
        Trimmed.class));
    Random r = new Random(11);
    for (int i = 0; i < 500; i++) {
      Cart cart = new Cart("en-GB", r.nextBoolean() ? "GBP" : null,
          List.of(new Item("SKU-" + r.nextInt(10_000), "n\u00e9 " + i, r.nextInt(), r.nextLong())), "P" + i);
      byte[] json = codec.checkedJson("cart", cart, codec.typeName("cart", cart));
      assertArrayEquals(MAPPER.write(cart), json);
      assertEquals(cart, MAPPER.read(json, 0, json.length, Cart.class), "reads back equal");
      Wide w = new Wide(r.nextLong(), -1, r.nextBoolean(), r.nextInt(), null, true, "g", 7, Long.MIN_VALUE,
          List.of("x", "y"));
      byte[] wj = codec.checkedJson("w", w, codec.typeName("w", w));
      assertEquals(w, MAPPER.read(wj, 0, wj.length, Wide.class));
    }
    Exclaimed e = new Exclaimed("hi");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> codec.checkedJson("e", e, codec.typeName("e", e)));
    assertTrue(refused.getMessage().contains("does not survive a JSON round trip"), refused.getMessage());
    Trimmed padded = new Trimmed("a");
    assertArrayEquals(MAPPER.write(padded), codec.checkedJson("t", padded, codec.typeName("t", padded)),
        "a constructor that normalises what it already normalised reads back the same: kept");
  }
}
