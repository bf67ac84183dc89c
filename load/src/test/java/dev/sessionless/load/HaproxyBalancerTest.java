package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.Cluster;
import dev.sessionless.load.internal.Haproxy;
import dev.sessionless.load.internal.ShopWorkload;
import dev.sessionless.load.Workload.VirtualUser;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HAProxy (Debian's {@code haproxy}, found as the load tool finds it) in front of three
 * real Jetty nodes on loopback: where the requests land, counted by the nodes themselves. Tagged
 * {@code haproxy}: run when {@code /usr/sbin/haproxy} exists (CI installs it) or with {@code
 * -Pbalancer}; run without HAProxy they fail with the message saying how to install it, never skip.
 */
@Tag("haproxy")
class HaproxyBalancerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path dir;

  private static long[] served(Cluster cluster) {
    return IntStream.range(0, 3).mapToLong(cluster::requestsServed).toArray();
  }

  @Test
  @Timeout(60)
  void aProxiedSessionlessRunIsServedRoundRobinAcrossTheThreeNodes() {
    try (Cluster cluster = Cluster.start(Cluster.Kind.SESSIONLESS, 3);
        Haproxy proxy = Haproxy.start(null, cluster.nodes(), false, dir.resolve("rr.cfg"));
        Injector injector = Injector.builder().warmup(Duration.ZERO).maxRequests(300).build()) {
      ShopWorkload shop = new ShopWorkload(List.of(proxy.uri()), ShopWorkload.Routing.ROUND_ROBIN);
      PhaseResult r = injector.runClosed("via haproxy", shop, new ClosedPhase(4, Duration.ZERO, Duration.ofSeconds(20)));
      long[] served = served(cluster);
      long total = served[0] + served[1] + served[2];
      String what = java.util.Arrays.toString(served) + ", " + r;
      assertEquals(0, r.errors(), what);
      assertTrue(total >= 120, "the nodes served the run's requests: " + what);
      for (long n : served) {
        // one HAProxy thread takes the servers in turn: each gets a third, give or take a request
        assertTrue(Math.abs(n - total / 3.0) <= 2, "round-robin: each node serves a third, " + what);
      }
      assertEquals(0, shop.sessionsLost(), what);
      assertEquals(0, shop.cartsLost(), what);
      assertTrue(shop.journeysCompleted() >= 16, what);
    }
  }

  /**
   * One user through the sticky configuration: all its requests land on one node; when that node
   * is killed HAProxy sends the user elsewhere (its in-memory session is gone: one loss, seen by
   * the user) and gives it that node's cookie, so the user stays there even after the killed node
   * is back in rotation.
   */
  @Test
  @Timeout(60)
  void stickySessionsThroughTheProxyKeepAUserOnOneNodeAndMoveItWhenTheNodeIsKilled() throws Exception {
    try (Cluster cluster = Cluster.start(Cluster.Kind.HTTP_SESSION, 3);
        Haproxy proxy = Haproxy.start(null, cluster.nodes(), true, dir.resolve("sticky.cfg"))) {
      HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      ShopWorkload shop = new ShopWorkload(List.of(proxy.uri()), ShopWorkload.Routing.ROUND_ROBIN);
      VirtualUser user = shop.newUser(0);

      long[] before = served(cluster);
      send(client, user, 12);
      int home = onlyNodeThatServed(before, served(cluster), 12);

      cluster.stopNode(home);
      before = served(cluster);
      send(client, user, 12);
      int moved = onlyNodeThatServed(before, served(cluster), 12);
      assertTrue(moved != home, "moved off the killed node " + home);
      assertEquals(1, shop.sessionsLost(), "the in-memory session died with its node, once");

      cluster.restartNode(home);
      awaitInRotation(client, proxy, cluster, home);
      before = served(cluster);
      send(client, user, 12);
      assertEquals(moved, onlyNodeThatServed(before, served(cluster), 12), "moved for good");
      assertEquals(1, shop.sessionsLost(), "nothing more lost");
    }
  }

  /** Sends {@code n} of the user's requests one after the other; each must succeed. */
  private static void send(HttpClient client, VirtualUser user, int n) throws IOException, InterruptedException {
    for (int i = 0; i < n; i++) {
      HttpResponse<String> r = client.send(user.next(), HttpResponse.BodyHandlers.ofString());
      assertTrue(user.accept(r), "request " + i + ": " + r.statusCode() + " " + r.body());
    }
  }

  /** The one node whose count grew, by exactly {@code n}, between the two counts. */
  private static int onlyNodeThatServed(long[] before, long[] after, int n) {
    String what = java.util.Arrays.toString(before) + " -> " + java.util.Arrays.toString(after);
    int node = -1;
    for (int i = 0; i < 3; i++) {
      if (after[i] != before[i]) {
        assertEquals(-1, node, "one node only: " + what);
        assertEquals(n, after[i] - before[i], what);
        node = i;
      }
    }
    assertTrue(node >= 0, what);
    return node;
  }

  /**
   * Waits (bounded by the test's timeout) until HAProxy sends a cookie-less request to {@code
   * node} again, seen from that node's count: only then does "stays where it moved" mean anything.
   */
  private static void awaitInRotation(HttpClient client, Haproxy proxy, Cluster cluster, int node) throws Exception {
    ShopWorkload probes = new ShopWorkload(List.of(proxy.uri()), ShopWorkload.Routing.ROUND_ROBIN);
    long start = cluster.requestsServed(node);
    for (int id = 1; cluster.requestsServed(node) == start; id++) {
      send(client, probes.newUser(id), 1); // a new user each time: no cookie, plain round-robin
    }
  }
}
