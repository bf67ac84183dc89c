package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PoolTest {
  final AtomicInteger made = new AtomicInteger();
  final Pool<Object> pool = new Pool<>(() -> {
    made.incrementAndGet();
    return new Object();
  });

  @Test
  void anObjectGivenBackIsTakenAgainInsteadOfMakingANewOne() {
    Object a = pool.take();
    pool.give(a);
    assertSame(a, pool.take());
    assertEquals(1, made.get());
  }

  @Test
  void objectsInUseAreNeverHandedOutTwice() {
    Object a = pool.take();
    Object b = pool.take();
    assertNotSame(a, b);
    assertEquals(2, made.get());
  }

  @Test
  void aFullPoolDropsWhatItCannotHoldInsteadOfGrowing() {
    for (int i = 0; i < 100; i++) {
      pool.give(new Object());
    }
    assertEquals(4, pool.size(), "a thread probes four slots and drops the rest");
  }

  @Test
  void aBoundedPoolKeepsNoMoreThanItsLimitAndSaysWhatItDropped() {
    Pool<Object> small = new Pool<>(Object::new, 2);
    int kept = 0;
    for (int i = 0; i < 10; i++) {
      kept += small.give(new Object()) ? 1 : 0;
    }
    assertEquals(2, kept, "two slots: the third and later objects are dropped, and give says so");
    assertEquals(2, small.size());
  }

  @Test
  void aBoundedPoolRoundsItsLimitUpToAPowerOfTwo() {
    Pool<Object> three = new Pool<>(Object::new, 3);
    for (int i = 0; i < 10; i++) {
      three.give(new Object());
    }
    assertEquals(4, three.size());
  }

  @Test
  void poolSizeFollowsTheCoresWithinBounds() {
    assertEquals(8, Pool.slots(1));
    assertEquals(8, Pool.slots(2));
    assertEquals(16, Pool.slots(3));
    assertEquals(32, Pool.slots(8));
    assertEquals(256, Pool.slots(1000));
  }
}
