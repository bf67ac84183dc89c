package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeContextFilter;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.JwksServlet;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.servlet.SessionlessFilter;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gRPC proof: edge (a real Jetty with the session filter and the edge's context
 * filter, publishing its JWKS) → orders (gRPC over Netty on loopback) → billing (gRPC), each
 * hop with a token narrowed for its callee; the subject and the trace id arrive at billing; the
 * edge rotates its signing key mid-test without a restart, and orders learns the new key through
 * the edge's JWKS over HTTP; a token for orders is refused at billing.
 */
@Timeout(120)
class EdgeToGrpcServicesTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";

  private final GrpcLoopback grpc = new GrpcLoopback();

  @AfterEach
  void shutDown() throws Exception {
    grpc.close();   // channels, servers, then the keyrings and Jetty instances it owns
  }

  /** Captures the {@code authorization} metadata of each call, as the service received it. */
  static ServerInterceptor recording(AtomicReference<String> last) {
    Metadata.Key<String> key = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    return new ServerInterceptor() {
      @Override
      public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call, Metadata headers,
          io.grpc.ServerCallHandler<Q, R> next) {
        last.set(headers.get(key));
        return next.startCall(call, headers);
      }
    };
  }

  @Test
  void subjectAndTraceReachBillingThroughTwoNarrowedHopsAcrossAnEdgeKeyRotationAndOrdersTokenIsRefusedAtBilling()
      throws Exception {
    Instant start = Instant.now();
    TokenKey edge1 = TokenKey.generate("edge-1", Algorithm.ES256);
    TokenKey edge2 = TokenKey.generate("edge-2", Algorithm.ES256);
    AtomicReference<KeySet> edgeKeys = new AtomicReference<>(KeySet.of(edge1));
    KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
    LoopbackHttp ordersJwks = grpc.own(new LoopbackHttp(Map.of("/jwks.json",
        JwksServlet.builder().keys(orderKeys).build())));

    // The edge: the browser session, its context for outgoing calls, and its JWKS.
    AtomicReference<Channel> toOrders = new AtomicReference<>();
    HttpServlet edgeApp = new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getRequestURI().endsWith("/login")) {
          HttpSession s = req.getSession();
          s.setAttribute("user", "alice");
          s.setAttribute("tenant", "t-alice");
          s.setAttribute("cart", List.of("book", "pen"));
          s.setAttribute("csrf", "kept-at-the-edge");
          return;
        }
        String answer = GrpcLoopback.call(toOrders.get(), "orders", "checkout");
        resp.getWriter().write(CallContext.current().orElseThrow().traceId() + ";" + answer);
      }
    };
    LoopbackHttp edge = grpc.own(new LoopbackHttp(Map.of("/app/*", edgeApp, "/.well-known/jwks.json",
            JwksServlet.builder().keys(edgeKeys::get).maxAge(Duration.ofSeconds(1)).build()),
        SessionlessFilter.builder().keys(KeySet.of(TokenKey.generate("browser-1", Algorithm.DIR_A256GCM)))
            .issuer(EDGE).audience("shop").build(),
        EdgeContextFilter.builder().subjectAttribute("user").build()));

    // Billing: accepts the orders service's tokens, for itself.
    Keyring ordersPublic = grpc.own(Keyring.builder().jwksUrl(ordersJwks.at("jwks.json")).httpAllowInsecurePlainHttp(true).build());
    Server billing = grpc.serve("billing", request -> {
      InternalToken t = GrpcCallContext.token().orElseThrow();
      CallContext c = GrpcCallContext.current().orElseThrow();
      return String.join("|", t.subject().orElse("-"), c.traceId(), CallContext.current().orElseThrow().traceId(),
          String.valueOf(t.actors()), String.valueOf(t.stateNames()), t.audience());
    }, InternalTokenServerInterceptor.builder().verifier(InternalTokenVerifier.builder().audience("billing")
        .issuer(ORDERS, ordersPublic).build()).build());

    // Orders: accepts the edge's tokens (its keys through the edge's JWKS, refreshed as its
    // one-second max-age asks), and calls billing with a token re-minted narrower.
    Keyring edgePublic = grpc.own(Keyring.builder().jwksUrl(edge.at(".well-known/jwks.json")).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(200), Duration.ofSeconds(1)).build());
    OutgoingTokens ordersOut = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(orderKeys)
        .algorithm(Algorithm.EDDSA).issuer(ORDERS).build()).grant("billing", "tenant").build();
    Channel toBilling = ClientInterceptors.intercept(grpc.channel(billing),
        InternalTokenClientInterceptor.builder().outgoing(ordersOut).audience("billing").build());
    AtomicReference<String> ordersReceived = new AtomicReference<>();
    Server orders = grpc.serve("orders", request -> {
      InternalToken t = GrpcCallContext.token().orElseThrow();
      return t.token().keyId() + ";" + t.stateNames() + ";" + GrpcLoopback.call(toBilling, "billing", "pay");
    }, InternalTokenServerInterceptor.builder().verifier(InternalTokenVerifier.builder().audience("orders")
        .issuer(EDGE, edgePublic).build()).build(), recording(ordersReceived));

    // The edge's channel to orders, audience by the channel's authority.
    var ordersChannel = grpc.channel(orders);
    OutgoingTokens edgeOut = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys::get)
        .issuer(EDGE).build()).grant("orders", "tenant", "cart").build();
    toOrders.set(ClientInterceptors.intercept(ordersChannel, InternalTokenClientInterceptor.builder()
        .outgoing(edgeOut).audience(ordersChannel.authority(), "orders").build()));

    Browser browser = new Browser();
    assertEquals(200, browser.get(edge.at("app/login")).statusCode());
    String before = checkout(browser, edge);
    assertTrue(before.contains(";edge-1;[tenant, cart];"), "the edge's grant, signed by edge-1: " + before);

    // Rotation, step 1: publish edge-2 ahead of use; wait until orders has learned it.
    // (A guard against a hang, not timing: the keyring refreshes on its own thread.)
    Instant now = Instant.now();
    edgeKeys.set(KeySet.of(edge1, edge2.withLifecycle(now, now.plus(Duration.ofDays(1)), null, null)));
    Instant guard = Instant.now().plus(Duration.ofMinutes(1));
    while (edgePublic.current().key("edge-2").isEmpty()) {
      assertTrue(Instant.now().isBefore(guard), "orders never learned edge-2");
      Thread.sleep(20);
    }
    // Step 2: edge-2 signs; edge-1 retires. No service restarts.
    now = Instant.now();
    edgeKeys.set(KeySet.of(edge1.withLifecycle(null, start.minusSeconds(1), now, now.plus(Duration.ofHours(1))),
        edge2.withLifecycle(now.minusSeconds(1), now.minusSeconds(1), null, null)));
    String after = checkout(browser, edge);
    assertTrue(after.contains(";edge-2;[tenant, cart];"), "signed by edge-2 after the rotation: " + after);

    // The token orders was called with (for orders, from the edge) is refused at billing.
    Channel replay = ClientInterceptors.intercept(grpc.channel(billing),
        MetadataUtils.newAttachHeadersInterceptor(bearer(ordersReceived.get())));
    StatusRuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
        () -> GrpcLoopback.call(replay, "billing", "pay"));
    assertEquals(Status.Code.UNAUTHENTICATED, refused.getStatus().getCode());
    // Billing accepts one issuer, orders, so the edge's key is one it does not know.
    assertEquals("UNKNOWN_KEY", refused.getStatus().getDescription(), "billing accepts only orders' tokens");
  }

  /** One checkout: the trace id at the edge and billing's view, checked; returns the answer. */
  private static String checkout(Browser browser, LoopbackHttp edge) throws Exception {
    HttpResponse<String> r = browser.get(edge.at("app/checkout"));
    assertEquals(200, r.statusCode(), r.body());
    String[] parts = r.body().split(";", 4);   // edge trace; kid at orders; state at orders; billing's answer
    String[] billed = parts[3].split("\\|", 6);
    assertEquals("alice", billed[0], "the subject arrives at billing");
    assertEquals(parts[0], billed[1], "the edge's trace id arrives at billing (gRPC Context)");
    assertEquals(parts[0], billed[2], "and on billing's thread (CallContext.current())");
    assertEquals("[" + ORDERS + ", " + EDGE + "]", billed[3], "the actor chain: orders, called by the edge");
    assertEquals("[tenant]", billed[4], "narrowed again for billing: the cart stays with orders");
    assertEquals("billing", billed[5]);
    return r.body();
  }

  static Metadata bearer(String authorization) {
    Metadata m = new Metadata();
    m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
    return m;
  }

  /** A browser's cookie jar, by hand: the session cookie is {@code Secure}, and this is plain http on loopback. */
  static final class Browser {
    private final HttpClient client = HttpClient.newHttpClient();
    private final Map<String, String> cookies = new ConcurrentHashMap<>();

    HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
      if (!cookies.isEmpty()) {
        b.header("Cookie", String.join("; ", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
      }
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      for (String set : r.headers().allValues("Set-Cookie")) {
        String pair = set.split(";", 2)[0];
        int eq = pair.indexOf('=');
        cookies.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
      }
      return r;
    }
  }
}
