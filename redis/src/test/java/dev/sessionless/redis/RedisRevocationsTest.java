package dev.sessionless.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import dev.sessionless.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * The store on a single real {@code redis-server} on loopback: {@link RevocationStoreContract}'s
 * behaviour, and what a node does when its Redis goes away (logouts fail as an outage and are
 * written later, the stale bound, fail-open and fail-closed, a dead poller).
 */
class RedisRevocationsTest extends RevocationStoreContract {
  static RedisServer redis;
  static RedisClient plain;

  @BeforeAll
  static void startRedis() {
    redis = RedisServer.start();
    plain = RedisClient.create(redis.uri());
    System.out.println("RedisRevocationsTest runs on " + redis); // which binary -Dsessionless.redis.server chose
  }

  @AfterAll
  static void stopRedis() {
    if (plain != null) {
      plain.close();
    }
    redis.close();
  }

  @Override
  RedisRevocations.Builder server() {
    return RedisRevocations.builder().uri(redis.uri());
  }

  @Override
  UnifiedJedis raw() {
    return plain;
  }

  @Override
  long keyspaceWalks() {
    return calls(plain.info("commandstats"), "scan", "keys");
  }

  /**
   * A node cut off from Redis for longer than the stale bound: its own {@code redis-server} is
   * stopped mid-test, the fake clock passes the bound, and the next poll's failure decides.
   */
  RedisRevocations cutOff(RedisServer own, RedisRevocations.OnStale policy) throws Exception {
    RedisRevocations.Builder b = RedisRevocations.builder().uri(own.uri()).clock(clock)
        .pollInterval(Duration.ofMillis(100)).staleBound(Duration.ofMinutes(1)).subscribe(false);
    RedisRevocations node = (policy == null ? b : b.onStale(policy)).build();
    nodes.add(node);
    node.revokeSession("s-before", clock.instant().plusSeconds(3600));
    own.close();
    long polled = node.syncCount();
    clock.advance(Duration.ofSeconds(59));
    Thread.sleep(300); // several polls fail within the bound: not stale yet
    assertEquals(polled, node.syncCount(), "Redis is down");
    assertFalse(node.isStale(), "within the stale bound the copy still counts");
    clock.advance(Duration.ofSeconds(2));
    arrives(node::isStale, Duration.ofSeconds(10)); // the next failed poll sees the bound passed
    return node;
  }

