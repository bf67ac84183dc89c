package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import dev.sessionless.testing.FakeClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The receiving filter's journeys in a real servlet container, called over real HTTP on
 * loopback: the edge's JWKS is served by the same kind of container, and the service's keys
 * come from it through the keyring's HTTP source. {@link InternalTokenFilterTest} runs them in
 * Jetty 12.0 (ee10), {@link InternalTokenFilterTomcat11Test} in Tomcat 11.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
abstract class InternalTokenFilterJourneys {
  static final String EDGE = "https://edge.example";
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build();
  private LoopbackContainer jwks;
  Keyring edgePublic;
  private LoopbackContainer service;

  /** Starts the container under test on a free loopback port, set up by {@code setup}. */
  abstract LoopbackContainer start(ServletContainerInitializer setup) throws Exception;

  @BeforeAll
  void startJwks() throws Exception {
    JwksServlet servlet = JwksServlet.builder().keys(edgeKeys).build();
    jwks = start((classes, ctx) -> ctx.addServlet("jwks", servlet).addMapping("/jwks.json"));
    edgePublic = Keyring.builder().jwksUrl(jwks.root().resolve("jwks.json")).httpAllowInsecurePlainHttp(true).build();
  }

  @AfterAll
  void stopJwks() throws Exception {
    edgePublic.close();
    jwks.close();
  }

  @AfterEach
  void stopService() throws Exception {
    if (service != null) {
      service.close();
      service = null;
    }
  }

