package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.RevocationStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * No blocking call on an event-loop thread, checked by BlockHound (installed once for the test
 * JVM, with Reactor's and Netty's own integrations, which mark Reactor Netty's loop threads as
 * non-blocking). A revocation store that blocks like Jedis does is written off the loop.
 *
 * <p>The servers run on event loops of this class's own, started after BlockHound is installed:
 * BlockHound decides once per thread whether it may block, so Reactor Netty's shared loops,
 * started by a test class that ran earlier in the same JVM, would go unwatched.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NonBlockingTest {
  /** Every blocking call BlockHound saw on a non-blocking thread, as "Class.method". */
  static final List<String> BLOCKED = new CopyOnWriteArrayList<>();

  private LoopResources loops;

  @BeforeAll
  void installBlockHound() {
    Installed.once();
    loops = LoopResources.create("nonblocking-test", 2, true);
  }

  @AfterAll
  void stopLoops() {
    loops.disposeLater().block(Duration.ofSeconds(30));
  }

  /** BlockHound can be installed once per JVM. */
  static final class Installed {
    static {
      // No allowance: session ids and AES-GCM IVs come from core's once-seeded DRBG
      // (core.internal.SeededRandom), which reads no file after its seeding at build time.
      BlockHound.builder().loadIntegrations()
          .blockingMethodCallback(m -> {
            BLOCKED.add(m.getClassName() + "." + m.getName());
            throw new BlockingOperationError(m);
          }).install();
    }

    static void once() {}
  }

  /** A revocation store whose writes block as a network round trip does (Jedis). */
  static final class BlockingStore implements RevocationStore {
    private final RevocationStore memory = RevocationStore.inMemory(java.time.Clock.systemUTC());
    final List<String> writerThreads = new CopyOnWriteArrayList<>();

    @Override
    public boolean isRevoked(String sessionId) {
      return memory.isRevoked(sessionId);
    }

    @Override
    public Optional<Instant> notBefore(String subject) {
      return memory.notBefore(subject);
    }

    @Override
    public void revokeSession(String sessionId, Instant until) {
      writerThreads.add(Thread.currentThread().getName());
      try {
        Thread.sleep(5); // the round trip
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      memory.revokeSession(sessionId, until);
    }

    @Override
    public void revokeSubject(String subject, Instant notBefore, Instant until) {
      memory.revokeSubject(subject, notBefore, until);
    }
  }

  @Test
  void aBlockingCallOnTheEventLoopIsCaught() throws Exception {
    Map<String, NettyApp.Route> routes = new HashMap<>(Fixtures.cart());
    routes.put("/sleep", (ex, s) -> {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Mono.just("slept");
    });
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), routes, loops)) {
      BLOCKED.clear();
      assertEquals(500, new CookieClient().get(a.base() + "/sleep").status());
      // Thread.sleep on JDK 17, its native sleepNanos0 on JDK 25: BlockHound sees the native method.
      assertTrue(BLOCKED.stream().anyMatch(m -> m.startsWith("java.lang.Thread.sleep")), BLOCKED.toString());
    }
  }

  @Test
  void aNewSessionIdOnTheLoopReadsNoFileEvenOnceThePlatformRandomsBufferIsStale() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart(), loops)) {
      BLOCKED.clear();
      // NativePRNG refills its buffer from /dev/urandom once it is over 100 ms old: after this
      // pause a new id drawn from it would read the file on the loop (a 500 here). Not a timed
      // assert: the pause only makes that read certain; the id must draw on no file at all.
      Thread.sleep(150);
      assertEquals(200, new CookieClient().get(a.base() + "/add?item=tea").status(), BLOCKED.toString());
      assertEquals(List.of(), BLOCKED);
    }
  }

  /**
   * Every encrypted write draws a 96-bit IV. Each write here comes more than 100 ms after the
   * one before, so an IV taken from NativePRNG would find its buffer stale and read
   * {@code /dev/urandom} on the loop each time (BlockHound then fails the write with a 500).
   */
  @Test
  void anEncryptedWriteOnTheLoopReadsNoFileEvenOnceThePlatformRandomsBufferIsStale() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), Fixtures.cart(), loops)) {
      CookieClient c = new CookieClient();
      assertEquals(200, c.get(a.base() + "/add?item=tea").status(), BLOCKED.toString());
      BLOCKED.clear();
      for (String item : List.of("jam", "bread", "milk")) {
        Thread.sleep(150); // not a timed assert: makes a stale NativePRNG buffer certain
        assertEquals(200, c.get(a.base() + "/add?item=" + item).status(), item + " " + BLOCKED);
      }
      assertEquals(List.of(), BLOCKED);
      assertEquals("cart=[tea, jam, bread, milk]", c.get(a.base() + "/show").body(), "each write was kept");
    }
  }

  @Test
  void theSessionsWholeLifeNeverBlocksTheEventLoop() throws Exception {
    BlockingStore store = new BlockingStore();
    try (NettyApp a = new NettyApp(Fixtures.manager().revocation(store).build(), Fixtures.cart(), loops)) {
      BLOCKED.clear();
      CookieClient c = new CookieClient();
      for (String path : List.of("/add?item=tea", "/show", "/login", "/add?item=jam", "/show", "/logout", "/show")) {
        assertEquals(200, c.get(a.base() + path).status(), path + " " + BLOCKED);
      }
      assertEquals(List.of(), BLOCKED);
      assertEquals(1, store.writerThreads.size());
      assertTrue(store.writerThreads.get(0).startsWith("boundedElastic"), store.writerThreads.toString());
    }
  }
}
