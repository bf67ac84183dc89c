package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.Cluster;
import dev.sessionless.load.internal.ShopWorkload;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shop on three real Jetty nodes, driven over HTTP: who keeps the carts. */
class SystemsUnderTestTest {
  static ShopWorkload run(Cluster.Kind kind, ShopWorkload.Routing routing) {
    return run(kind, routing, dev.sessionless.core.Algorithm.HS256, dev.sessionless.core.Compression.NONE);
  }

  static ShopWorkload run(Cluster.Kind kind, ShopWorkload.Routing routing, dev.sessionless.core.Algorithm algorithm,
      dev.sessionless.core.Compression compression) {
    try (Cluster cluster = Cluster.start(kind, 3, null, 0, algorithm, compression);
        Injector injector = Injector.builder().warmup(Duration.ZERO).maxRequests(120).build()) {
      ShopWorkload shop = new ShopWorkload(cluster.nodes(), routing);
      PhaseResult r = injector.runClosed(kind + " " + routing, shop, new ClosedPhase(4, Duration.ZERO, Duration.ofSeconds(20)));
      assertEquals(0, r.errors(), r.toString());
      return shop;
    }
  }

  @Test
  void sessionlessRoundRobinLosesNoCart() {
    ShopWorkload shop = run(Cluster.Kind.SESSIONLESS, ShopWorkload.Routing.ROUND_ROBIN);
    assertTrue(shop.journeysCompleted() >= 16, "journeys " + shop.journeysCompleted());
    assertEquals(0, shop.cartsLost());
    assertEquals(0, shop.sessionsLost());
    assertTrue(shop.maxCookieBytes() > 200, "a token carries the session: " + shop.maxCookieBytes());
  }

  @Test
  void sessionlessWithDictionaryCompressedTokensLosesNoCartAndSendsShorterCookies() {
    ShopWorkload signed = run(Cluster.Kind.SESSIONLESS, ShopWorkload.Routing.ROUND_ROBIN);
    for (dev.sessionless.core.Algorithm alg : new dev.sessionless.core.Algorithm[] {
        dev.sessionless.core.Algorithm.HS256, dev.sessionless.core.Algorithm.DIR_A256GCM}) {
      ShopWorkload shop = run(Cluster.Kind.SESSIONLESS, ShopWorkload.Routing.ROUND_ROBIN, alg,
          dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY);
      assertTrue(shop.journeysCompleted() >= 16, alg + ": journeys " + shop.journeysCompleted());
      assertEquals(0, shop.cartsLost(), alg.toString());
      assertEquals(0, shop.sessionsLost(), alg.toString());
      assertTrue(shop.maxCookieBytes() < signed.maxCookieBytes(),
          alg + " + SLD1 " + shop.maxCookieBytes() + " bytes, HS256 " + signed.maxCookieBytes());
    }
  }

  @Test
  void inMemorySessionsWithStickyRoutingLoseNoCart() {
    ShopWorkload shop = run(Cluster.Kind.HTTP_SESSION, ShopWorkload.Routing.STICKY);
    assertTrue(shop.journeysCompleted() >= 16, "journeys " + shop.journeysCompleted());
    assertEquals(0, shop.cartsLost());
  }

  @Test
  void springSessionWithRedisRoundRobinLosesNoCart() {
    ShopWorkload shop = run(Cluster.Kind.SPRING_SESSION_REDIS, ShopWorkload.Routing.ROUND_ROBIN);
    assertTrue(shop.journeysCompleted() >= 16, "journeys " + shop.journeysCompleted());
    assertEquals(0, shop.cartsLost());
    assertEquals(0, shop.sessionsLost());
  }

  @Test
  void inMemorySessionsWithoutStickinessLoseCarts() {
    ShopWorkload shop = run(Cluster.Kind.HTTP_SESSION, ShopWorkload.Routing.ROUND_ROBIN);
    assertTrue(shop.sessionsLost() > 0, "sessions lost " + shop.sessionsLost());
    assertTrue(shop.cartsLost() > 0, "lost " + shop.cartsLost() + " of " + (shop.cartsLost() + shop.journeysCompleted()));
  }
}
