package dev.sessionless.grpc;

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
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The interceptors' added cost per unary call: the same call on grpc-java's in-process
 * transport (no network, direct executors: what is left is gRPC's own call path), once without
 * interceptors and once through the client interceptor (one token minted, the trace child) and
 * the server interceptor (the token verified, the context bound), with ES256 or EdDSA keys.
 * "Added" is the difference. Run by hand:
 *
 * <pre>
 * mvn -B -ntp -q -pl grpc -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test -Dmaven.javadoc.skip=true
 * java -cp grpc/target/test-classes:grpc/target/classes:$(cat /tmp/cp.txt) \
 *     org.openjdk.jmh.Main InterceptorBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class InterceptorBenchmark {
  private static final MethodDescriptor<String, String> PLAIN = GrpcLoopback.method("plain");
  private static final MethodDescriptor<String, String> SECURED = GrpcLoopback.method("secured");

  /** The edge's signing algorithm. */
  @Param({"ES256", "EDDSA"})
  public String algorithm;

  private Server server;
  private ManagedChannel channel;
  private Channel secured;
  private CallContext edge;

  private static ServerServiceDefinition echo(String service, MethodDescriptor<String, String> m) {
    return ServerServiceDefinition.builder(service).addMethod(m, ServerCalls.asyncUnaryCall((request, reply) -> {
      reply.onNext(request);
      reply.onCompleted();
    })).build();
  }

  /** One in-process server with both services, and the browser session each call is made for (bound per call, in both benchmarks alike). */
  @Setup
  public void setUp() throws IOException {
    Algorithm alg = Algorithm.valueOf(algorithm);
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", alg));
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders")
        .issuer("https://edge.example", edgeKeys).build();
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(echo("plain", PLAIN))
        .addService(ServerInterceptors.intercept(echo("secured", SECURED),
            InternalTokenServerInterceptor.builder().verifier(verifier).build()))
        .build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys).algorithm(alg)
        .issuer("https://edge.example").build()).grant("orders", "tenant").build();
    secured = ClientInterceptors.intercept(channel,
        InternalTokenClientInterceptor.builder().outgoing(out).audience("orders").build());
    edge = CallContext.ofSession(TraceContext.newTrace(), () -> Optional.of(EdgeSession.builder().sessionId("s-1")
        .subject("alice").expiresAt(Instant.now().plusSeconds(86_400)).put("tenant", "t-1").build()));
  }

  /** Shuts the channel and server down. */
  @TearDown
  public void tearDown() throws InterruptedException {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  /** A unary call without interceptors. */
  @Benchmark
  public String unauthenticatedCall() {
    try (CallContext.Scope s = edge.open()) {
      return ClientCalls.blockingUnaryCall(channel, PLAIN, CallOptions.DEFAULT, "order");
    }
  }

  /** The same call with a token minted by the client interceptor and verified by the server's. */
  @Benchmark
  public String withInterceptors() {
    try (CallContext.Scope s = edge.open()) {
      return ClientCalls.blockingUnaryCall(secured, SECURED, CallOptions.DEFAULT, "order");
    }
  }
}
