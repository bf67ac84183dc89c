package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContainerInitializer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parallel requests carrying one session. A stateless session has no server copy to lock, so
 * each request starts from the token it brought and answers with a token holding that state
 * plus its own changes: the browser keeps whichever cookie arrives last (last writer wins).
 * These tests pin that rule and that nothing is corrupted on the way: every answer is 200, every
 * token it writes is valid, complete and holds exactly its own request's change.
 */
class ConcurrentSessionTest {
  static final int PARALLEL = 24;

  static Stream<Arguments> containers() {
    ContainerFactory factory = Containers.underTest();
    return Stream.of(Arguments.of(factory.name(), (Function<ServletContainerInitializer, Container>) factory::start));
  }

  static Container start(Function<ServletContainerInitializer, Container> kind) {
    KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM));
    return kind.apply((classes, ctx) -> {
      ctx.addFilter("sessionless", SessionlessFilter.builder().keys(keys).issuer("https://it.example")
              .audience("it").cookieName("SL").attributeTypes(Cart.class).build())
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
  }

  static <T> List<T> inParallel(List<Callable<T>> calls) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(calls.size());
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> call : calls) {
        futures.add(pool.submit(() -> {
          go.await();
          return call.call();
        }));
      }
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("containers")
  void parallelWritesEachYieldAValidTokenWithTheBaseStateAndOnlyTheirOwnChange(
      String name, Function<ServletContainerInitializer, Container> kind) throws Exception {
    try (Container container = start(kind)) {
      TestClient setup = new TestClient(container);
      setup.get("/s/set?name=base&value=kept");
      setup.get("/s/setcart?value=apple");
      Map<String, String> cookie = Map.copyOf(setup.cookies);

      List<Callable<Map<String, String>>> writes = new ArrayList<>();
      for (int i = 0; i < PARALLEL; i++) {
        int n = i;
        writes.add(() -> {
          TestClient c = new TestClient(container);
          c.cookies.putAll(cookie);
          TestClient.Reply r = c.get("/s/set?name=p" + n + "&value=v" + n);
          assertEquals(200, r.status, r.body);
          assertEquals(1, r.setCookie("SL").size(), "a change writes the cookie");
          return Map.copyOf(c.cookies);
        });
      }
      List<Map<String, String>> written = inParallel(writes);

      String session = null;
      for (int i = 0; i < PARALLEL; i++) {
        TestClient reader = new TestClient(container);
        reader.cookies.putAll(written.get(i));
        TestClient.Reply r = reader.get("/s/read");
        assertEquals(200, r.status, r.body);
        assertEquals("true", r.get("requestedValid"), "token " + i + " is valid");
        assertEquals("kept:String", r.get("attr.base"), "token " + i + " kept the base state");
        assertEquals("[apple]:Cart", r.get("attr.cart"), "token " + i + " kept the cart");
        assertEquals("v" + i + ":String", r.get("attr.p" + i), "token " + i + " holds its own write");
        for (int j = 0; j < PARALLEL; j++) {
          if (j != i) {
            assertNull(r.get("attr.p" + j), "token " + i + " holds no other request's write");
          }
        }
        if (session == null) {
          session = r.get("session");
        }
        assertEquals(session, r.get("session"), "one session id in every token");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("containers")
  void parallelReadsSeeTheSameStateAndWriteNothing(
      String name, Function<ServletContainerInitializer, Container> kind) throws Exception {
    try (Container container = start(kind)) {
      TestClient setup = new TestClient(container);
      setup.get("/s/setcart?value=apple");
      Map<String, String> cookie = Map.copyOf(setup.cookies);
      List<Callable<TestClient.Reply>> reads = new ArrayList<>();
      for (int i = 0; i < PARALLEL; i++) {
        reads.add(() -> {
          TestClient c = new TestClient(container);
          c.cookies.putAll(cookie);
          return c.get("/s/read");
        });
      }
      for (TestClient.Reply r : inParallel(reads)) {
        assertEquals(200, r.status, r.body);
        assertEquals("[apple]:Cart", r.get("attr.cart"));
        assertTrue(r.setCookies.isEmpty(), "a read writes nothing: " + r.setCookies);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("containers")
  void theCookieThatArrivesLastWins(String name, Function<ServletContainerInitializer, Container> kind) {
    try (Container container = start(kind)) {
      TestClient browser = new TestClient(container);
      browser.get("/s/set?name=base&value=kept");
      Map<String, String> before = Map.copyOf(browser.cookies);
      TestClient tabOne = new TestClient(container);
      tabOne.cookies.putAll(before);
      TestClient tabTwo = new TestClient(container);
      tabTwo.cookies.putAll(before);
      tabOne.get("/s/set?name=first&value=1");
      tabTwo.get("/s/set?name=second&value=2"); // started from the same token, answered last
      browser.cookies.clear();
      browser.cookies.putAll(tabTwo.cookies); // one cookie jar: the later Set-Cookie replaces the earlier
      TestClient.Reply r = browser.get("/s/read");
      assertEquals("kept:String", r.get("attr.base"));
      assertEquals("2:String", r.get("attr.second"));
      assertNull(r.get("attr.first"), "the earlier tab's write is overwritten, not merged");
    }
  }
}
