package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.Collected;
import dev.sessionless.testing.FakeClock;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hot path keeps nothing per thread: no keyed {@code Mac} or {@code Cipher} (which hold a
 * key's secret) and no object of this library sits in a thread's {@code ThreadLocal} values, so
 * a retired key's secret leaves memory with the key. Reads each worker's thread-local map by
 * reflection (the build opens {@code java.lang} to the tests for this).
 */
class ThreadStateTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final ExecutorService workers = Executors.newFixedThreadPool(3);
  final List<Thread> seen = new ArrayList<>();

  @AfterEach
  void stop() {
    workers.shutdownNow();
  }

  TokenCodec codec(KeySource keys, Algorithm a) {
    return TokenCodec.builder().keys(keys).algorithm(a).issuer("i").audience("a").clock(clock)
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  /** Runs {@code task} once on each worker thread, remembering the threads. */
  void onEveryWorker(Runnable task) throws Exception {
    List<java.util.concurrent.Future<Thread>> fs = new ArrayList<>();
    java.util.concurrent.CyclicBarrier all = new java.util.concurrent.CyclicBarrier(3);
    for (int i = 0; i < 3; i++) {
      fs.add(workers.submit(() -> {
        all.await(); // one task per thread
        task.run();
        return Thread.currentThread();
      }));
    }
    for (java.util.concurrent.Future<Thread> f : fs) {
      Thread t = f.get();
      if (!seen.contains(t)) {
        seen.add(t);
      }
    }
  }

  @Test
  void noThreadKeepsAKeyedMacACipherOrAnyObjectOfTheLibrary() throws Exception {
    for (Algorithm a : Algorithm.values()) {
      TokenCodec codec = codec(KeySet.of(TokenKey.generate("k-" + a, a)), a);
      onEveryWorker(() -> {
        String token = codec.encode(Claims.builder().put("n", 1).build());
        assertEquals(1, codec.decode(token).get("n", Integer.class).orElseThrow());
      });
    }
    assertEquals(3, seen.size());
    for (Thread t : seen) {
      for (Object v : threadLocalValues(t)) {
        assertTrue(!(v instanceof Mac) && !(v instanceof Cipher)
            && !v.getClass().getName().startsWith("dev.sessionless."),
            t.getName() + " keeps a " + v.getClass().getName() + " in a ThreadLocal");
      }
    }
  }

  @Test
  void retiredKeyAndItsKeyedMacsAreCollectedAfterRotation() throws Exception {
    TokenKey old = TokenKey.generate("old", Algorithm.HS256);
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(old));
    TokenCodec codec = codec(live::get, Algorithm.HS256);
    String oldToken = codec.encode(Claims.builder().build());
    onEveryWorker(() -> codec.decode(oldToken));
    WeakReference<TokenKey> oldRef = new WeakReference<>(old);
    old = null;

    live.set(KeySet.of(TokenKey.generate("new", Algorithm.HS256)));
    String newToken = codec.encode(Claims.builder().build());
    onEveryWorker(() -> codec.decode(newToken));

    Collected.awaitCleared(oldRef); // collections until cleared, bounded: not a bet on the machine's speed
    assertNull(oldRef.get(), "the retired key (and the keyed Macs its engine pooled) is still reachable");
    for (Thread t : seen) {
      for (Object v : threadLocalValues(t)) {
        assertTrue(!(v instanceof Mac), t.getName() + " keeps a keyed Mac");
      }
    }
  }

  /** The values of a thread's ThreadLocals (referents of references unwrapped). */
  static List<Object> threadLocalValues(Thread t) throws ReflectiveOperationException {
    List<Object> out = new ArrayList<>();
    Field locals = Thread.class.getDeclaredField("threadLocals");
    locals.setAccessible(true);
    Object map = locals.get(t);
    if (map == null) {
      return out;
    }
    Field table = map.getClass().getDeclaredField("table");
    table.setAccessible(true);
    Object entries = table.get(map);
    for (int i = 0; i < Array.getLength(entries); i++) {
      Object e = Array.get(entries, i);
      if (e == null) {
        continue;
      }
      Field value = e.getClass().getDeclaredField("value");
      value.setAccessible(true);
      Object v = value.get(e);
      while (v instanceof Reference) {
        v = ((Reference<?>) v).get();
      }
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }
}
