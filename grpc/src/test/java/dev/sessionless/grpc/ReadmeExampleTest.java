package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.testing.ReadmeBlocks;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps the README example compiling and true: the code below is the README's, line for line. */
@Timeout(60)
class ReadmeExampleTest {
  static final String EDGE = "https://edge.example";
  private final GrpcLoopback grpc = new GrpcLoopback();
  private Server orders;

  @AfterEach
  void close() throws Exception {
    if (orders != null) {
      orders.shutdownNow().awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    }
    grpc.close();
  }

  @Test
  void readmeExampleVerifiesAtOrdersAndCallsBillingWithANarrowerToken() throws Exception {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    KeySet ordersKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256));
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgeKeys).build();
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(ordersKeys)
        .issuer("https://orders.internal").build()).grant("billing", "tenant").build();
    Server billingServer = grpc.serve("billing", request -> GrpcCallContext.token().orElseThrow().actors() + " "
        + GrpcCallContext.token().orElseThrow().stateNames(), InternalTokenServerInterceptor.builder()
        .verifier(InternalTokenVerifier.builder().audience("billing").issuer("https://orders.internal", ordersKeys).build())
        .build());
    Channel billingChannel = grpc.channel(billingServer);
    MethodDescriptor<String, String> pay = GrpcLoopback.method("billing");
    MethodDescriptor<String, String> order = GrpcLoopback.method("orders");
    // readme-example:start
    // In the orders service: verify every call, and call billing with a token re-minted narrower
    ServerInterceptor verify = InternalTokenServerInterceptor.builder().verifier(verifier).build();
    ClientInterceptor tokens = InternalTokenClientInterceptor.builder().outgoing(outgoing).audience("billing").build();
    Channel billing = ClientInterceptors.intercept(billingChannel, tokens);
    ServerServiceDefinition ordersService = ServerServiceDefinition.builder("orders")
        .addMethod(order, ServerCalls.asyncUnaryCall((request, reply) -> {
          InternalToken caller = GrpcCallContext.token().orElseThrow();   // verified: subject, actors, state
          String paid = ClientCalls.blockingUnaryCall(billing, pay, CallOptions.DEFAULT, request);
          reply.onNext(caller.subject().orElse("-") + ": " + paid);
          reply.onCompleted();
        })).build();
    orders = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(ordersService, verify)).build().start();
    // readme-example:end

    // The edge's side of the call: a browser session's context, and the client interceptor.
    OutgoingTokens edgeOut = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE)
        .build()).grant("orders", "tenant", "cart").build();
    var toOrders = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", orders.getPort())
        .usePlaintext().build();
    try {
      Channel c = ClientInterceptors.intercept(toOrders,
          InternalTokenClientInterceptor.builder().outgoing(edgeOut).audience("orders").build());
      CallContext edge = CallContext.ofSession(TraceContext.newTrace(), () -> Optional.of(EdgeSession.builder()
          .sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(600)).put("tenant", "t").put("cart", "c")
          .build()));
      try (CallContext.Scope s = edge.open()) {
        assertEquals("alice: [https://orders.internal, " + EDGE + "] [tenant]", GrpcLoopback.call(c, "orders", "x"));
      }
    } finally {
      toOrders.shutdownNow().awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/grpc/ReadmeExampleTest.java"),
        "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }

  @Test
  void propagationReadmeShowsTheSameWiring() throws Exception {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/grpc/ReadmeExampleTest.java"),
        "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("../propagation/README.md"), "grpc-example");
    assertFalse(shown.isEmpty(), "propagation/README.md has no grpc-example block");
    assertEquals(tested, shown, "propagation/README.md's gRPC lines drifted from ReadmeExampleTest");
  }
}
