package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bidirectional stream: every message the service handles, on whatever thread gRPC runs it,
 * sees the verified token and the caller's trace, through gRPC's {@code Context} and {@link
 * CallContext#current()} alike.
 */
@Timeout(60)
class StreamingCallTest {
  private final GrpcLoopback grpc = new GrpcLoopback();

  @AfterEach
  void close() throws Exception {
    grpc.close();
  }

  @Test
  void everyMessageOfAStreamIsHandledWithTheVerifiedContext() throws Exception {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    MethodDescriptor<String, String> chat = GrpcLoopback.method("chat").toBuilder()
        .setType(MethodDescriptor.MethodType.BIDI_STREAMING).build();
    ServerServiceDefinition service = ServerServiceDefinition.builder("chat").addMethod(chat,
        ServerCalls.asyncBidiStreamingCall(reply -> new StreamObserver<String>() {
          @Override
          public void onNext(String message) {
            reply.onNext(message + ":" + GrpcCallContext.token().orElseThrow().subject().orElse("-") + ":"
                + GrpcCallContext.current().orElseThrow().traceId() + ":" + CallContext.current().orElseThrow().traceId());
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {
            reply.onCompleted();
          }
        })).build();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service, InternalTokenServerInterceptor.builder()
            .verifier(InternalTokenVerifier.builder().audience("chat").issuer("https://edge.example", edgeKeys).build())
            .build())).build().start();
    grpc.own(() -> server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS));
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys)
        .issuer("https://edge.example").build()).grant("chat").build();
    Channel channel = ClientInterceptors.intercept(grpc.channel(server),
        InternalTokenClientInterceptor.builder().outgoing(out).audience("chat").build());
    TraceContext trace = TraceContext.newTrace();
    CallContext edge = CallContext.ofSession(trace, () -> Optional.of(EdgeSession.builder().sessionId("s-1")
        .subject("alice").expiresAt(Instant.now().plusSeconds(600)).build()));

    List<String> answers = new CopyOnWriteArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    StreamObserver<String> requests;
    try (CallContext.Scope s = edge.open()) {
      requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(chat,
          CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)), new StreamObserver<String>() {
            @Override
            public void onNext(String answer) {
              answers.add(answer);
            }

            @Override
            public void onError(Throwable t) {
              answers.add("error " + t);
              done.countDown();
            }

            @Override
            public void onCompleted() {
              done.countDown();
            }
          });
    }
    for (int i = 0; i < 5; i++) {
      requests.onNext("m" + i);
    }
    requests.onCompleted();
    assertTrue(done.await(30, TimeUnit.SECONDS), "the stream ended");
    String id = trace.traceId();
    assertEquals(List.of("m0:alice:" + id + ":" + id, "m1:alice:" + id + ":" + id, "m2:alice:" + id + ":" + id,
        "m3:alice:" + id + ":" + id, "m4:alice:" + id + ":" + id), answers);
  }
}
