package dev.sessionless.spring.boot;

import dev.sessionless.propagation.InternalTokenFilter;
import dev.sessionless.spring.boot.it.PlainOrdersApp;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.builder.SpringApplicationBuilder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.PublishedRevocations;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.JwksApp;
import dev.sessionless.spring.boot.it.OrdersApp;
import dev.sessionless.spring.boot.it.OrdersOwnRevocationApp;
import dev.sessionless.redis.RedisRevocations;
import dev.sessionless.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A receiving-only Boot service ({@code sessionless.enabled=false}, no session keys) configured
 * by {@code sessionless.propagation.receive.*}, with Spring Security's default configuration, on
 * Tomcat and Jetty; the edge's public keys come from a real JWKS endpoint (another Boot
 * application on loopback). Tokens are minted here with the edge's private keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PropagationReceiveTest {
  static final String EDGE = "https://edge.example";
  private static final String REFUSED = "an internal token for this service is required\n";

  private Path edgeKeys;
  private Instance jwks;
  private InternalTokenMinter edge;
  private final Map<String, Instance> orders = new HashMap<>();
  private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  void start() throws Exception {
    KeySet keys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    edgeKeys = Files.createTempFile("edge-keys", ".jwks");
    Files.writeString(edgeKeys, keys.toJwksWithSecrets());
    jwks = Instance.start(JwksApp.class, Containers.only("tomcat"), "sessionless.enabled=false",
        "test.issuer-keys=" + edgeKeys);
    edge = InternalTokenMinter.builder().keys(keys).issuer(EDGE).build();
  }

  @AfterAll
  void stop() throws Exception {
    orders.values().forEach(Instance::close);
    jwks.close();
    Files.deleteIfExists(edgeKeys);
  }

  /** The properties of a receiving-only orders service trusting the edge. */
  List<String> receiving(String container, String... more) {
    List<String> p = new ArrayList<>(List.of(Containers.only(container), "sessionless.enabled=false",
        "sessionless.propagation.receive.audience=orders",
        "sessionless.propagation.receive.issuers[0].issuer=" + EDGE,
        "sessionless.propagation.receive.issuers[0].jwks-url=" + jwks.uri("/.well-known/jwks.json"),
        "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true",
        "sessionless.propagation.receive.url-patterns=/internal/*"));
    p.addAll(List.of(more));
    return p;
  }

  private Instance orders(String container) {
    return orders.computeIfAbsent(container, c -> Instance.start(OrdersApp.class, receiving(c).toArray(new String[0])));
  }

  static EdgeSession.Builder session(String subject) {
    return EdgeSession.builder().sessionId(UUID.randomUUID().toString()).subject(subject)
        .expiresAt(Instant.now().plus(Duration.ofMinutes(30))).authTime(Instant.now().minusSeconds(60))
        .put("cart", "book").put("card", "4111");
  }

  String token(EdgeSession session) {
    return edge.mint(session, "orders", Set.of("cart"));
  }

  HttpResponse<String> call(URI uri, String method, String token, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A service that starts before its issuer: with {@code required-at-start=false} it starts
   * without the keys, refuses the issuer's tokens (401, never a 500) until the JWKS answers, then
   * accepts them without a restart.
   */
  @Test
  void anIssuerThatStartsLaterIsFetchedThenWhenNotRequiredAtStart() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    List<String> p = receiving("tomcat");
    p.removeIf(x -> x.startsWith("sessionless.propagation.receive.issuers[0].jwks-url="));
    p.add("sessionless.propagation.receive.issuers[0].jwks-url=http://127.0.0.1:" + port + "/.well-known/jwks.json");
    p.add("sessionless.propagation.receive.issuers[0].required-at-start=false");
    try (Instance service = Instance.start(OrdersApp.class, p.toArray(new String[0]))) {
      String token = token(session("alice").build());
      assertEquals(401, call(service.uri("/internal/whoami"), "GET", token).statusCode(), "no keys yet");
      try (Instance late = Instance.start(JwksApp.class, Containers.only("tomcat"), "sessionless.enabled=false",
          "test.issuer-keys=" + edgeKeys, "server.port=" + port)) {
        within(Duration.ofSeconds(40), () -> call(service.uri("/internal/whoami"), "GET", token).statusCode() == 200);
        assertTrue(call(service.uri("/internal/whoami"), "GET", token).body().startsWith("alice "));
      }
    }
  }

  /**
   * Without Spring Security on the class path (hidden from the application's class loader) the
   * receiving side works alone: the filter verifies, the application reads the token, and no
   * security configuration of ours loads.
   */
  @Test
  void withoutSpringSecurityTheFilterAloneGuardsTheCoveredPaths() throws Exception {
    DefaultResourceLoader withoutSecurity =
        new DefaultResourceLoader(new FilteredClassLoader("org.springframework.security"));
    List<String> properties = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
        "logging.level.root=WARN", "spring.main.banner-mode=off"));
    properties.addAll(receiving("tomcat"));
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PlainOrdersApp.class)
        .resourceLoader(withoutSecurity).properties(properties.toArray(new String[0])).run()) {
      assertFalse(context.containsBean("sessionlessInternalTokenHttpSecurityCustomizer"));
      assertEquals(1, context.getBeansOfType(InternalTokenFilter.class).size());
      int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
      URI base = URI.create("http://127.0.0.1:" + port);
      HttpResponse<String> ok = call(base.resolve("/internal/whoami"), "GET", token(session("alice").build()));
      assertEquals(200, ok.statusCode(), ok.body());
      assertEquals("alice iss=" + EDGE + " cart=book", ok.body());
      HttpResponse<String> none = call(base.resolve("/internal/whoami"), "GET", null);
      assertEquals(401, none.statusCode(), none.body());
      assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElse(""));
      assertEquals("hello", call(base.resolve("/public/hello"), "GET", null).body(), "outside the covered paths");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void aValidTokenIsSpringSecuritysAuthenticationForThatRequestOnly(String container) throws Exception {
    Instance app = orders(container);
    String token = token(session("alice").build());
    HttpResponse<String> r = call(app.uri("/internal/whoami"), "GET", token);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("alice InternalTokenAuthentication ROLE_INTERNAL iss=" + EDGE + " cart=book same=true", r.body());
    assertTrue(r.headers().allValues("Set-Cookie").isEmpty(), "stateless: no session cookie");
    HttpResponse<String> none = call(app.uri("/internal/whoami"), "GET", null);
    assertEquals(401, none.statusCode(), "nothing of the first request was kept");
    assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElseThrow());
  }

  /**
   * {@code sessionless.propagation.profile=txn-token}: the same receiving service verifies
   * Transaction Tokens for its trust domain, read from {@code Txn-Token}, and refuses a token of
   * the internal profile there, and any token in {@code Authorization}.
   */
  @Test
  @org.junit.jupiter.api.Timeout(120)
  void theTxnTokenProfileIsOnePropertyAwayAndReadsTheTxnTokenHeader() throws Exception {
    List<String> p = receiving("tomcat", "sessionless.propagation.profile=txn-token");
    p.removeIf(x -> x.startsWith("sessionless.propagation.receive.audience="));
    p.add("sessionless.propagation.receive.audience=shop.example");
    KeySet keys = KeySet.fromJwks(Files.readString(edgeKeys));
    InternalTokenMinter txnEdge = InternalTokenMinter.builder().keys(keys).issuer(EDGE)
        .profile(dev.sessionless.propagation.TokenProfile.TXN_TOKEN).trustDomain("shop.example").scope("shop").build();
    String txnToken = txnEdge.mint(session("alice").build(), "orders", Set.of("cart"));
    try (Instance service = Instance.start(OrdersApp.class, p.toArray(new String[0]))) {
      URI whoami = service.uri("/internal/whoami");
      HttpResponse<String> ok = call(whoami, "GET", null, "Txn-Token", txnToken);
      assertEquals(200, ok.statusCode(), ok.body());
      assertTrue(ok.body().startsWith("alice "), ok.body());
      assertEquals(401, call(whoami, "GET", txnToken).statusCode(), "Authorization is not the profile's header");
      assertEquals(401, call(whoami, "GET", null, "Txn-Token", token(session("alice").build())).statusCode(),
          "a token of the internal profile");
    }
  }

  @Test
  void aTokenWithoutASubjectIsAuthenticatedWithoutAPrincipal() throws Exception {
    EdgeSession anonymous = EdgeSession.builder().sessionId(UUID.randomUUID().toString()).put("cart", "book").build();
    HttpResponse<String> r = call(orders("tomcat").uri("/internal/anonymous"), "GET", token(anonymous));
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("InternalTokenAuthentication authenticated=true name=[] principal=null", r.body());
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void aPostWithATokenNeedsNoCsrfTokenAndMakesNoSession(String container) throws Exception {
    HttpResponse<String> r = call(orders(container).uri("/internal/orders"), "POST", token(session("bob").build()));
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("placed for bob, session none", r.body());
    assertTrue(r.headers().allValues("Set-Cookie").isEmpty(), r.headers().toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void withoutATokenTheCoveredPathsAnswer401BearerNeverALoginPage(String container) throws Exception {
    for (String accept : List.of("*/*", "text/html")) {
      HttpResponse<String> r = call(orders(container).uri("/internal/whoami"), "GET", null, "Accept", accept);
      assertEquals(401, r.statusCode(), accept + ": " + r.headers().map());
      assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElseThrow());
      assertEquals(REFUSED, r.body());
    }
    HttpResponse<String> post = call(orders(container).uri("/internal/orders"), "POST", null);
    assertEquals(401, post.statusCode(), "not Spring Security's 403 for the missing CSRF token");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void refusedTokensGet401InvalidTokenAndNoDetails(String container) throws Exception {
    KeySet impostor = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    KeySet unknown = KeySet.of(TokenKey.generate("elsewhere-1", Algorithm.ES256));
    Map<String, String> tokens = Map.of(
        "garbage", "not.a.token",
        "another audience", edge.mint(session("alice").build(), "billing", Set.of("cart")),
        "the edge's kid, another key", InternalTokenMinter.builder().keys(impostor).issuer(EDGE).build()
            .mint(session("alice").build(), "orders", Set.of()),
        "an unknown kid", InternalTokenMinter.builder().keys(unknown).issuer(EDGE).build()
            .mint(session("alice").build(), "orders", Set.of()),
        "an issuer not configured", InternalTokenMinter.builder().keys(impostor).issuer("https://other.example")
            .build().mint(session("alice").build(), "orders", Set.of()));
    for (Map.Entry<String, String> t : tokens.entrySet()) {
      HttpResponse<String> r = call(orders(container).uri("/internal/whoami"), "GET", t.getValue());
      assertEquals(401, r.statusCode(), t.getKey() + ": " + r.body());
      assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow(),
          t.getKey());
      assertEquals(REFUSED, r.body(), t.getKey());
    }
  }

  @Test
  void aTokenOutsideTheCoveredPathsAuthenticatesNothing() throws Exception {
    HttpResponse<String> r = call(orders("tomcat").uri("/public/hello"), "GET", token(session("alice").build()));
    assertEquals(401, r.statusCode(), "Spring Security's own answer: " + r.body());
    assertTrue(r.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic"),
        r.headers().map().toString());
  }

  @Test
  void revocationFromTheSessionlessRevocationPropertiesRefusesARevokedSession() throws Exception {
    try (Instance app = Instance.start(OrdersApp.class,
        receiving("jetty", "sessionless.revocation.type=memory").toArray(new String[0]))) {
      RevocationStore store = assertInstanceOf(RevocationStore.class, app.context.getBean(RevocationSource.class));
      EdgeSession revoked = session("alice").build();
      EdgeSession other = session("alice").build();
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", token(revoked)).statusCode());
      store.revokeSession(revoked.sessionId(), Instant.now().plus(Duration.ofHours(1)));
      HttpResponse<String> r = call(app.uri("/internal/whoami"), "GET", token(revoked));
      assertEquals(401, r.statusCode(), "the revoked session's new token, too");
      assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow());
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", token(other)).statusCode(), "other sessions work");
    }
  }

  @Test
  void aPublishedListIsReadWithItsOwnKeysFileOnAServiceWithoutSessionKeys() throws Exception {
    KeySet publisherKeys = KeySet.of(TokenKey.generate("list-1", Algorithm.HS256));
    Path keysFile = Files.createTempFile("publisher-keys", ".jwks");
    Path list = Files.createTempFile("revocations", ".jwt");
    EdgeSession revoked = session("alice").build();
    try {
      Files.writeString(keysFile, publisherKeys.toJwksWithSecrets());
      TokenCodec publisher = TokenCodec.builder().keys(publisherKeys).issuer("https://edge.example/revocations")
          .audience("services").tokenType(PublishedRevocations.TOKEN_TYPE).timeToLive(Duration.ofMinutes(5)).build();
      Files.writeString(list, PublishedRevocations.sign(publisher,
          Map.of(revoked.sessionId(), Instant.now().plus(Duration.ofHours(1))), Map.of(), Clock.systemUTC()));
      try (Instance app = Instance.start(OrdersApp.class, receiving("tomcat", "sessionless.revocation.type=published",
          "sessionless.revocation.published.file=" + list, "sessionless.revocation.published.keys-file=" + keysFile,
          "sessionless.revocation.published.issuer=https://edge.example/revocations",
          "sessionless.revocation.published.audience=services").toArray(new String[0]))) {
        assertEquals(401, call(app.uri("/internal/whoami"), "GET", token(revoked)).statusCode(), "listed: refused");
        assertEquals(200, call(app.uri("/internal/whoami"), "GET", token(session("alice").build())).statusCode(),
            "another session of the same user works");
      }
    } finally {
      Files.deleteIfExists(keysFile);
      Files.deleteIfExists(list);
    }
  }

  @Test
  void theApplicationsOwnRevocationSourceIsTheOneChecked() throws Exception {
    try (Instance app = Instance.start(OrdersOwnRevocationApp.class, receiving("tomcat").toArray(new String[0]))) {
      RevocationStore own = app.context.getBean(RevocationStore.class);
      assertSame(own, app.context.getBean(RevocationSource.class), "no second source was made");
      EdgeSession alice = session("alice").build();
      EdgeSession bob = session("bob").build();
      String before = token(alice);
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", before).statusCode());
      own.revokeSubject("alice", Instant.now(), Instant.now().plus(Duration.ofHours(1)));
      assertEquals(401, call(app.uri("/internal/whoami"), "GET", before).statusCode(), "logged out everywhere");
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", token(bob)).statusCode());
    }
  }

  @Test
  void aLogoutAtTheEdgeReachesAReceivingOnlyServiceThroughRedis() throws Exception {
    try (RedisServer redis = RedisServer.start();
        RedisRevocations edgeStore = RedisRevocations.builder().uri(redis.uri()).keyPrefix("p:").build();
        Instance app = Instance.start(OrdersApp.class, receiving("tomcat", "sessionless.revocation.type=redis",
            "sessionless.revocation.redis.url=" + redis.uri(), "sessionless.revocation.redis.key-prefix=p:")
            .toArray(new String[0]))) {
      assertEquals("RedisRevocations[channel={p:}events]", app.context.getBean(RevocationSource.class).toString(),
          "sessionless.revocation.redis.* made the service's replica");
      EdgeSession loggedOut = session("alice").build();
      EdgeSession everywhere = session("carol").build();
      EdgeSession untouched = session("dave").build();
      String a = token(loggedOut);
      String c = token(everywhere);
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", a).statusCode());
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", c).statusCode());
      edgeStore.revokeSession(loggedOut.sessionId(), Instant.now().plus(Duration.ofHours(1)));
      edgeStore.revokeSubject("carol", Instant.now(), Instant.now().plus(Duration.ofHours(1)));
      // Publish/subscribe brings it in milliseconds; the bound only stops a broken build from hanging.
      within(Duration.ofSeconds(10), () -> call(app.uri("/internal/whoami"), "GET", a).statusCode() == 401);
      within(Duration.ofSeconds(10), () -> call(app.uri("/internal/whoami"), "GET", c).statusCode() == 401);
      assertEquals(200, call(app.uri("/internal/whoami"), "GET", token(untouched)).statusCode(), "other users work");
    }
  }

  private static void within(Duration limit, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.call()) {
      assertTrue(System.nanoTime() < deadline, "not there after " + limit);
      Thread.sleep(20);
    }
  }

  @Test
  void theSessionPartAndTheReceivingSideWorkSideBySide() throws Exception {
    Path sessionKeys = Files.createTempFile("session-keys", ".jwks");
    Files.writeString(sessionKeys, KeySet.of(TokenKey.generate("s1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    List<String> p = receiving("tomcat", "sessionless.keys.file=" + sessionKeys);
    p.remove("sessionless.enabled=false");
    try (Instance app = Instance.start(OrdersApp.class, p.toArray(new String[0]))) {
      assertEquals("s1", app.context.getBean(dev.sessionless.core.KeySource.class).current().keys().get(0).kid(),
          "the session keys stay the only KeySource bean: the issuers' keyrings are not beans of their own");
      HttpResponse<String> r = call(app.uri("/internal/whoami"), "GET", token(session("alice").build()));
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.body().startsWith("alice InternalTokenAuthentication"), r.body());
      assertTrue(r.headers().allValues("Set-Cookie").isEmpty(), "no session token was written for the call");
      assertFalse(app.context.getBean(InternalTokenVerifier.class).toString().isEmpty());
    } finally {
      Files.deleteIfExists(sessionKeys);
    }
  }
}
