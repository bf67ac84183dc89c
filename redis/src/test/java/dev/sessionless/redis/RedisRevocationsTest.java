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

/**
 * Three nodes (a codec and a {@link RedisRevocations} each, sharing keys and one real {@code
 * redis-server} on loopback): a revocation on one node reaches the others within the lag,
 * by publish/subscribe and, with it switched off, by polling; entries expire in Redis at the
 * tokens' expiry and in each node's copy by its clock.
 */
class RedisRevocationsTest {
  static RedisServer redis;
  static final KeySet KEYS = KeySet.of(TokenKey.generate("k", Algorithm.HS256));
  // Redis expires keys by its own clock, so the fake clock starts at the real now.
  final FakeClock clock = new FakeClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  final List<RedisRevocations> nodes = new ArrayList<>();
  static int test;
  String prefix;

  @BeforeAll
  static void startRedis() {
    redis = RedisServer.start();
    System.out.println("RedisRevocationsTest runs on " + redis); // which binary -Dsessionless.redis.server chose
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @AfterEach
  void closeNodes() {
    nodes.forEach(RedisRevocations::close);
  }

  RedisRevocations node(Duration poll, boolean subscribe) {
    if (prefix == null) {
      prefix = "t" + (++test) + ":"; // each test its own keys and channel
    }
    RedisRevocations r = RedisRevocations.builder().uri(redis.uri()).keyPrefix(prefix).clock(clock)
        .pollInterval(poll).subscribe(subscribe).build();
    nodes.add(r);
    return r;
  }

  TokenCodec codec(RedisRevocations source) {
    return TokenCodec.builder().keys(KEYS).issuer("i").audience("a").timeToLive(Duration.ofMinutes(30))
        .clock(clock).revocation(source).build();
  }

  /**
   * Waits for another process's work to arrive (a message through Redis), up to {@code limit},
   * and says how long it took: the lag. Not a timing assertion on our code: the limit is the
   * documented bound.
   */
  static Duration arrives(BooleanSupplier condition, Duration limit) throws InterruptedException {
    return arrives(System.nanoTime(), condition, limit);
  }

  /** As above, the lag counted from {@code start} ({@code System.nanoTime()}). */
  static Duration arrives(long start, BooleanSupplier condition, Duration limit) throws InterruptedException {
    long deadline = start + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not there after " + limit);
      }
      Thread.sleep(5);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * The second at which Redis expires {@code key}: its clock plus the key's PTTL, read in one
   * script (EXPIRETIME would say it directly but needs Redis 7; the store needs 6.2).
   */
  static long expiresAt(RedisClient raw, String key) {
    Object at = raw.eval("local t = redis.call('TIME')\n"
        + "local p = redis.call('PTTL', KEYS[1])\n"
        + "if p < 0 then return p end\n"
        + "return math.floor((tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + p + 500) / 1000)",
        List.of(key), List.of());
    return (Long) at;
  }

  static TokenException.Reason reason(TokenCodec codec, String token) {
    return assertThrows(TokenException.class, () -> codec.decode(token)).reason();
  }

  @Test
  void revocationOnOneNodeIsRejectedByEveryNodeWithinTheLag() throws Exception {
    Duration poll = Duration.ofSeconds(30);
    RedisRevocations a = node(poll, true);
    RedisRevocations b = node(poll, true);
    RedisRevocations c = node(poll, true);
    arrives(() -> b.syncCount() >= 2 && c.syncCount() >= 2, Duration.ofSeconds(30)); // subscribed
    TokenCodec onA = codec(a);
    TokenCodec onB = codec(b);
    TokenCodec onC = codec(c);
    String token = onA.encode(Claims.builder().subject("alice").build());
    SessionToken t = onB.decode(token);
    onC.decode(token);

    long start = System.nanoTime();
    a.revokeSession(t.id(), t.expiresAt().plusSeconds(60));
    assertEquals(TokenException.Reason.SESSION_REVOKED, reason(onA, token), "at once on the revoking node");
    // The bound is the documented one (the poll interval); the figure printed is the real lag.
    Duration lagB = arrives(start, () -> b.isRevoked(t.id()), poll);
    Duration lagC = arrives(start, () -> c.isRevoked(t.id()), poll);
    assertEquals(TokenException.Reason.SESSION_REVOKED, reason(onB, token));
    assertEquals(TokenException.Reason.SESSION_REVOKED, reason(onC, token));
    System.out.printf("redis revocation lag from the revoke call (publish/subscribe, busy machine, indicative): b %d µs, c %d µs%n",
        lagB.toNanos() / 1000, lagC.toNanos() / 1000);
  }

  @Test
  void logOutEverywhereEndsAllOfASubjectsSessionsOnEveryNodeAndNotAnothers() throws Exception {
    Duration poll = Duration.ofSeconds(30);
    RedisRevocations a = node(poll, true);
    RedisRevocations b = node(poll, true);
    arrives(() -> b.syncCount() >= 2, Duration.ofSeconds(30));
    TokenCodec onB = codec(b);
    String phone = onB.encode(Claims.builder().subject("alice").authTime(clock.instant()).build());
    String laptop = onB.encode(Claims.builder().subject("alice").authTime(clock.instant()).build());
    String bob = onB.encode(Claims.builder().subject("bob").authTime(clock.instant()).build());
    clock.advance(Duration.ofSeconds(2));
    a.revokeSubject("alice", clock.instant(), clock.instant().plus(Duration.ofHours(12)));
    arrives(() -> b.notBefore("alice").isPresent(), poll);
    assertEquals(TokenException.Reason.SUBJECT_REVOKED, reason(onB, phone));
    assertEquals(TokenException.Reason.SUBJECT_REVOKED, reason(onB, laptop));
    assertEquals("bob", onB.decode(bob).subject().orElseThrow());
  }

  @Test
  void pollingCarriesRevocationsWhenPublishSubscribeIsOff() throws Exception {
    RedisRevocations a = node(Duration.ofMillis(200), false);
    RedisRevocations b = node(Duration.ofMillis(200), false);
    long start = System.nanoTime();
    a.revokeSession("s-polled", clock.instant().plusSeconds(600));
    // 200 ms is the documented bound; the rest is slack for a loaded machine's scheduler.
    Duration lag = arrives(start, () -> b.isRevoked("s-polled"), Duration.ofSeconds(15));
    System.out.printf("redis revocation lag (polling every 200 ms, busy machine, indicative): %d ms%n", lag.toMillis());
  }

  @Test
  void aNodeStartingLaterReadsEveryLiveEntryAtStart() {
    RedisRevocations a = node(Duration.ofSeconds(30), true);
    a.revokeSession("s-early", clock.instant().plusSeconds(600));
    a.revokeSubject("carol", clock.instant(), clock.instant().plusSeconds(600));
    RedisRevocations late = node(Duration.ofSeconds(30), false);
    assertTrue(late.isRevoked("s-early"));
    assertEquals(clock.instant(), late.notBefore("carol").orElseThrow());
  }

  @Test
  void entriesExpireInRedisAtTheTokensExpiryAndInEachCopyByItsClock() {
    RedisRevocations a = node(Duration.ofSeconds(30), true);
    Instant until = clock.instant().plusSeconds(1800);
    a.revokeSession("s-ttl", until);
    a.revokeSession("s-ttl", until.minusSeconds(600)); // an earlier until never shortens it
    a.revokeSubject("dave", clock.instant(), until);
    try (RedisClient raw = RedisClient.create(redis.uri())) {
      assertEquals(until.getEpochSecond(), expiresAt(raw, prefix + "s:s-ttl"), "a Redis TTL at the until instant");
      assertEquals(until.getEpochSecond(), expiresAt(raw, prefix + "u:dave"));
    }
    clock.advance(Duration.ofSeconds(1801));
    assertFalse(a.isRevoked("s-ttl"), "the local copy forgets it by its clock");
    assertTrue(a.notBefore("dave").isEmpty());
  }

  @Test
  void malformedEntriesInRedisAreIgnoredAndBreakNothing() {
    try (RedisClient raw = RedisClient.create(redis.uri())) {
      prefix = "t" + (++test) + ":";
      raw.set(prefix + "s:bad", "soon");
      raw.set(prefix + "u:bad", "12");
      raw.set(prefix + "s:good", Long.toString(clock.instant().plusSeconds(60).getEpochSecond()));
    }
    RedisRevocations a = node(Duration.ofSeconds(30), false);
    assertFalse(a.isRevoked("bad"));
    assertTrue(a.notBefore("bad").isEmpty());
    assertTrue(a.isRevoked("good"));
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
        assertEquals(until.getEpochSecond(), expiresAt(raw, "sessionless:revocation:s:s-outage"),
            "written as any revocation, with its Redis TTL");
      }
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
  }
}