  /** What the application sees: the attribute and the thread's call context. */
  static final class Echo extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      InternalToken t = InternalTokenFilter.token(req).orElseThrow();
      CallContext c = CallContext.current().orElseThrow();
      resp.setContentType("text/plain");
      resp.getWriter().write(String.join("|", t.issuer(), t.subject().orElse("-"), t.sessionId(),
          t.get("tenant", String.class).orElse("-"), String.valueOf(t.actors()), c.traceId(),
          String.valueOf(c.token().orElseThrow() == t), c.trace().spanId(), String.valueOf(t.stateNames())));
    }
  }

  URI serve(KeySource keys, Predicate<InternalToken> check, String header) throws Exception {
    return serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, keys).build(), check, header);
  }

  URI serve(InternalTokenVerifier verifier, Predicate<InternalToken> check, String header) throws Exception {
    InternalTokenFilter.Builder b = InternalTokenFilter.builder().verifier(verifier).check(check);
    if (header != null) {
      b.header(header);
    }
    InternalTokenFilter filter = b.build();
    service = start((classes, ctx) -> {
      ctx.addFilter("internal-token", filter).addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("echo", new Echo()).addMapping("/*");
    });
    return service.root().resolve("orders");
  }

  URI serve() throws Exception {
    return serve(edgePublic, t -> true, null);
  }

  static String token(String audience) {
    return token(audience, "s-42", "alice", Instant.now().minusSeconds(60));
  }

  static String token(String audience, String sid, String subject, Instant authTime) {
    EdgeSession.Builder s = EdgeSession.builder().sessionId(sid).subject(subject)
        .expiresAt(Instant.now().plusSeconds(600)).put("tenant", "t-7").put("cart", List.of("book"));
    if (authTime != null) {
      s.authTime(authTime);
    }
    return edge.mint(s.build(), audience, Set.of("tenant"));
  }

  static HttpResponse<String> get(URI uri, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void verifiedClaimsReachTheApplicationAsAttributeAndCallContext() throws Exception {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    HttpResponse<String> r = get(serve(), "Authorization", "Bearer " + token("orders"), "traceparent", traceparent);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(EDGE + "|alice|s-42|t-7|[" + EDGE + "]|4bf92f3577b34da6a3ce929d0e0e4736|true|00f067aa0ba902b7|[tenant]", r.body());
  }

  @Test
  void missingTokenGets401WithABearerChallenge() throws Exception {
    HttpResponse<String> r = get(serve());
    assertEquals(401, r.statusCode());
    assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElseThrow());
    assertEquals(401, get(serve(), "Authorization", "Basic YWxpY2U6cHc=").statusCode());
  }

  @Test
  void refusedTokenGets401InvalidTokenWithoutDetails() throws Exception {
    URI uri = serve();
    for (String bad : new String[] {token("billing"), "not.a.token", token("orders") + "x"}) {
      HttpResponse<String> r = get(uri, "Authorization", "Bearer " + bad);
      assertEquals(401, r.statusCode());
      assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow());
      assertFalse(r.body().contains("AUDIENCE") || r.body().contains("Exception") || r.body().contains("MALFORMED"),
          r.body());
    }
  }

  @Test
  void aBrowserSessionTokenSentAsABearerTokenGets401InvalidToken() throws Exception {
    // The edge's own session cookie, same issuer: refused as WRONG_TOKEN_TYPE by the verifier.
    String session = dev.sessionless.core.TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256)))
        .issuer(EDGE).audience("orders").timeToLive(Duration.ofMinutes(30)).build()
        .encode(dev.sessionless.core.Claims.builder().subject("alice").put("tenant", "t-7").build());
    HttpResponse<String> r = get(serve(), "Authorization", "Bearer " + session);
    assertEquals(401, r.statusCode());
    assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow());
  }

  @Test
  void theTokenHeaderIsConfigurable() throws Exception {
    URI uri = serve(edgePublic, t -> true, "X-Internal-Token");
    assertEquals(200, get(uri, "X-Internal-Token", "Bearer " + token("orders")).statusCode());
    assertEquals(401, get(uri, "Authorization", "Bearer " + token("orders")).statusCode());
  }

  @Test
  void theCheckAfterVerificationCanRefuseAToken() throws Exception {
    AtomicBoolean revoked = new AtomicBoolean();
    URI uri = serve(edgePublic, t -> !revoked.get(), null);
    String token = token("orders");
    assertEquals(200, get(uri, "Authorization", "Bearer " + token).statusCode());
    revoked.set(true);
    HttpResponse<String> r = get(uri, "Authorization", "Bearer " + token);
    assertEquals(401, r.statusCode());
    assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow());
  }

  @Test
  void aFailureOnThisSideGets503NotA401() throws Exception {
    KeySource broken = () -> {
      throw new IllegalStateException("key store unreachable");
    };
    HttpResponse<String> r = get(serve(broken, t -> true, null), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, r.statusCode());
    assertFalse(r.headers().firstValue("WWW-Authenticate").isPresent());
    assertFalse(r.body().contains("unreachable"), r.body());
    stopService();
    HttpResponse<String> failingCheck = get(serve(edgePublic, t -> {
      throw new IllegalStateException("revocation list unreachable");
    }, null), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, failingCheck.statusCode());
    assertFalse(failingCheck.body().contains("unreachable"), failingCheck.body());
  }

  @Test
  void aKeySourcePastItsStaleBoundGets503NotA401() throws Exception {
    KeySource stale = () -> {
      throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "the issuer's JWKS is too stale");
    };
    HttpResponse<String> r = get(serve(stale, t -> true, null), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, r.statusCode());
    assertFalse(r.headers().firstValue("WWW-Authenticate").isPresent(), "not the caller's fault");
    assertEquals("5", r.headers().firstValue("Retry-After").orElse(null), "an outage says when to retry");
    assertFalse(r.body().contains("stale"), r.body());
  }

  URI serveWithRevocation(RevocationSource revocation) throws Exception {
    return serve(InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgePublic).revocation(revocation)
        .build(), t -> true, null);
  }

  @Test
  void revokedSessionsAndSubjectsLoggedOutEverywhereGet401AndOthersPass() throws Exception {
    RevocationStore store = RevocationStore.inMemory(Clock.systemUTC());
    URI uri = serveWithRevocation(store);
    Instant login = Instant.now().minusSeconds(120);
    String alice = token("orders", "s-alice", "alice", login);
    String aliceOther = token("orders", "s-alice-2", "alice", login);
    String bob = token("orders", "s-bob", "bob", login);
    String carol = token("orders", "s-carol", "carol", login);
    for (String t : List.of(alice, aliceOther, bob, carol)) {
      assertEquals(200, get(uri, "Authorization", "Bearer " + t).statusCode(), "before any revocation");
    }
    store.revokeSession("s-bob", Instant.now().plusSeconds(3600));
    store.revokeSubject("alice", Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600));
    for (String t : List.of(alice, aliceOther, bob)) {
      HttpResponse<String> r = get(uri, "Authorization", "Bearer " + t);
      assertEquals(401, r.statusCode(), "the same token, verified (and cached) before, is refused now");
      assertEquals("Bearer error=\"invalid_token\"", r.headers().firstValue("WWW-Authenticate").orElseThrow());
    }
    assertEquals(200, get(uri, "Authorization", "Bearer " + carol).statusCode(), "another user keeps working");
    String aliceAgain = token("orders", "s-alice-3", "alice", Instant.now());
    assertEquals(200, get(uri, "Authorization", "Bearer " + aliceAgain).statusCode(), "a login after the logout");
    String noLoginTime = token("orders", "s-alice-4", "alice", null);
    assertEquals(401, get(uri, "Authorization", "Bearer " + noLoginTime).statusCode(),
        "without auth_time a token cannot show its login came after the logout");
  }

  @Test
  void anUnavailableRevocationSourceGets503NeverAnAcceptOrA401() throws Exception {
    RevocationSource stale = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "the published list is too stale");
      }

      @Override
      public java.util.Optional<Instant> notBefore(String subject) {
        return java.util.Optional.empty();
      }
    };
    HttpResponse<String> r = get(serveWithRevocation(stale), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, r.statusCode());
    assertFalse(r.headers().firstValue("WWW-Authenticate").isPresent(), "not the caller's fault");
    assertFalse(r.body().contains("stale"), r.body());
    stopService();
    RevocationSource broken = new RevocationSource() {
      @Override
      public boolean isRevoked(String sessionId) {
        return false;
      }

      @Override
      public java.util.Optional<Instant> notBefore(String subject) {
        throw new IllegalStateException("bug in the source");
      }
    };
    HttpResponse<String> b = get(serveWithRevocation(broken), "Authorization", "Bearer " + token("orders"));
    assertEquals(503, b.statusCode());
    assertFalse(b.body().contains("bug"), b.body());
  }

  @Test
  void anInvalidTraceparentStartsANewTrace() throws Exception {
    URI uri = serve();
    for (String bad : new String[] {"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "garbage"}) {
      String body = get(uri, "Authorization", "Bearer " + token("orders"), "traceparent", bad).body();
      String trace = body.split("\\|")[5];
      assertEquals(32, trace.length(), body);
      assertNotEquals("4bf92f3577b34da6a3ce929d0e0e4736", trace, bad);
      assertNotEquals("00000000000000000000000000000000", trace, bad);
    }
    assertTrue(TraceContext.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future").isPresent(),
        "a later version is read by its first fields");
  }

  /** A middle service that re-mints the token it was called with for a call to billing. */
  static final class Remints extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient OutgoingTokens outgoing;

    Remints(OutgoingTokens outgoing) {
      this.outgoing = outgoing;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String next = outgoing.tokenFor("billing");
      resp.setContentType("text/plain");
      resp.getWriter().write(next.isEmpty() ? "none" : "minted");
    }
  }

  @Test
  void aTokenAcceptedInTheClockLeewayThatCannotBeRemintedIsTheCallersExpiredToken401Not500() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T10:00:00Z"));
    InternalTokenMinter edgeAtClock = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).clock(clock).build();
    String token = edgeAtClock.mint(EdgeSession.builder().sessionId("s-9").subject("alice")
        .expiresAt(clock.instant().plusSeconds(600)).put("tenant", "t-7").build(), "orders", Set.of("tenant"));
    Instant exp = clock.instant().plusSeconds(60);
    InternalTokenMinter orders = InternalTokenMinter.builder().issuer("orders")
        .keys(KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256))).clock(clock).build();
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(orders).grant("billing", "tenant").build();
    InternalTokenFilter filter = InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
        .audience("orders").issuer(EDGE, edgePublic).clock(clock).build()).build();
    service = start((classes, ctx) -> {
      ctx.addFilter("internal-token", filter).addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("remints", new Remints(outgoing)).addMapping("/*");
    });
    URI uri = service.root().resolve("orders");

    clock.set(exp.minusSeconds(2));
    HttpResponse<String> live = get(uri, "Authorization", "Bearer " + token);
    assertEquals(200, live.statusCode(), live.body());
    assertEquals("minted", live.body());

    // No second left for a re-mint, then 1 s and 29 s into the verifier's 30 s leeway.
    for (Duration at : List.of(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(29))) {
      clock.set(exp.plus(at));
      HttpResponse<String> r = get(uri, "Authorization", "Bearer " + token);
      assertEquals(401, r.statusCode(), "at exp" + at + ": " + r.body());
      assertTrue(r.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Bearer error=\"invalid_token\""),
          r.headers().map().toString());
      assertFalse(r.body().contains("Exception") || r.body().contains("at dev.sessionless"), r.body());
    }

    clock.set(exp.plusSeconds(31));
    assertEquals(401, get(uri, "Authorization", "Bearer " + token).statusCode(), "past the leeway: the verifier's refusal");
  }

  @Test
  void anotherFailureOfTheApplicationIsNotTurnedIntoA401() throws Exception {
    InternalTokenFilter filter = InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
        .audience("orders").issuer(EDGE, edgePublic).build()).build();
    service = start((classes, ctx) -> {
      ctx.addFilter("internal-token", filter).addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("fails", new HttpServlet() {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
          throw new TokenException(TokenException.Reason.EXPIRED, "some other token of the application's expired");
        }
      }).addMapping("/*");
    });
    assertEquals(500, get(service.root().resolve("orders"), "Authorization", "Bearer " + token("orders")).statusCode(),
        "the caller's token is fresh: an EXPIRED from elsewhere is the application's own failure");
  }
}
