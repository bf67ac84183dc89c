package dev.sessionless.core.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * A small, bounded, lock-free pool of reusable objects, owned by whoever holds the pool (a key's
 * engine, a class's static field) and never by a thread.
 *
 * <p>Why not a {@code ThreadLocal}: values kept per thread stay reachable from a container's
 * long-lived worker threads after the webapp that made them is undeployed (pinning its class
 * loader), keep a keyed {@code Mac} with a retired secret alive in every thread, and are built
 * again for every request on virtual threads. A pool lives exactly as long as its owner and
 * serves any thread.
 *
 * <p>{@link #take()} returns a pooled object or a new one; {@link #give(Object)} puts it back, or
 * drops it when the slots it probes are full. A thread starts probing at a slot derived from
 * its identity, so uncontended threads keep meeting their own objects. At most a few slots are
 * probed: a miss costs one new object, never a wait.
 */
final class Pool<T> {
  private static final int SLOTS = slots(Runtime.getRuntime().availableProcessors());
  private static final int PROBES = 4;

  private final AtomicReferenceArray<T> slots;
  private final int mask;
  private final Supplier<? extends T> factory;

  /** @param factory makes a new object when no pooled one is free */
  public Pool(Supplier<? extends T> factory) {
    this(factory, SLOTS);
  }

  /**
   * A pool that keeps at most {@code atMost} objects (rounded up to a power of two), for objects
   * too large to keep a few per core.
   *
   * @param factory makes a new object when no pooled one is free
   * @param atMost the most objects kept, at least 1
   */
  public Pool(Supplier<? extends T> factory, int atMost) {
    if (atMost < 1) {
      throw new IllegalArgumentException("a pool keeps at least one object");
    }
    int n = Integer.highestOneBit(atMost);
    n = n == atMost ? n : n << 1;
    this.slots = new AtomicReferenceArray<>(n);
    this.mask = n - 1;
    this.factory = factory;
  }

  static int slots(int cores) {
    int n = Integer.highestOneBit(Math.max(1, cores) * 4 - 1) << 1;
    return Math.max(8, Math.min(256, n));
  }

  /** A pooled object if one is free near this thread's slot, else a new one. */
  public T take() {
    int start = start();
    for (int k = 0; k < PROBES; k++) {
      int i = (start + k) & mask;
      T t = slots.get(i);
      if (t != null && slots.compareAndSet(i, t, null)) {
        return t;
      }
    }
    return factory.get();
  }

  /**
   * Returns {@code t} to the pool; it is dropped if the probed slots are all taken.
   *
   * @return whether the pool kept {@code t} (a dropped object may need closing)
   */
  public boolean give(T t) {
    int start = start();
    for (int k = 0; k < PROBES; k++) {
      int i = (start + k) & mask;
      if (slots.get(i) == null && slots.compareAndSet(i, null, t)) {
        return true;
      }
    }
    return false;
  }

  /** How many objects sit in the pool now (for tests). */
  int size() {
    int n = 0;
    for (int i = 0; i < slots.length(); i++) {
      if (slots.get(i) != null) {
        n++;
      }
    }
    return n;
  }

  /** The objects that sit in the pool now, left in place (for tests). */
  java.util.List<T> pooledNow() {
    java.util.List<T> now = new java.util.ArrayList<>();
    for (int i = 0; i < slots.length(); i++) {
      T t = slots.get(i);
      if (t != null) {
        now.add(t);
      }
    }
    return now;
  }

  private static int start() {
    // The thread's id, spread (a field read; identityHashCode of a Thread took 3% of a decode).
    long h = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32);
  }
}
