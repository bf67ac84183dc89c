package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The in-place check's snapshot: it says "unchanged" only while a value holds exactly the
 * objects it held, and has nothing to say (the JSON decides) about values it cannot vouch for.
 */
class SnapshotTest {
  public record Line(String sku, int quantity) {}

  public record Priced(String sku, long cents, double weight, boolean gift, char size) {}

  public record Named(String name) {
    @Override
    public String name() {
      return new String(name.toCharArray()); // a new String on every read
    }
  }

  public record Cart(String owner, List<Line> lines, Map<String, List<String>> notes) {}

  public record WithArray(String[] names) {}

  public record Price(BigDecimal amount) {}

  /** BigDecimal is not final: a subclass may carry state that changes. */
  static final class MutableDecimal extends BigDecimal {
    private static final long serialVersionUID = 1L;
    int hint;

    MutableDecimal() {
      super("1");
    }
  }

  public record Throwing(String name) {
    @Override
    public String name() {
      throw new IllegalStateException("no");
    }
  }

  /** A bean: its setters change it without any object it holds changing identity. */
  public static final class Bean {
    public int count;
  }

  public enum Plain { A, B }

  public enum WithCounter {
    A;
    int uses; // mutable state: JSON written through @JsonValue could show it
  }

  private final ValueWalker walker = new ValueWalker();

  private static Cart cart() {
    List<Line> lines = new ArrayList<>(List.of(new Line("a", 1), new Line("b", 2)));
    Map<String, List<String>> notes = new LinkedHashMap<>();
    notes.put("gift", new ArrayList<>(List.of("wrap")));
    return new Cart("ann", lines, notes);
  }

  private Snapshot of(Object value) {
    Snapshot s = Snapshot.of(value, walker);
    assertNotNull(s, "a snapshot of " + value);
    return s;
  }

  @Test
  void untouchedValueIsUnchanged() {
    Cart c = cart();
    Snapshot s = of(c);
    assertTrue(s.unchanged(c, walker));
    assertTrue(s.unchanged(c, walker), "checking changes nothing");
  }

  @Test
  void addingRemovingReplacingOrReorderingAnElementIsAChange() {
    Cart c = cart();
    Snapshot s = of(c);
    c.lines().add(new Line("c", 1));
    assertFalse(s.unchanged(c, walker), "added");

    c = cart();
    s = of(c);
    c.lines().remove(1);
    assertFalse(s.unchanged(c, walker), "removed");

    c = cart();
    s = of(c);
    c.lines().set(0, new Line("a", 1));
    assertFalse(s.unchanged(c, walker), "replaced, even by an equal line: the JSON decides");

    c = cart();
    s = of(c);
    c.lines().add(c.lines().remove(0));
    assertFalse(s.unchanged(c, walker), "reordered");
  }

  @Test
  void primitiveComponentsAreComparedByValueAndNewStringsByEquality() {
    List<Object> list = new ArrayList<>(List.of(new Priced("a", 123_456_789L, 0.5, true, 'M'), new Named("n")));
    Snapshot s = of(list);
    assertTrue(s.unchanged(list, walker), "a long read twice is two Long objects, but the same value");
    list.set(0, new Priced("a", 123_456_789L, 0.5, true, 'M'));
    assertFalse(s.unchanged(list, walker), "another record: the JSON decides");
    s = of(list);
    list.set(0, new Priced("a", 123_456_780L, 0.5, true, 'M'));
    assertFalse(s.unchanged(list, walker));
  }

  @Test
  void changeNestedInAMapOfListsIsAChange() {
    Cart c = cart();
    Snapshot s = of(c);
    c.notes().get("gift").add("card");
    assertFalse(s.unchanged(c, walker));

    c = cart();
    s = of(c);
    c.notes().put("gift", c.notes().get("gift")); // the same list again: nothing changed
    assertTrue(s.unchanged(c, walker));
    c.notes().put("other", new ArrayList<>());
    assertFalse(s.unchanged(c, walker));
  }

  @Test
  void movingAnElementIntoANestedListIsAChangeThoughTheSameObjectsAreSeen() {
    List<Object> inner = new ArrayList<>(List.of("a"));
    List<Object> outer = new ArrayList<>(List.of(inner, "b"));
    Snapshot s = of(outer);
    inner.add(outer.remove(1)); // [[a], b] -> [[a, b]]: the same objects in the same order
    assertFalse(s.unchanged(outer, walker));
  }

  @Test
  void immutableJdkValuesAndPlainEnumsNeedNothingMore() {
    Map<String, Object> m = new HashMap<>();
    m.put("n", 1L);
    m.put("d", new BigDecimal("1.50"));
    m.put("u", UUID.randomUUID());
    m.put("t", Instant.EPOCH);
    m.put("e", Plain.A);
    Snapshot s = of(m);
    assertTrue(s.unchanged(m, walker));
    m.put("e", Plain.B);
    assertFalse(s.unchanged(m, walker));
    assertTrue(walker.isLeaf(Plain.class));
  }

  @Test
  void valuesItCannotVouchForHaveNoSnapshot() {
    assertNull(Snapshot.of(new Bean(), walker), "a bean changes through its setters");
    assertNull(Snapshot.of(new WithArray(new String[] {"a"}), walker), "an array changes in place");
    assertNull(Snapshot.of(List.of(WithCounter.A), walker), "an enum with a mutable field");
    assertNull(Snapshot.of(new Throwing("x"), walker), "an accessor that throws");
    assertNull(Snapshot.of(List.of(new Bean()), walker), "a bean inside a list");
  }

  @Test
  void onlyTheExactImmutableJdkClassesAreLeavesNotTheirSubclasses() {
    assertNotNull(Snapshot.of(new Price(new BigDecimal("1")), walker));
    assertNull(Snapshot.of(new Price(new MutableDecimal()), walker));
    assertNull(Snapshot.of(List.of(new MutableDecimal()), walker));
  }

  @Test
  void aCycleHasNoSnapshotInsteadOfOverflowingTheStack() {
    List<Object> loop = new ArrayList<>();
    loop.add(loop);
    assertNull(Snapshot.of(loop, walker));
  }

  @Test
  void aValueTooLargeToRecordHasNoSnapshot() {
    List<Integer> big = new ArrayList<>();
    for (int i = 0; i < Snapshot.MAX_OBJECTS; i++) {
      big.add(i);
    }
    assertNull(Snapshot.of(big, walker));
    big.subList(0, 2).clear();
    assertEquals(Snapshot.MAX_OBJECTS, of(big).size(), "the list, its elements and the end marker");
  }

  @Test
  void aValueThatBecameUnvouchableIsAChange() {
    List<Object> list = new ArrayList<>(List.of("a"));
    Snapshot s = of(list);
    list.set(0, new Bean());
    assertFalse(s.unchanged(list, walker));
  }
}
