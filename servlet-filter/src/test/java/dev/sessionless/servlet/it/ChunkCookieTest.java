package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Chunk cookies beyond the configured limit are all cleared, over real HTTP. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChunkCookieTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;


  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("shop", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("SHOP").build()).addMappingForUrlPatterns(null, false, "/s/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  private static List<String> cleared(TestClient.Reply r) {
    return r.setCookies.stream().filter(h -> h.contains("Max-Age=0"))
        .map(h -> h.substring(0, h.indexOf('='))).sorted().collect(Collectors.toList());
  }

  @Test
  void everyChunkCookieTheRequestCarriedIsClearedBeyondTheLimit() {
    TestClient c = new TestClient(container);
    c.cookies.put("SHOP", "a");
    for (int i = 1; i <= 20; i++) {
      c.cookies.put("SHOP." + i, "a");
    }
    c.cookies.put("SHOP.x", "not ours");
    c.cookies.put("SHOPPING", "not ours");
    TestClient.Reply r = c.get("/s/read");
    assertEquals(200, r.status);
    assertEquals("TOO_LARGE", r.get("rejection"));
    assertEquals(21, cleared(r).size(), cleared(r).toString());
    assertEquals(List.of("SHOP.x", "SHOPPING"), c.cookieNames(), "only ours are cleared");
  }

  @Test
  void highChunkLeftBehindIsClearedWhenTheSessionIsWritten() {
    TestClient c = new TestClient(container);
    c.cookies.put("SHOP.17", "stale");
    c.cookies.put("SHOP.3", "stale");
    TestClient.Reply r = c.get("/s/set?value=v");
    assertEquals("MALFORMED", r.get("rejection"), "chunks without the first cookie");
    assertEquals(List.of("SHOP.17", "SHOP.3"), cleared(r));
    assertEquals(List.of("SHOP"), c.cookieNames());
    assertTrue(c.get("/s/read").get("attr.a").equals("v:String"));
  }
}
