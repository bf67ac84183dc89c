package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.SessionTooLargeException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/** What a session may hold: JDK values, registered records, chunked large state, the budget. */
@Timeout(60)
class WebSessionContentTest {
  /** A registered application type. */
  public record Item(String sku, int quantity, BigDecimal price) {}

  /** Never registered. */
  public record Unregistered(String x) {}

  private static Map<String, NettyApp.Route> routes() {
    return Map.of(
        "/put", (ex, s) -> {
          Map<String, Object> a = s.getAttributes();
          a.put("name", "Ada");
          a.put("visits", 3);
          a.put("big", 12345678901L);
          a.put("ok", true);
          a.put("ratio", 0.25d);
          a.put("total", new BigDecimal("19.99"));
          a.put("tags", List.of("a", "b"));
          a.put("prefs", Map.of("lang", "en"));
          a.put("item", new Item("tea-1", 2, new BigDecimal("4.50")));
          return Mono.just("ok");
        },
        "/get", (ex, s) -> {
          Map<String, Object> a = s.getAttributes();
          return Mono.just(a.get("name") + "|" + a.get("visits").getClass().getSimpleName() + a.get("visits")
              + "|" + a.get("big").getClass().getSimpleName() + "|" + a.get("ok") + "|" + a.get("ratio")
              + "|" + a.get("total") + "|" + a.get("tags") + "|" + a.get("prefs") + "|" + a.get("item"));
        },
        "/unregistered", (ex, s) -> {
          try {
            s.getAttributes().put("x", new Unregistered("y"));
            return Mono.just("stored");
          } catch (IllegalArgumentException e) {
            return Mono.just("refused: " + e.getMessage());
          }
        },
        "/grow", (ex, s) -> {
          int n = Integer.parseInt(ex.getRequest().getQueryParams().getFirst("n"));
          try {
            s.getAttributes().put("blob" + n, "x".repeat(1000) + n);
            return Mono.just("stored " + s.getAttributes().size());
          } catch (SessionTooLargeException e) {
            return Mono.just("too large: " + e.attribute() + " " + e.budgetBytes());
          }
        },
        "/count", (ex, s) -> Mono.just("count " + s.getAttributes().size()));
  }

  @Test
  void attributesOfJdkTypesAndRegisteredRecordsComeBackAsTheyWereSet() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().attributeTypes(Item.class).build(), routes());
        NettyApp b = new NettyApp(Fixtures.manager().attributeTypes(Item.class).build(), routes())) {
      CookieClient c = new CookieClient();
      c.get(a.base() + "/put");
      assertEquals("Ada|Integer3|Long|true|0.25|19.99|[a, b]|{lang=en}|Item[sku=tea-1, quantity=2, price=4.50]",
          c.get(b.base() + "/get").body());
    }
  }

  @Test
  void anUnregisteredTypeIsRefusedAtPutNamingTheAttributeAndTheFix() throws Exception {
    try (NettyApp a = new NettyApp(Fixtures.manager().build(), routes())) {
      String body = new CookieClient().get(a.base() + "/unregistered").body();
      assertTrue(body.startsWith("refused: session attribute 'x' has type") && body.contains("attributeTypes"), body);
    }
  }

  @Test
  void aLargeSessionIsSplitAcrossCookieChunksAndReassembled() throws Exception {
    // Uncompressed so the state really grows: 4 KB of text needs two cookies, and still fits
    // Reactor Netty's 8 KiB request header limit (6 KB would not: a 431, as the README says).
    SessionlessWebSessionManager m = Fixtures.manager().compress(false).maxCookieChunks(3).build();
    try (NettyApp a = new NettyApp(m, routes())) {
      CookieClient c = new CookieClient();
      for (int i = 0; i < 4; i++) {
        assertEquals("stored " + (i + 1), c.get(a.base() + "/grow?n=" + i).body());
      }
      assertTrue(c.cookies.containsKey("SESSIONLESS.1"), c.cookies.keySet().toString());
      CookieClient.Answer count = c.get(a.base() + "/count");
      assertEquals(200, count.status());
      assertEquals("count 4", count.body());
    }
  }

  @Test
  void aPutPastTheStateBudgetThrowsAndLeavesTheSessionAsItWas() throws Exception {
    SessionlessWebSessionManager m = Fixtures.manager().compress(false).build(); // one cookie: about 2.3 KB
    try (NettyApp a = new NettyApp(m, routes())) {
      CookieClient c = new CookieClient();
      assertEquals("stored 1", c.get(a.base() + "/grow?n=0").body());
      assertEquals("stored 2", c.get(a.base() + "/grow?n=1").body());
      String refused = c.get(a.base() + "/grow?n=2").body();
      assertTrue(refused.startsWith("too large: blob2 "), refused);
      assertEquals("count 2", c.get(a.base() + "/count").body());
    }
  }

  @Test
  void aStoredAttributeNoLongerRegisteredIsDroppedOrStartsAFreshSessionAsThePolicySays() throws Exception {
    CookieClient c = new CookieClient();
    try (NettyApp before = new NettyApp(Fixtures.manager().attributeTypes(Item.class).build(), routes())) {
      c.get(before.base() + "/put");
    }
    String token = c.cookies.get("SESSIONLESS");
    Map<String, NettyApp.Route> show = Map.of("/show", (ex, s) -> Mono.just(s.getAttributes().get("name") + " "
        + s.getAttributes().get("item") + " " + ex.getAttribute(SessionlessWebSessionManager.REJECTION_ATTRIBUTE)));
    try (NettyApp dropping = new NettyApp(Fixtures.manager().build(), show);
        NettyApp strict = new NettyApp(Fixtures.manager()
            .onBadAttribute(SessionlessWebSessionManager.BadAttribute.NEW_SESSION).build(), show)) {
      assertEquals("Ada null null", c.get(dropping.base() + "/show").body(), "Item is no longer registered: dropped");
      c.cookies.put("SESSIONLESS", token);
      CookieClient.Answer fresh = c.get(strict.base() + "/show");
      assertEquals(200, fresh.status());
      assertEquals("null null STATE_MAPPING", fresh.body());
    }
  }
}
