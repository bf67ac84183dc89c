package dev.sessionless.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Claims;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.testing.RedisCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The store on a real three-master Redis Cluster on loopback (formed by {@link RedisCluster}):
 * {@link RevocationStoreContract}'s behaviour, the same tests as on a single server, and what
 * the store does when the master holding its slot dies. The cluster has no replicas, so that
 * slot, and with it the whole cluster (full coverage is required), is down until the master is
 * back: the store reports the outage by its {@code onStale} setting and catches up after.
 */
class RedisClusterRevocationsTest extends RevocationStoreContract {
  static RedisCluster cluster;
  static RedisClusterClient plain;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.start();
    var nodes = new HashSet<HostAndPort>();
    cluster.ports().forEach(p -> nodes.add(new HostAndPort("127.0.0.1", p)));
    plain = RedisClusterClient.create(nodes);
    System.out.println("RedisClusterRevocationsTest runs on " + cluster);
  }

  @AfterAll
  static void stopCluster() {
    if (plain != null) {
      plain.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Override
  RedisRevocations.Builder server() {
    return RedisRevocations.builder().clusterNodes(cluster.uris().toArray(new String[0]));
  }

  @Override
  UnifiedJedis raw() {
    return plain;
  }

  @Override
  long keyspaceWalks() {
    long sum = 0;
    for (int port : cluster.ports()) {
      try {
        sum += calls(String.valueOf(RedisCluster.command(port, "INFO", "commandstats")), "scan", "keys");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sum;
  }

  @Test
  void everyStructureLivesOnOneSlot() {
    node(Duration.ofSeconds(30), false).revokeSubject("frank", clock.instant(), clock.instant().plusSeconds(60));
    int slot = JedisClusterCRC16.getSlot(key("expiry"));
    for (String k : new String[] {"notbefore", "changes", "meta", "events"}) {
      assertEquals(slot, JedisClusterCRC16.getSlot(key(k)), k);
    }
  }

  /**
   * The master holding the store's slot is killed mid-test. Without replicas the cluster goes
   * down ({@code CLUSTERDOWN}) until it is back: a logout fails as an outage
   * ({@code REVOCATION_UNAVAILABLE}, the filter's 503) and is kept; past the stale bound the
   * fail-closed node refuses every check and the fail-open node answers every check from its
   * copy (both counted); once the master restarts with its data, both read Redis again and the
   * logout made during the outage reaches the other node.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void whileTheMasterHoldingTheSlotIsDownTheStoreFailsByItsSettingAndRecoversWhenItIsBack() throws Exception {
    prefix = "t" + (++test) + ":";
    RedisRevocations closed = server().keyPrefix(prefix).clock(clock).pollInterval(Duration.ofMillis(200))
        .staleBound(Duration.ofMinutes(1)).onStale(RedisRevocations.OnStale.FAIL_CLOSED).build();
    nodes.add(closed);
    RedisRevocations open = server().keyPrefix(prefix).clock(clock).pollInterval(Duration.ofMillis(200))
        .staleBound(Duration.ofMinutes(1)).build();
    nodes.add(open);
    closed.revokeSession("s-before", clock.instant().plusSeconds(3600));
    arrives(() -> open.isRevoked("s-before"), Duration.ofSeconds(30));
    TokenCodec onClosed = codec(closed);
    TokenCodec onOpen = codec(open);
    String token = onOpen.encode(Claims.builder().subject("alice").build());

    int port = cluster.portOf(key("expiry"));
    cluster.kill(port);
    cluster.awaitState("fail", Duration.ofSeconds(60)); // the other masters mark it failed
    Instant until = clock.instant().plusSeconds(3600);
    TokenException logout = assertThrows(TokenException.class, () -> closed.revokeSession("s-during", until));
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, logout.reason(), "an outage, the filter's 503");
    assertFalse(logout.reason().isRejection());
    assertTrue(closed.isRevoked("s-during"), "applied on the node that took it");
    long closedPolls = closed.syncCount();
    long openPolls = open.syncCount();
    clock.advance(Duration.ofSeconds(61));
    arrives(() -> closed.isStale() && open.isStale(), Duration.ofSeconds(30));
    assertEquals(closedPolls, closed.syncCount(), "no read succeeded while the slot was down");
    assertEquals(openPolls, open.syncCount());

    int refused = 0;
    int answered = 0;
    for (int i = 0; i < 100; i++) {
      try {
        onClosed.decode(token);
        answered++;
      } catch (TokenException e) {
        assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, e.reason());
        refused++;
      }
      onOpen.decode(token);
    }
    assertEquals(100, refused, "FAIL_CLOSED refuses every check past the stale bound");
    assertEquals(0, answered);
    assertTrue(open.isRevoked("s-before"), "FAIL_OPEN answers from its copy: what it knew still holds");
    System.out.printf("cluster master down past the stale bound: FAIL_CLOSED refused %d of 100 checks, "
        + "FAIL_OPEN answered 100 of 100%n", refused);

    cluster.restart(port); // with its AOF and nodes.conf
    arrives(() -> !closed.isStale() && !open.isStale(), Duration.ofSeconds(60));
    assertEquals("alice", onClosed.decode(token).subject().orElseThrow(), "fresh again: checks answer");
    arrives(() -> open.isRevoked("s-during"), Duration.ofSeconds(60)); // written by the node that took it
    assertTrue(open.isRevoked("s-before"), "the master came back with its data");
  }
}
