package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.servlet.LoopbackDevice;
import dev.sessionless.devicebinding.servlet.LoopbackDevice.Reply;
import dev.sessionless.redis.RedisRevocations;
import dev.sessionless.redis.RedisRevocations.OnStale;
import dev.sessionless.testing.FakeClock;
import dev.sessionless.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The replay gap the stateless rule leaves, closed by the revocation store: a refresh proof
 * captured in transit, replayed on another node together with a copy of the long-lived token
 * taken before that refresh (which still names the older last-refresh time). Two real nodes over
 * loopback; the store is one in-memory store both share, or one {@link RedisRevocations} per node
 * against a real {@code redis-server}. Without a store the same replay is accepted: that is the
 * gap, shown here so the README's words stay true. Each stack (servlet, WebFlux) runs these same
 * scenarios through its own subclass.
 */
@Timeout(120)
public abstract class UsedChallengesScenarios {
  static final Duration BOUND = Duration.ofMinutes(5);
  // Now, not a fixed date: Redis trims and expires entries by its own clock, which must agree with the nodes'.
  final FakeClock clock = new FakeClock(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  final KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
  final Deque<AutoCloseable> open = new ArrayDeque<>();

  @AfterEach
  void closeAll() throws Exception {
    while (!open.isEmpty()) {
      open.pop().close();
    }
  }

  /** The stack under test. */
  protected abstract LoopbackNode.Stack stack();

  LoopbackNode node(Consumer<DeviceBindingBuilder<?>> config) throws Exception {
    LoopbackNode n = stack().start(() -> keys, () -> keys, clock, b -> config.accept(b.boundLifetime(BOUND)));
    open.push(n);
    return n;
  }

  LoopbackNode nodeUsing(RevocationStore store) throws Exception {
    return node(b -> b.usedChallenges(store));
  }

  RedisServer redis() {
    RedisServer redis = RedisServer.start();
    open.push(redis);
    return redis;
  }

  LoopbackDevice loggedIn(LoopbackNode node) {
    LoopbackDevice d = new LoopbackDevice("ES256", clock, "sl_bound");
    Reply login = d.send(node.base(), "POST", "/login?user=ann", Map.of(), "");
    assertEquals(200, login.status(), login.body());
    assertTrue(d.has("sl_bound"), "registered");
    return d;
  }

  /** What a thief holds: the device's refresh request (its proof) and a copy of the cookies taken before it was sent. */
  record Captured(LoopbackDevice thief, Map<String, String> request, String challengeId) {}

  /** The device refreshes on {@code node} (200); the request and the older cookies are captured. */
  Captured refreshAndCapture(LoopbackDevice device, LoopbackNode node) {
    clock.advance(BOUND.plusSeconds(10)); // the bound cookie has lapsed, past its 5 s of skew
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", SimulatedBrowser.quote(device.browser.sessionId));
    h.put("Secure-Session-Response", device.browser.refreshProof(null));
    LoopbackDevice thief = device.copyCookies();
    Reply ok = device.send(node.base(), "POST", device.browser.refreshUrl, h, null);
    assertEquals(200, ok.status(), ok.body());
    device.browser.takeChallenge(ok.header("Secure-Session-Challenge")); // as the browser does with the 200
    return new Captured(thief, h, Challenges.USED_PREFIX + challengeId(h.get("Secure-Session-Response")));
  }

  @Test
  void withoutAStoreAProofReplayedWithTheOlderLongLivedTokenOnAnotherNodeIsAccepted() throws Exception {
    LoopbackNode a = node(b -> {});
    LoopbackNode b = node(x -> {});
    LoopbackDevice device = loggedIn(a);
    Captured c = refreshAndCapture(device, a);
    Reply replay = c.thief().send(b.base(), "POST", device.browser.refreshUrl, c.request(), null);
    assertEquals(200, replay.status(), "the stateless rule cannot tell (README, Single use without a store)");
  }

  @Test
  void aProofReplayedOnAnotherNodeIsRefusedWithTheInMemoryStore() throws Exception {
    RevocationStore shared = RevocationStore.inMemory(clock);
    LoopbackNode a = nodeUsing(shared);
    LoopbackNode b = nodeUsing(shared);
    LoopbackDevice device = loggedIn(a);
    Captured c = refreshAndCapture(device, a);
    assertReplayedAndDeviceCarriesOn(device, c, a, b);
  }

  @Test
  void aProofReplayedOnAnotherNodeIsRefusedWithTheRedisStore() throws Exception {
    RedisServer redis = redis();
    RedisRevocations storeB = redisStore(redis, OnStale.FAIL_OPEN);
    LoopbackNode a = nodeUsing(redisStore(redis, OnStale.FAIL_OPEN));
    LoopbackNode b = nodeUsing(storeB);
    LoopbackDevice device = loggedIn(a);
    Captured c = refreshAndCapture(device, a);
    // Node b learns of the use by publish/subscribe (or its next poll); the race inside that lag is the README's limit.
    waitUntil(() -> storeB.isRevoked(c.challengeId()), Duration.ofSeconds(30));
    assertReplayedAndDeviceCarriesOn(device, c, a, b);
  }

  /**
   * Redis stopped and the store's copy stale: a store that fails closed makes the refresh a 503
   * (an outage the browser retries, never a 500 or a refusal that ends its session); one that
   * fails open lets the device refresh, keeps the use in the node's copy (a replay there is
   * refused) and writes it once Redis answers.
   */
  @Test
  void whileRedisIsDownTheStoresOwnSettingDecidesBetween503AndGoingOn() throws Exception {
    RedisServer redis = redis();
    int port = redis.port();
    RedisRevocations closed = redisStore(redis, OnStale.FAIL_CLOSED);
    RedisRevocations opened = redisStore(redis, OnStale.FAIL_OPEN);
    LoopbackNode strict = nodeUsing(closed);
    LoopbackNode lenient = nodeUsing(opened);
    LoopbackDevice one = loggedIn(strict);
    LoopbackDevice two = loggedIn(lenient);

    redis.close();
    clock.advance(BOUND.plusSeconds(10)); // past both stores' 1-minute stale bound, and the bound cookies' lifetime
    waitUntil(() -> closed.isStale() && opened.isStale(), Duration.ofSeconds(30));

    Reply refused = one.refresh(strict.base());
    assertEquals(503, refused.status(), refused.body());
    assertNotNull(refused.header("Retry-After"));
    assertTrue(refused.body().contains("\"UNAVAILABLE\""), refused.body());
    assertFalse(refused.body().contains("dev.sessionless.") || refused.body().contains("\tat "), refused.body());

    Map<String, String> h = new LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", SimulatedBrowser.quote(two.browser.sessionId));
    h.put("Secure-Session-Response", two.browser.refreshProof(null));
    LoopbackDevice thief = two.copyCookies();
    Reply went = two.send(lenient.base(), "POST", two.browser.refreshUrl, h, null);
    assertEquals(200, went.status(), "fail-open: the refresh goes on without Redis: " + went.body());
    Reply replay = thief.send(lenient.base(), "POST", two.browser.refreshUrl, h, null);
    assertEquals(403, replay.status(), replay.body());
    assertTrue(replay.body().contains("\"REPLAYED\""), "the node's copy holds the use: " + replay.body());

    // Redis back: the use is written, and a node that never saw it refuses the replay too.
    String id = Challenges.USED_PREFIX + challengeId(h.get("Secure-Session-Response"));
    try (RedisServer back = RedisServer.start(port)) {
      RedisRevocations later = redisStore(back, OnStale.FAIL_OPEN);
      waitUntil(() -> later.isRevoked(id), Duration.ofSeconds(60));
    }
  }

  void assertReplayedAndDeviceCarriesOn(LoopbackDevice device, Captured c, LoopbackNode a, LoopbackNode b) {
    Reply replay = c.thief().send(b.base(), "POST", device.browser.refreshUrl, c.request(), null);
    assertEquals(403, replay.status(), replay.body());
    assertTrue(replay.body().contains("\"REPLAYED\""), replay.body());
    Reply app = c.thief().get(b.base(), "/app");
    assertEquals(401, app.status(), "the copied cookies do not reach the application: " + app.body());
    Reply sameNode = c.thief().send(a.base(), "POST", device.browser.refreshUrl, c.request(), null);
    assertEquals(403, sameNode.status(), sameNode.body());
    // The device itself goes on: its next refresh, on either node, with the challenge it was handed.
    clock.advance(BOUND.plusSeconds(10));
    assertEquals(200, device.refresh(b.base()).status());
    assertEquals(200, device.get(a.base(), "/app").status());
    assertEquals(0, device.challenged, "no 403 round trip for the honest device");
  }

  RedisRevocations redisStore(RedisServer redis, OnStale onStale) {
    RedisRevocations store = RedisRevocations.builder().uri(redis.uri()).pollInterval(Duration.ofMillis(200))
        .staleBound(Duration.ofMinutes(1)).onStale(onStale).clock(clock).build();
    open.push(store);
    return store;
  }

  /** The {@code jti} of the challenge token a proof answers (the proof's own {@code jti}). */
  static String challengeId(String proof) {
    String challenge = field(proof, "jti");
    return field(challenge, "jti");
  }

  private static String field(String jws, String name) {
    String payload = new String(Base64.getUrlDecoder().decode(jws.split("\\.")[1]), StandardCharsets.UTF_8);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\":\"([^\"]+)\"").matcher(payload);
    assertTrue(m.find(), payload);
    return m.group(1);
  }

  static void waitUntil(BooleanSupplier condition, Duration limit) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not within " + limit);
      }
      Thread.sleep(20);
    }
  }
}
