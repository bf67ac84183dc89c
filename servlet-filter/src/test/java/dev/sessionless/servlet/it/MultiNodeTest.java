package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes — the container under test, its peer (Tomcat beside Jetty in this module's run),
 * the container under test again — that share nothing but a JWKS file, behind a
 * round-robin "load balancer" in the test. A client walks a cart and a wizard across them and
 * one node is stopped mid-flow: every request is answered by a live node and no state is lost,
 * because the state travels in the cookie.
 */
class MultiNodeTest {
  static final String ISSUER = "https://shop.example";
  static final String AUDIENCE = "shop";

  final List<Container> nodes = new ArrayList<>();

  @AfterEach
  void stopNodes() {
    for (Container node : nodes) {
      try {
        node.stop();
      } catch (RuntimeException alreadyStopped) {
        // stopped by the test
      }
    }
  }

  Container node(String name, Path jwks, Function<jakarta.servlet.ServletContainerInitializer, Container> kind) {
    return kind.apply((classes, ctx) -> {
      KeySet keys;
      try {
        keys = KeySet.fromJwks(Files.readString(jwks)); // each node reads the shared file itself
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).issuer(ISSUER).audience(AUDIENCE).cookieName("SHOP")
          .attributeTypes(Cart.class).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("shop", new ShopServlet(name)).addMapping("/shop/*");
    });
  }

  /** A round-robin balancer: the next node in turn, skipping nodes that refuse connections. */
  static final class RoundRobin {
    final List<Container> nodes;
    final Map<String, String> jar = new LinkedHashMap<>();
    final Set<Integer> down = new HashSet<>();
    int next;
    int failovers;

    RoundRobin(List<Container> nodes) {
      this.nodes = nodes;
    }

    TestClient.Reply get(String path) {
      for (int tries = 0; tries < nodes.size(); tries++) {
        int i = next++ % nodes.size();
        if (down.contains(i)) {
          continue;
        }
        TestClient client = new TestClient(nodes.get(i));
        client.cookies.putAll(jar);
        try {
          TestClient.Reply reply = client.get(path);
          jar.clear();
          jar.putAll(client.cookies);
          return reply;
        } catch (UncheckedIOException refused) {
          down.add(i); // what a balancer's health check concludes
          failovers++;
        }
      }
      throw new AssertionError("no node answered " + path);
    }
  }

  @Test
  void cartAndWizardSurviveRoundRobinAcrossContainersAndANodeStoppedMidFlow(@TempDir Path dir) throws IOException {
    Path jwks = dir.resolve("keys.jwks");
    Files.writeString(jwks, KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    nodes.add(node("a", jwks, Containers.underTest()::start));
    nodes.add(node("b", jwks, Containers.peer()::start));
    nodes.add(node("c", jwks, Containers.underTest()::start));
    RoundRobin lb = new RoundRobin(nodes);

    List<String> servedBy = new ArrayList<>();
    String sessionId = null;
    List<String> items = List.of("apple", "bread", "cheese", "dates", "eggs", "flour");
    for (int i = 0; i < items.size(); i++) {
      if (i == 4) {
        nodes.get(1).stop(); // node b dies mid-flow, holding nothing
      }
      TestClient.Reply r = lb.get("/shop/add?item=" + items.get(i));
      assertEquals(200, r.status, r.body);
      assertEquals(String.join(",", items.subList(0, i + 1)), r.get("cart"), "after adding " + items.get(i));
      if (sessionId == null) {
        sessionId = r.get("session");
      }
      assertEquals(sessionId, r.get("session"), "one session throughout");
      servedBy.add(r.get("node"));
    }
    for (int step = 1; step <= 4; step++) {
      TestClient.Reply r = lb.get("/shop/wizard?step=" + step + "&answer=choice" + step);
      assertEquals(200, r.status, r.body);
      servedBy.add(r.get("node"));
    }
    TestClient.Reply summary = lb.get("/shop/summary");
    servedBy.add(summary.get("node"));

    assertEquals(String.join(",", items), summary.get("cart"), "no cart item lost");
    assertEquals("{step.1=choice1, step.2=choice2, step.3=choice3, step.4=choice4}", summary.get("wizard"),
        "no wizard answer lost");
    assertEquals(sessionId, summary.get("session"));
    assertEquals(List.of("a", "b", "c", "a"), servedBy.subList(0, 4), "round robin before the stop");
    assertFalse(servedBy.subList(4, servedBy.size()).contains("b"), "a stopped node serves nothing: " + servedBy);
    assertTrue(servedBy.subList(4, servedBy.size()).containsAll(List.of("a", "c")), servedBy.toString());
    assertEquals(1, lb.failovers, "the balancer saw node b refuse exactly once");
  }

  @Test
  void aNodeWithAnotherKeySetStartsAFreshSessionInsteadOfFailing(@TempDir Path dir) throws IOException {
    Path shared = dir.resolve("keys.jwks");
    Path foreign = dir.resolve("other.jwks");
    Files.writeString(shared, KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    Files.writeString(foreign, KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    nodes.add(node("a", shared, Containers.underTest()::start));
    nodes.add(node("x", foreign, Containers.peer()::start));
    RoundRobin lb = new RoundRobin(nodes);

    TestClient.Reply first = lb.get("/shop/add?item=apple");
    TestClient.Reply second = lb.get("/shop/summary"); // node x: same kid, different secret
    assertEquals(200, second.status, second.body);
    assertEquals("", second.get("cart"), "a token that does not verify is no session");
    assertNotEquals(first.get("session"), second.get("session"));
  }
}
