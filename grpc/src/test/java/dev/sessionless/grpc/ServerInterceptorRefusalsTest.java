package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.JwksServlet;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.testing.FakeClock;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every refusal of the HTTP receiving filter's table, over gRPC on Netty: the call is closed
 * with {@code UNAUTHENTICATED} and the reason code alone as its description, and the service
 * code never runs; an outage is {@code UNAVAILABLE}, a fault on this side {@code INTERNAL}.
 */
@Timeout(60)
class ServerInterceptorRefusalsTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final Instant NOW = Instant.now();

  private final GrpcLoopback grpc = new GrpcLoopback();
  private final AtomicInteger served = new AtomicInteger();
  private final TokenKey ordersKey = TokenKey.generate("orders-1", Algorithm.ES256);
  private final KeySet ordersKeys = KeySet.of(ordersKey);
  private final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));

  @AfterEach
  void close() throws Exception {
    grpc.close();
  }

  static EdgeSession session(Instant expires) {
    return EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(expires).put("tenant", "t-1").build();
  }

  static InternalTokenMinter minter(KeySet keys, String issuer) {
    return InternalTokenMinter.builder().keys(keys).issuer(issuer).build();
  }

  /** Billing: accepts what {@code verifier} accepts, counts the calls its code serves. */
  Server billing(InternalTokenVerifier verifier) throws Exception {
    return grpc.serve("billing", request -> {
      served.incrementAndGet();
      return "paid";
    }, InternalTokenServerInterceptor.builder().verifier(verifier).build());
  }

  Server billing() throws Exception {
    return billing(InternalTokenVerifier.builder().audience("billing").issuer(ORDERS, ordersKeys).build());
  }

  /** Calls {@code server} with {@code authorization} as given (none if null) and returns the refusal. */
  Status refusal(Server server, String authorization) {
    Channel channel = grpc.channel(server);
    if (authorization != null) {
      channel = ClientInterceptors.intercept(channel,
          MetadataUtils.newAttachHeadersInterceptor(EdgeToGrpcServicesTest.bearer(authorization)));
    }
    Channel c = channel;
    Status status = assertThrows(StatusRuntimeException.class, () -> GrpcLoopback.call(c, "billing", "pay")).getStatus();
    assertEquals(0, served.get(), "the service code never ran");
    return status;
  }

  static void assertRefused(String reason, Status status) {
    assertEquals(Status.Code.UNAUTHENTICATED, status.getCode(), String.valueOf(status));
    assertEquals(reason, status.getDescription(), "the reason code, nothing else");
  }

  @Test
  void aValidTokenReachesTheServiceCode() throws Exception {
    Server billing = billing();
    String token = minter(ordersKeys, ORDERS).mint(session(NOW.plusSeconds(3600)), "billing", List.of("tenant"));
    Channel c = ClientInterceptors.intercept(grpc.channel(billing),
        MetadataUtils.newAttachHeadersInterceptor(EdgeToGrpcServicesTest.bearer("Bearer " + token)));
    assertEquals("paid", GrpcLoopback.call(c, "billing", "pay"));
    assertEquals(1, served.get());
  }

  @Test
  void aCallWithoutATokenOrWithAnotherSchemeIsUnauthenticatedMissingToken() throws Exception {
    Server billing = billing();
    assertRefused("MISSING_TOKEN", refusal(billing, null));
    assertRefused("MISSING_TOKEN", refusal(billing, "Basic YWxpY2U6c2VjcmV0"));
    assertRefused("MISSING_TOKEN", refusal(billing, "Bearer "));
  }

  @Test
  void aCallCarryingTwoTokensIsUnauthenticatedMalformedEvenWhenOneIsValid() throws Exception {
    Server billing = billing();
    String token = minter(ordersKeys, ORDERS).mint(session(NOW.plusSeconds(3600)), "billing", List.of("tenant"));
    // The valid one last: the value Metadata.get would return.
    Metadata two = EdgeToGrpcServicesTest.bearer("Bearer other");
    two.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    Channel c = ClientInterceptors.intercept(grpc.channel(billing), MetadataUtils.newAttachHeadersInterceptor(two));
    assertRefused("MALFORMED", assertThrows(StatusRuntimeException.class, () -> GrpcLoopback.call(c, "billing", "pay"))
        .getStatus());
    assertEquals(0, served.get());
  }

  @Test
  void aTokenForAnotherAudienceIsUnauthenticatedWrongAudience() throws Exception {
    String forShipping = minter(ordersKeys, ORDERS).mint(session(NOW.plusSeconds(3600)), "shipping", List.of());
    assertRefused("WRONG_AUDIENCE", refusal(billing(), "Bearer " + forShipping));
  }

  @Test
  void aTokenForOrdersPresentedToBillingIsRefusedEvenWhereBillingTrustsTheEdge() throws Exception {
    Server billing = billing(InternalTokenVerifier.builder().audience("billing").issuer(ORDERS, ordersKeys)
        .issuer(EDGE, edgeKeys).build());
    String forOrders = minter(edgeKeys, EDGE).mint(session(NOW.plusSeconds(3600)), "orders", List.of("tenant"));
    assertRefused("WRONG_AUDIENCE", refusal(billing, "Bearer " + forOrders));
  }

  @Test
  void forgedTokensAreUnauthenticatedWithTheirReason() throws Exception {
    Server billing = billing();
    // Another key under orders' kid: the signature does not verify.
    KeySet impostor = KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256));
    String forged = minter(impostor, ORDERS).mint(session(NOW.plusSeconds(3600)), "billing", List.of());
    assertRefused("BAD_SIGNATURE", refusal(billing, "Bearer " + forged));
    // A key billing has never seen.
    String unknown = minter(KeySet.of(TokenKey.generate("orders-9", Algorithm.ES256)), ORDERS)
        .mint(session(NOW.plusSeconds(3600)), "billing", List.of());
    assertRefused("UNKNOWN_KEY", refusal(billing, "Bearer " + unknown));
    assertRefused("MALFORMED", refusal(billing, "Bearer not.a.token"));
    // A browser session token sent as a bearer token, whoever issued it.
    String browser = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256))).issuer(ORDERS)
        .audience("billing").timeToLive(Duration.ofMinutes(30)).build().encode(Claims.builder().subject("alice").build());
    assertRefused("WRONG_TOKEN_TYPE", refusal(billing, "Bearer " + browser));
  }

  @Test
  void anExpiredTokenIsUnauthenticatedExpired() throws Exception {
    FakeClock tenMinutesAgo = new FakeClock(NOW.minus(Duration.ofMinutes(10)));
    String old = InternalTokenMinter.builder().keys(ordersKeys).issuer(ORDERS).clock(tenMinutesAgo).build()
        .mint(session(NOW.plusSeconds(3600)), "billing", List.of());
    assertRefused("EXPIRED", refusal(billing(), "Bearer " + old));
  }

  @Test
  void keysUnreachablePastTheirStaleBoundAreUnavailableNotTheCallersFault() throws Exception {
    LoopbackHttp jwks = grpc.own(new LoopbackHttp(Map.of("/jwks.json", JwksServlet.builder().keys(ordersKeys).build())));
    try (Keyring ordersPublic = Keyring.builder().jwksUrl(jwks.at("jwks.json")).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(100), Duration.ofMillis(200)).httpBackoff(Duration.ofMillis(50))
        .httpMaxStale(Duration.ofMillis(300)).build()) {
      Server billing = billing(InternalTokenVerifier.builder().audience("billing").issuer(ORDERS, ordersPublic).build());
      String token = minter(ordersKeys, ORDERS).mint(session(NOW.plusSeconds(3600)), "billing", List.of());
      jwks.close();   // the JWKS origin goes away
      // Polling a condition, not timing: the keyring drops the key on its own thread once stale.
      Instant guard = Instant.now().plus(Duration.ofSeconds(30));
      while (ordersPublic.current().key("orders-1").isPresent()) {
        assertTrue(Instant.now().isBefore(guard), "the keyring never dropped the stale key");
        Thread.sleep(20);
      }
      Status status = refusal(billing, "Bearer " + token);
      assertEquals(Status.Code.UNAVAILABLE, status.getCode(), String.valueOf(status));
      assertEquals("KEY_SOURCE_UNAVAILABLE", status.getDescription());
    }
  }

  @Test
  void aFaultOnThisSideIsInternalNeverUnauthenticatedAndItsStackIsLoggedOnce() throws Exception {
    Server billing = billing(InternalTokenVerifier.builder().audience("billing").issuer(ORDERS, () -> {
      throw new IllegalStateException("a bug in a key source");
    }).build());
    String token = minter(ordersKeys, ORDERS).mint(session(NOW.plusSeconds(3600)), "billing", List.of());
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Handler recording = new Handler() {
      @Override
      public void publish(LogRecord r) {
        logged.add(r);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Logger log = Logger.getLogger(InternalTokenServerInterceptor.class.getName());
    log.addHandler(recording);
    try {
      for (int i = 0; i < 3; i++) {
        Status status = refusal(billing, "Bearer " + token);
        assertEquals(Status.Code.INTERNAL, status.getCode(), String.valueOf(status));
        assertEquals("INTERNAL", status.getDescription(), "no details of the fault");
      }
    } finally {
      log.removeHandler(recording);
    }
    assertEquals(3, logged.stream().filter(r -> r.getLevel() == Level.SEVERE).count(), "each failed call at ERROR");
    assertEquals(1, logged.stream().filter(r -> r.getThrown() != null).count(), "the stack trace once for its cause");
    assertTrue(logged.stream().noneMatch(r -> String.valueOf(r.getMessage()).contains(token)), "never the token");
  }

  @Test
  void aCallersTokenInItsLeewayThatCannotBeReMintedIsUnauthenticatedExpiredNotUnknown() throws Exception {
    Server billing = billing();
    OutgoingTokens ordersOut = OutgoingTokens.builder().minter(minter(ordersKeys, ORDERS)).grant("billing").build();
    Channel toBilling = ClientInterceptors.intercept(grpc.channel(billing),
        InternalTokenClientInterceptor.builder().outgoing(ordersOut).audience("billing").build());
    Server orders = grpc.serve("orders", request -> GrpcLoopback.call(toBilling, "billing", "pay"),
        InternalTokenServerInterceptor.builder().verifier(InternalTokenVerifier.builder().audience("orders")
            .issuer(EDGE, edgeKeys).build()).build());
    // Expired five seconds ago: inside the verifier's 30 s leeway, too late to re-mint.
    String lapsed = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).timeToLive(Duration.ofSeconds(60))
        .clock(new FakeClock(Instant.now().minusSeconds(65))).build()
        .mint(session(NOW.plusSeconds(3600)), "orders", Set.of());
    Channel c = ClientInterceptors.intercept(grpc.channel(orders),
        MetadataUtils.newAttachHeadersInterceptor(EdgeToGrpcServicesTest.bearer("Bearer " + lapsed)));
    Status status = assertThrows(StatusRuntimeException.class, () -> GrpcLoopback.call(c, "orders", "order")).getStatus();
    assertRefused("EXPIRED", status);
    assertEquals(0, served.get(), "billing was never called");
  }
}
