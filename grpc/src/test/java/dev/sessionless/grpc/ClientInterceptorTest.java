package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.TraceContext;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.MetadataUtils;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the client interceptor sends, where, and what it refuses to do, over Netty on loopback. */
@Timeout(60)
class ClientInterceptorTest {
  static final String EDGE = "https://edge.example";

  private final GrpcLoopback grpc = new GrpcLoopback();
  private final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  private final AtomicInteger served = new AtomicInteger();
  private final AtomicReference<Metadata> received = new AtomicReference<>();
  private final TraceContext trace = TraceContext.newTrace();
  private final CallContext edgeCall = CallContext.ofSession(trace, () -> Optional.of(EdgeSession.builder()
      .sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(3600)).put("tenant", "t-1").build()));

  @AfterEach
  void close() throws Exception {
    grpc.close();
  }

  OutgoingTokens.Builder outgoing() {
    return OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build())
        .grant("billing", "tenant");
  }

  /** Billing behind the server interceptor reading {@code header}; records the metadata it got. */
  Server billing(String header) throws Exception {
    ServerInterceptor recording = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        received.set(headers);
        return next.startCall(call, headers);
      }
    };
    return grpc.serve("billing", request -> {
      served.incrementAndGet();
      return GrpcCallContext.token().orElseThrow().subject().orElse("-");
    }, InternalTokenServerInterceptor.builder().header(header).verifier(InternalTokenVerifier.builder()
        .audience("billing").issuer(EDGE, edgeKeys).build()).build(), recording);
  }

  @Test
  void aCallCarriesATokenForItsAudienceAndAChildTraceparentReplacingAnyTheCallerSet() throws Exception {
    Server billing = billing("authorization");
    // Authorization metadata the caller set itself (an interceptor further from the transport,
    // last in the list) is replaced, not sent beside ours.
    Channel c = ClientInterceptors.intercept(grpc.channel(billing),
        InternalTokenClientInterceptor.builder().outgoing(outgoing().build()).audience("billing").build(),
        MetadataUtils.newAttachHeadersInterceptor(EdgeToGrpcServicesTest.bearer("Bearer smuggled")));
    try (CallContext.Scope s = edgeCall.open()) {
      assertEquals("alice", GrpcLoopback.call(c, "billing", "pay"));
    }
    Metadata m = received.get();
    assertEquals(1, count(m, "authorization"), "one token, ours");
    TraceContext sent = TraceContext.parse(m.get(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER)))
        .orElseThrow();
    assertEquals(trace.traceId(), sent.traceId(), "the same trace");
    assertNotEquals(trace.spanId(), sent.spanId(), "a child span");
  }

  @Test
  void theHeaderOutgoingTokensNamesIsTheMetadataKeyTheServerReads() throws Exception {
    Server billing = billing("X-Internal-Token");
    Channel c = ClientInterceptors.intercept(grpc.channel(billing), InternalTokenClientInterceptor.builder()
        .outgoing(outgoing().header("X-Internal-Token").build()).audience("billing").build());
    try (CallContext.Scope s = edgeCall.open()) {
      assertEquals("alice", GrpcLoopback.call(c, "billing", "pay"));
    }
    assertTrue(received.get().get(Metadata.Key.of("x-internal-token", Metadata.ASCII_STRING_MARSHALLER)).startsWith("Bearer "));
    assertNull(received.get().get(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)));
  }

  @Test
  void aCallToAnAuthorityWithoutAnAudienceFailsBeforeAnythingIsSent() throws Exception {
    Server billing = billing("authorization");
    Channel c = ClientInterceptors.intercept(grpc.channel(billing), InternalTokenClientInterceptor.builder()
        .outgoing(outgoing().build()).audience("billing.internal:443", "billing").build());
    try (CallContext.Scope s = edgeCall.open()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> GrpcLoopback.call(c, "billing", "pay"));
      assertTrue(e.getMessage().contains("127.0.0.1:" + billing.getPort()), e.getMessage());
    }
    assertNull(received.get(), "nothing reached the server");
  }

  @Test
  void aCallWithoutACallContextFailsBeforeAnythingIsSent() throws Exception {
    Server billing = billing("authorization");
    Channel c = ClientInterceptors.intercept(grpc.channel(billing),
        InternalTokenClientInterceptor.builder().outgoing(outgoing().build()).audience("billing").build());
    assertThrows(IllegalStateException.class, () -> GrpcLoopback.call(c, "billing", "pay"));
    assertNull(received.get(), "nothing reached the server");
  }

  @Test
  void theBuilderRefusesAnAudienceWithoutGrantAnAmbiguousTargetAndABinaryHeader() {
    OutgoingTokens out = outgoing().build();
    assertThrows(IllegalArgumentException.class,
        () -> InternalTokenClientInterceptor.builder().outgoing(out).audience("shipping").build());
    assertThrows(IllegalArgumentException.class,
        () -> InternalTokenClientInterceptor.builder().outgoing(out).audience("x:1", "shipping").build());
    assertThrows(IllegalStateException.class, () -> InternalTokenClientInterceptor.builder().outgoing(out).build());
    assertThrows(IllegalStateException.class, () -> InternalTokenClientInterceptor.builder().outgoing(out)
        .audience("billing").audience("x:1", "billing").build());
    assertThrows(IllegalStateException.class, () -> InternalTokenClientInterceptor.builder().audience("billing").build());
    assertThrows(IllegalArgumentException.class, () -> InternalTokenClientInterceptor.builder()
        .outgoing(outgoing().header("token-bin").build()).audience("billing").build());
    assertThrows(IllegalArgumentException.class, () -> InternalTokenServerInterceptor.builder().header("token-bin"));
    assertThrows(IllegalStateException.class, () -> InternalTokenServerInterceptor.builder().build());
  }

  private static int count(Metadata m, String key) {
    int n = 0;
    for (String ignored : m.getAll(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER))) {
      n++;
    }
    return n;
  }
}