  @Test
  void aNodeCutOffFromRedisBeyondTheStaleBoundFailsClosedWithRevocationUnavailable() throws Exception {
    RedisServer own = RedisServer.start();
    int port = own.port();
    RedisRevocations node = cutOff(own, RedisRevocations.OnStale.FAIL_CLOSED);
    TokenCodec codec = codec(node);
    String token = TokenCodec.builder().keys(KEYS).issuer("i").audience("a").timeToLive(Duration.ofMinutes(30))
        .clock(clock).build().encode(Claims.builder().subject("alice").build());
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, reason(codec, token),
        "no token passes a check that cannot be made: a server error, not a rejection");
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE,
        assertThrows(TokenException.class, () -> node.notBefore("alice")).reason());

    try (RedisServer back = RedisServer.start(port)) {
      arrives(() -> !node.isStale(), Duration.ofSeconds(10)); // the next poll reads Redis again
      assertEquals("alice", codec.decode(token).subject().orElseThrow());
      assertTrue(node.isRevoked("s-before"), "a read adds to the copy: what this node knew stays");
      node.revokeSession("s-after", clock.instant().plusSeconds(600)); // and writes reach Redis again
    }
  }

  @Test
  void logoutWhileRedisIsDownIsAppliedHereAndFailsAsAnOutageNotAServerError() throws Exception {
    RedisServer own = RedisServer.start();
    RedisRevocations node = RedisRevocations.builder().uri(own.uri()).clock(clock)
        .pollInterval(Duration.ofMillis(100)).subscribe(false).build();
    nodes.add(node);
    own.close(); // Redis goes away for real
    Instant until = clock.instant().plusSeconds(600);
    TokenException session = assertThrows(TokenException.class, () -> node.revokeSession("s-down", until));
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, session.reason());
    assertFalse(session.reason().isRejection());
    assertTrue(session.getMessage().contains("retry"), session.getMessage());
    assertTrue(node.isRevoked("s-down"), "applied on this node before the write failed");
    TokenException subject = assertThrows(TokenException.class,
        () -> node.revokeSubject("mallory", clock.instant(), until));
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, subject.reason());
    assertTrue(node.notBefore("mallory").isPresent(), "applied on this node before the write failed");
  }

  /**
   * A logout made while Redis is down fails loudly on the node that took it (above), and must
   * not stay local for good: the browser's copy of the cookie is already cleared, so nobody can
   * retry it. The node writes it to Redis once Redis answers again, and every node then has it.
   */
  @Test
  void revocationsMadeWhileRedisIsDownReachTheOtherNodesOnceRedisIsBack() throws Exception {
    RedisServer own = RedisServer.start();
    int port = own.port();
    RedisRevocations node = RedisRevocations.builder().uri(own.uri()).clock(clock)
        .pollInterval(Duration.ofMillis(100)).subscribe(false).build();
    nodes.add(node);
    own.close();
    Instant until = clock.instant().plusSeconds(600);
    assertThrows(TokenException.class, () -> node.revokeSession("s-outage", until));
    assertThrows(TokenException.class, () -> node.revokeSubject("oscar", clock.instant(), until));
    try (RedisServer back = RedisServer.start(port)) {
      RedisRevocations other = RedisRevocations.builder().uri(back.uri()).clock(clock)
          .pollInterval(Duration.ofMillis(100)).subscribe(false).build();
      nodes.add(other);
      arrives(() -> other.isRevoked("s-outage") && other.notBefore("oscar").isPresent(), Duration.ofSeconds(30));
      try (RedisClient raw = RedisClient.create(back.uri())) {
        assertEquals(until.getEpochSecond(), raw.zscore("{sessionless:revocation:}expiry", "ss-outage").longValue(),
            "written as any revocation, with its until");
      }
    }
  }

  /**
   * Redis restarted without its data: the change numbers start again from 1, below what a
   * running node has read. The generation in the meta hash changes with the data, so the node
   * reads from 0 again instead of skipping every change until the numbers pass its old ones.
   */
  @Test
  void aNodeReadsFromTheStartAgainWhenRedisLostItsData() throws Exception {
    RedisServer own = RedisServer.start();
    int port = own.port();
    RedisRevocations reader = RedisRevocations.builder().uri(own.uri()).clock(clock)
        .pollInterval(Duration.ofMillis(100)).subscribe(false).build();
    nodes.add(reader);
    try (RedisRevocations writer = RedisRevocations.builder().uri(own.uri()).clock(clock).subscribe(false).build()) {
      for (int i = 0; i < 5; i++) {
        writer.revokeSession("s-" + i, clock.instant().plusSeconds(600));
      }
    }
    arrives(() -> reader.isRevoked("s-4"), Duration.ofSeconds(30));
    own.close();
    try (RedisServer back = RedisServer.start(port);
        RedisRevocations writer = RedisRevocations.builder().uri(back.uri()).clock(clock).subscribe(false).build()) {
      writer.revokeSession("s-after-loss", clock.instant().plusSeconds(600)); // change number 1 again
      arrives(() -> reader.isRevoked("s-after-loss"), Duration.ofSeconds(30));
    }
  }

  @Test
  void aNodeCutOffFromRedisBeyondTheStaleBoundKeepsServingItsCopyByDefault() throws Exception {
    RedisRevocations node = cutOff(RedisServer.start(), null);
    assertTrue(node.isRevoked("s-before"), "revocations made before the outage still hold");
    assertFalse(node.isRevoked("s-other"));
    TokenCodec codec = codec(node);
    String token = TokenCodec.builder().keys(KEYS).issuer("i").audience("a").timeToLive(Duration.ofMinutes(30))
        .clock(clock).build().encode(Claims.builder().subject("alice").build());
    assertEquals("alice", codec.decode(token).subject().orElseThrow(), "FAIL_OPEN is the default");
  }

  /**
   * The poller can die (an {@code Error} ends a scheduled task for good, silently): a node that
   * fails closed must then still refuse once no read has succeeded within the stale bound. The
   * staleness is judged on the read path from the last successful read, not by the poller.
   */
  @Test
  void aNodeWhosePollerDiedFailsClosedOnceNoReadSucceededWithinTheStaleBound() throws Exception {
    RedisServer own = RedisServer.start();
    PollerKillingClock time = new PollerKillingClock(clock);
    RedisRevocations node = RedisRevocations.builder().uri(own.uri()).clock(time).pollInterval(Duration.ofMillis(100))
        .staleBound(Duration.ofMinutes(1)).subscribe(false).onStale(RedisRevocations.OnStale.FAIL_CLOSED).build();
    nodes.add(node);
    TokenCodec codec = codec(node);
    String token = codec.encode(Claims.builder().subject("alice").build());
    time.killPoller();
    arrives(time::pollerKilled, Duration.ofSeconds(30)); // the poller's next read throws an Error
    long synced = node.syncCount();
    own.close(); // and Redis goes away for real
    Thread.sleep(500); // five poll intervals: a live poller would have tried, a dead one does not
    assertEquals(synced, node.syncCount(), "the poller is dead");
    assertEquals("alice", codec.decode(token).subject().orElseThrow(), "within the stale bound the copy counts");

    clock.advance(Duration.ofSeconds(61));
    assertTrue(node.isStale(), "no successful read for longer than the stale bound");
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, reason(codec, token),
        "FAIL_CLOSED holds without a poller to decide it");
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE,
        assertThrows(TokenException.class, () -> node.isRevoked("s-any")).reason());
  }

  /**
   * The test's fake clock, which throws an {@code Error} once on the poller's thread when told
   * to: the poller then dies as it would of any {@code Error} (its scheduled task ends for good).
   */
  static final class PollerKillingClock extends java.time.Clock {
    private final FakeClock time;
    private volatile boolean kill;
    private volatile boolean killed;

    PollerKillingClock(FakeClock time) {
      this.time = time;
    }

    void killPoller() {
      kill = true;
    }

    boolean pollerKilled() {
      return killed;
    }

    @Override
    public long millis() {
      if (kill && Thread.currentThread().getName().equals("sessionless-redis-poll")) {
        kill = false;
        killed = true;
        throw new InternalError("the poller dies, as of any Error");
      }
      return time.millis();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public java.time.ZoneId getZone() {
      return time.getZone();
    }

    @Override
    public java.time.Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void builderRefusesWhatCannotWork() {
    assertThrows(IllegalStateException.class, () -> RedisRevocations.builder().build());
    assertThrows(IllegalStateException.class, () -> RedisRevocations.builder().uri("http://x").build());
    assertThrows(IllegalStateException.class,
        () -> RedisRevocations.builder().uri(redis.uri()).pollInterval(Duration.ofMillis(1)).build());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> RedisRevocations.builder()
        .uri(redis.uri()).pollInterval(Duration.ofSeconds(30)).staleBound(Duration.ofSeconds(30)).build());
    assertTrue(e.getMessage().contains("staleBound must be longer than the poll interval"), e.getMessage());
    assertThrows(IllegalStateException.class,
        () -> RedisRevocations.builder().uri(redis.uri()).clusterNodes(redis.uri()).build(), "one or the other");
    assertThrows(IllegalStateException.class, () -> RedisRevocations.builder().clusterNodes().build());
    IllegalStateException braces = assertThrows(IllegalStateException.class,
        () -> RedisRevocations.builder().uri(redis.uri()).keyPrefix("{app}:").build());
    assertTrue(braces.getMessage().contains("hash tag"), braces.getMessage());
  }
}
