package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A built {@link Claims} shares its builder's maps until the builder changes again: it never changes. */
class ClaimsBuilderTest {
  @Test
  void changingTheBuilderAfterBuildLeavesEveryBuiltClaimsAsItWas() {
    Claims.Builder b = Claims.builder().put("a", 1).put("b", "two").claim("tenant", "t1");
    Claims first = b.build();
    b.put("c", 3).remove("a").claim("tenant", "t2").authTime(Instant.ofEpochSecond(1_800_000_000L));
    Claims second = b.build();
    b.clearState();
    b.removeClaim("tenant");
    Claims third = b.build();

    assertEquals(Map.of("a", 1, "b", "two"), first.state());
    assertEquals(List.of("a", "b"), List.copyOf(first.state().keySet()), "insertion order kept");
    assertEquals(Map.of("tenant", "t1"), first.claims());
    assertEquals(Map.of("b", "two", "c", 3), second.state());
    assertEquals("t2", second.claims().get("tenant"));
    assertEquals(1_800_000_000L, second.claims().get(SessionToken.AUTH_TIME));
    assertEquals(Map.of(), third.state());
    assertEquals(Map.of(SessionToken.AUTH_TIME, 1_800_000_000L), third.claims());
    assertThrows(UnsupportedOperationException.class, () -> first.state().put("x", 1));
    assertThrows(UnsupportedOperationException.class, () -> second.claims().clear());
  }

  @Test
  void toBuilderStartsFromACopy() {
    Claims base = Claims.builder().put("a", 1).build();
    Claims changed = base.toBuilder().put("a", 2).build();
    assertEquals(1, base.state().get("a"));
    assertEquals(2, changed.state().get("a"));
  }

  @Test
  void claimsStartEmptyAndCanBeAddedRemovedAndCopiedInAnyOrder() {
    Claims.Builder b = Claims.builder().removeClaim("nothing-yet");
    Claims none = b.build();
    assertEquals(Map.of(), none.claims());
    Claims one = b.removeClaim("still-nothing").claim("tenant", "t1").build();
    assertEquals(Map.of(), none.claims(), "the first built Claims keeps no claims");
    assertEquals(Map.of("tenant", "t1"), one.claims());
    assertEquals(Map.of("tenant", "t1"), one.toBuilder().build().claims());
    Claims copied = none.toBuilder().claim("tenant", "t2").build();
    assertEquals(Map.of("tenant", "t2"), copied.claims());
    assertEquals(Map.of(), none.toBuilder().removeClaim("tenant").build().claims());
    Claims emptied = one.toBuilder().removeClaim("tenant").build();
    assertEquals(Map.of(), emptied.claims());
    assertEquals(Map.of("tenant", "t1"), one.claims(), "removing from a copy leaves the original");
    assertThrows(UnsupportedOperationException.class, () -> none.claims().put("x", 1));
  }
}
