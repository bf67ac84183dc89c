package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.PublishedRevocations;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.RevocationApp;
import dev.sessionless.spring.boot.it.PrimaryRevocationStoreApp;
import dev.sessionless.spring.boot.it.TwoRevocationStoresApp;
import dev.sessionless.testing.RedisCluster;
import dev.sessionless.testing.RedisServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Logout that holds, in Boot: two instances of an application with Spring Security's default
 * configuration share a key file and a real {@code redis-server} on loopback
 * ({@code sessionless.revocation.type=redis}); every request goes to the other instance than the
 * one before. The same with a real three-master Redis Cluster
 * ({@code sessionless.revocation.redis.cluster.nodes}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RevocationTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");
  /** The lag bound while publish/subscribe is up (milliseconds in practice; polling is the 30 s fallback). */
  private static final Duration LAG = Duration.ofSeconds(5);

  private RedisServer redis;
  private Path keys;
  private TokenCodec codec;
  private final Map<String, Instance[]> running = new HashMap<>();

  @BeforeAll
  void start() throws Exception {
    redis = RedisServer.start();
    keys = Files.createTempFile("revocation-keys", ".jwks");
    // A256GCM for the sessions (the default), HS256 for the published list (a signed token).
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM),
        TokenKey.generate("p1", Algorithm.HS256)).toJwksWithSecrets());
    codec = TokenCodec.builder().keys(KeySet.fromJwks(Files.readString(keys)))
        .issuer("application").audience("application").timeToLive(Duration.ofMinutes(30))
        .algorithm(Algorithm.DIR_A256GCM).build();
  }

  @AfterAll
  void stop() throws Exception {
    running.values().forEach(pair -> {
      pair[0].close();
      pair[1].close();
    });
    redis.close();
    Files.deleteIfExists(keys);
  }

  private Instance[] instances(String container) {
    return running.computeIfAbsent(container, c -> new Instance[] {start(c), start(c)});
  }

  private Instance start(String container, String... more) {
    java.util.List<String> props = new java.util.ArrayList<>(java.util.List.of(Containers.only(container),
        "sessionless.keys.file=" + keys, "sessionless.attribute-types=" + Cart.class.getName(),
        "sessionless.revocation.type=redis", "sessionless.revocation.redis.url=" + redis.uri(),
        "sessionless.revocation.redis.key-prefix=" + container + ":"));
    props.addAll(java.util.List.of(more));
    return Instance.start(RevocationApp.class, props.toArray(new String[0]));
  }

  /** Logs in through the login form (page from one instance, post to the other); returns the cookie. */
  private static String login(Browser browser, Instance page, Instance post, String user) throws Exception {
    HttpResponse<String> r = browser.get(page.uri("/login"));
    Matcher m = CSRF_INPUT.matcher(r.body());
    assertTrue(m.find(), r.body());
    r = browser.postForm(post.uri("/login"), Map.of("username", user, "password", "secret", "_csrf", m.group(1)));
    assertEquals(302, r.statusCode(), r.body());
    assertEquals("hello " + user, browser.get(page.uri("/private")).body());
    return browser.cookie("SESSIONLESS").orElseThrow();
  }

  /** A request carrying exactly this cookie, from a client that has no other (a thief, say). */
  private static HttpResponse<String> withCookie(Instance on, String cookie) throws Exception {
    return new Browser().get(on.uri("/private"), "Cookie", "SESSIONLESS=" + cookie);
  }

  /** Waits up to the lag bound for the other instance to hear of a revocation made through Redis. */
  private static void within(Duration limit, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.call()) {
      assertTrue(System.nanoTime() < deadline, "not there after " + limit);
      Thread.sleep(20);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void aCopiedCookieNoLongerAuthenticatesAfterSpringSecuritysLogoutOnAnotherInstance(String container)
      throws Exception {
    Instance a = instances(container)[0];
    Instance b = instances(container)[1];
    assertEquals("RedisRevocations[channel={" + container + ":}events]",
        a.context.getBean(RevocationSource.class).toString(), "sessionless.revocation.redis.* made the store");
    Browser browser = new Browser();
    String copied = login(browser, a, b, "alice");
    SessionToken token = codec.decode(copied);
    assertEquals("alice", token.subject().orElseThrow(), "Spring Security's login names the token's subject");
    assertTrue(token.authTime().isPresent(), "and sets auth_time");
    assertEquals("hello alice", withCookie(b, copied).body(), "the copy works before the logout");

    HttpResponse<String> r = browser.postForm(b.uri("/logout"), Map.of("_csrf", browser.get(a.uri("/csrf")).body()));
    assertEquals(302, r.statusCode());
    assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login?logout"));

    assertEquals(401, withCookie(b, copied).statusCode(), "the instance that logged out refuses the copy at once");
    within(LAG, () -> withCookie(a, copied).statusCode() == 401);
    assertEquals("hello alice", withCookie(a, login(new Browser(), a, b, "alice")).body(),
        "a new login works");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void logOutEverywhereEndsEveryOneOfTheUsersSessionsOnEveryInstanceAndNoOneElses(String container)
      throws Exception {
    Instance a = instances(container)[0];
    Instance b = instances(container)[1];
    Browser phone = new Browser();
    Browser laptop = new Browser();
    Browser bob = new Browser();
    String phoneCookie = login(phone, a, b, "alice");
    String laptopCookie = login(laptop, b, a, "alice");
    login(bob, a, b, "bob");
    // auth_time and the not-before instant are whole seconds, and a login in the very second of
    // "log out everywhere" survives it: let the wall clock (the applications') pass one second.
    Thread.sleep(1100 - System.currentTimeMillis() % 1000);

    HttpResponse<String> r = phone.postForm(b.uri("/account/logout-everywhere"),
        Map.of("_csrf", phone.get(a.uri("/csrf")).body()));
    assertEquals("done", r.body());
    assertEquals(401, withCookie(b, phoneCookie).statusCode(), "this session ends at once");
    within(LAG, () -> withCookie(a, laptopCookie).statusCode() == 401);
    within(LAG, () -> withCookie(a, phoneCookie).statusCode() == 401);
    assertEquals("hello bob", bob.get(a.uri("/private")).body(), "another user's session is untouched");
    assertEquals("hello bob", bob.get(b.uri("/private")).body());
    assertEquals("hello alice", withCookie(b, login(new Browser(), a, b, "alice")).body(),
        "logging in again works");
  }

  @Test
  void aPublishedListRevokesTheSessionsItNamesAndLogoutCannotWriteToIt() throws Exception {
    Path list = Files.createTempFile("revocations", ".jwt");
    TokenCodec publisher = TokenCodec.builder().keys(KeySet.fromJwks(Files.readString(keys)))
        .issuer("application").audience("application").tokenType(PublishedRevocations.TOKEN_TYPE)
        .timeToLive(Duration.ofMinutes(5)).algorithm(Algorithm.HS256).build();
    Files.writeString(list, PublishedRevocations.sign(publisher, Map.of(), Map.of(), Clock.systemUTC()));
    try (Instance i = Instance.start(RevocationApp.class, Containers.only("jetty"),
        "sessionless.keys.file=" + keys, "sessionless.revocation.type=published",
        "sessionless.revocation.published.file=" + list, "sessionless.revocation.published.poll-interval=1s")) {
      Browser browser = new Browser();
      String cookie = login(browser, i, i, "alice");
      assertEquals("hello alice", withCookie(i, cookie).body());
      String id = codec.decode(cookie).id();
      // The publisher (here: this test, as `keyring revocations` would) lists the session.
      Files.writeString(list, PublishedRevocations.sign(publisher,
          Map.of(id, Instant.now().plus(Duration.ofHours(1))), Map.of(), Clock.systemUTC()));
      within(Duration.ofSeconds(10), () -> withCookie(i, cookie).statusCode() == 401); // the next poll
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> i.context.getBean(SessionlessSessions.class).logOutEverywhere("alice"));
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    } finally {
      Files.deleteIfExists(list);
    }
  }

  @Test
  void withoutAStoreLogOutEverywhereSaysWhatToConfigure() throws Exception {
    try (Instance plain = Instance.start(RevocationApp.class, Containers.only("tomcat"),
        "sessionless.keys.file=" + keys)) {
      SessionlessSessions sessions = plain.context.getBean(SessionlessSessions.class);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> sessions.logOutEverywhere("alice"));
      assertTrue(e.getMessage().contains("sessionless.revocation.type"), e.getMessage());
    }
  }

  @Test
  void twoRevocationSourcesWithoutAPrimaryFailTheStartupNamingBoth() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(TwoRevocationStoresApp.class,
        Containers.only("jetty"), "sessionless.keys.file=" + keys).close());
    String message = mentioning(e, "RevocationSource beans").getMessage();
    assertTrue(message.contains("found 2 RevocationSource beans") && message.contains("auditRevocations")
        && message.contains("sessionRevocations") && message.contains("@Primary"), message);
  }

  @Test
  void ofTwoRevocationSourcesThePrimaryOneRevokesSessions() throws Exception {
    try (Instance i = Instance.start(PrimaryRevocationStoreApp.class, Containers.only("tomcat"),
        "sessionless.keys.file=" + keys)) {
      RevocationStore primary = i.context.getBean("sessionRevocations", RevocationStore.class);
      RevocationStore other = i.context.getBean("auditRevocations", RevocationStore.class);
      String alice = login(new Browser(), i, i, "alice");
      String bob = login(new Browser(), i, i, "bob");
      // not before the next second: auth_time is whole seconds, and this covers the logins above
      Instant after = Instant.now().plusSeconds(1);
      other.revokeSubject("bob", after, after.plus(Duration.ofHours(1)));
      assertEquals("hello bob", withCookie(i, bob).body(), "the other store is not the sessions'");
      primary.revokeSubject("alice", after, after.plus(Duration.ofHours(1)));
      assertEquals(401, withCookie(i, alice).statusCode(), "the primary store revokes sessions");
      i.context.getBean(SessionlessSessions.class).logOutEverywhere("carol");
      assertTrue(primary.notBefore("carol").isPresent(), "logOutEverywhere writes to the primary store");
      assertTrue(other.notBefore("carol").isEmpty(), "and to no other");
    }
  }

  /** The first exception in {@code e}'s cause chain whose message contains {@code text}. */
  private static Throwable mentioning(Throwable e, String text) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(text)) {
        return t;
      }
    }
    throw new AssertionError("no cause mentions " + text, e);
  }

  @Test
  @Timeout(180) // three redis-server processes form a cluster, then two Boot instances start
  void aLogoutOnOneInstanceIsRefusedOnTheOtherThroughARedisCluster() throws Exception {
    try (RedisCluster cluster = RedisCluster.start()) {
      // Spring Boot's own host:port form, every master, on one; a single redis:// node on the other.
      String hostPorts = cluster.ports().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
      String[] common = {Containers.only("jetty"), "sessionless.keys.file=" + keys,
          "sessionless.attribute-types=" + Cart.class.getName(), "sessionless.revocation.type=redis",
          "sessionless.revocation.redis.key-prefix=boot-cluster:"};
      try (Instance a = Instance.start(RevocationApp.class, with(common,
              "sessionless.revocation.redis.cluster.nodes=" + hostPorts));
          Instance b = Instance.start(RevocationApp.class, with(common,
              "sessionless.revocation.redis.cluster.nodes=" + cluster.uris().get(1)))) {
        assertEquals("RedisRevocations[channel={boot-cluster:}events]",
            a.context.getBean(RevocationSource.class).toString(), "cluster.nodes made the store");
        Browser browser = new Browser();
        String copied = login(browser, a, b, "alice");
        assertEquals("hello alice", withCookie(a, copied).body(), "the copy works before the logout");
        HttpResponse<String> r = browser.postForm(b.uri("/logout"), Map.of("_csrf", browser.get(a.uri("/csrf")).body()));
        assertEquals(302, r.statusCode());
        assertEquals(401, withCookie(b, copied).statusCode(), "the instance that logged out refuses the copy at once");
        within(LAG, () -> withCookie(a, copied).statusCode() == 401);
      }
    }
  }

  private static String[] with(String[] common, String... more) {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(common));
    all.addAll(java.util.List.of(more));
    return all.toArray(new String[0]);
  }

  @Test
  void aRedisUrlAndClusterNodesTogetherFailTheStartupNamingBoth() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(RevocationApp.class,
        Containers.only("tomcat"), "sessionless.keys.file=" + keys, "sessionless.revocation.type=redis",
        "sessionless.revocation.redis.url=" + redis.uri(),
        "sessionless.revocation.redis.cluster.nodes=127.0.0.1:7000").close());
    String message = mentioning(e, "are both set").getMessage();
    assertTrue(message.contains("sessionless.revocation.redis.url")
        && message.contains("sessionless.revocation.redis.cluster.nodes"), message);
  }

  @Test
  void aClusterNodeThatIsNotHostAndPortFailsTheStartupNamingItWithoutItsPassword() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(RevocationApp.class,
        Containers.only("tomcat"), "sessionless.keys.file=" + keys, "sessionless.revocation.type=redis",
        "sessionless.revocation.redis.cluster.nodes=127.0.0.1:7000,rediss://app:s3cret@10.0.0.2").close());
    String message = mentioning(e, "cluster.nodes[1]").getMessage();
    assertTrue(message.contains("'10.0.0.2'") && message.contains("host:port"), message);
    assertTrue(!message.contains("s3cret"), "the password stays out of the message: " + message);
  }

  @Test
  void redisWithoutAUrlFailsTheStartupNamingTheProperty() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(RevocationApp.class,
        Containers.only("tomcat"), "sessionless.keys.file=" + keys, "sessionless.revocation.type=redis").close());
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    assertTrue(t.getMessage().contains("sessionless.revocation.redis.url")
        && t.getMessage().contains("sessionless.revocation.redis.cluster.nodes"), t.getMessage());
  }
}
