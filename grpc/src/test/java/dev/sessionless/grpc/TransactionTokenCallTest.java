package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.propagation.TraceContext;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 40's "either profile" over gRPC: with the Transaction Token profile on both sides, the
 * client interceptor sends the bare token in {@code txn-token} metadata and the server
 * interceptor, given only the verifier, reads it from there; a server of the other profile
 * finds no token.
 */
@Timeout(60)
class TransactionTokenCallTest {
  private static final String EDGE = "https://edge.example";
  private static final String DOMAIN = "https://trust.example";
  private final GrpcLoopback grpc = new GrpcLoopback();
  private final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));

  @AfterEach
  void close() throws Exception {
    grpc.close();
  }

  private Channel client(Server server) {
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys)
        .issuer(EDGE).profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).scope("orders.read").build())
        .grant("orders").build();
    return ClientInterceptors.intercept(grpc.channel(server),
        InternalTokenClientInterceptor.builder().outgoing(out).audience("orders").build());
  }

  private static CallContext alice() {
    return CallContext.ofSession(TraceContext.newTrace(), () -> Optional.of(EdgeSession.builder()
        .sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(600)).build()));
  }

  /** Captures the named metadata value of each call, as the service received it. */
  private static ServerInterceptor recording(String name, AtomicReference<String> last) {
    Metadata.Key<String> key = Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        last.set(headers.get(key));
        return next.startCall(call, headers);
      }
    };
  }

  @Test
  void aTransactionTokenTravelsBareInTxnTokenMetadataAndIsVerifiedWithNoHeaderSetting() throws Exception {
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN)
        .audience(DOMAIN).issuer(EDGE, edgeKeys).build();
    AtomicReference<String> txnHeader = new AtomicReference<>();
    AtomicReference<String> authorization = new AtomicReference<>();
    Server orders = grpc.serve("orders", request -> {
      InternalToken t = GrpcCallContext.token().orElseThrow();
      return t.profile() + " " + t.subject().orElse("-") + " " + String.join(",", t.scope());
    }, InternalTokenServerInterceptor.builder().verifier(verifier).build(),
        recording("txn-token", txnHeader), recording("authorization", authorization));

    String answer;
    try (CallContext.Scope s = alice().open()) {
      answer = GrpcLoopback.call(client(orders), "orders", "hello");
    }
    assertEquals("TXN_TOKEN alice orders.read", answer);
    assertEquals(3, txnHeader.get().split("\\.").length, "the bare compact token, no scheme: " + txnHeader.get());
    assertNull(authorization.get(), "no Authorization metadata in this profile");
  }

  @Test
  void aServerOfTheOtherProfileFindsNoTokenInTheCall() throws Exception {
    InternalTokenVerifier internal = InternalTokenVerifier.builder().audience("orders").issuer(EDGE, edgeKeys).build();
    Server orders = grpc.serve("orders", request -> "served",
        InternalTokenServerInterceptor.builder().verifier(internal).build());
    StatusRuntimeException e;
    try (CallContext.Scope s = alice().open()) {
      Channel channel = client(orders);
      e = assertThrows(StatusRuntimeException.class, () -> GrpcLoopback.call(channel, "orders", "hello"));
    }
    assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
    assertEquals(InternalTokenServerInterceptor.MISSING_TOKEN, e.getStatus().getDescription());
  }
}
