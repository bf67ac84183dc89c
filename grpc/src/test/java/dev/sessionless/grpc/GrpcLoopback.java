package dev.sessionless.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Real gRPC servers and channels on Netty over loopback, with one unary method of UTF-8 strings
 * per service (no protoc: a {@link MethodDescriptor} and a string marshaller). Closing shuts
 * every channel and server down, last opened first, then closes what it was given to {@link #own}.
 */
final class GrpcLoopback implements AutoCloseable {
  /** Strings as UTF-8 bytes. */
  static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try (stream) {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private final List<Server> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<AutoCloseable> owned = new ArrayList<>();

  /** Closes {@code resource} with this, after the channels and servers, last given first. */
  <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  /** The one method of {@code service}: {@code service/Call}, unary, strings. */
  static MethodDescriptor<String, String> method(String service) {
    return MethodDescriptor.<String, String>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, "Call"))
        .setRequestMarshaller(UTF8).setResponseMarshaller(UTF8).build();
  }

  /**
   * Serves {@code service}'s method with {@code handler} behind {@code interceptors} (the first
   * runs last, as {@link ServerInterceptors#intercept} orders them) on a free loopback port.
   * A {@link StatusRuntimeException} from the handler goes back as its status; anything else
   * it throws is left to gRPC and the interceptors.
   */
  Server serve(String service, UnaryOperator<String> handler, ServerInterceptor... interceptors) throws IOException {
    ServerServiceDefinition definition = ServerServiceDefinition.builder(service)
        .addMethod(method(service), ServerCalls.asyncUnaryCall((request, response) -> {
          String answer;
          try {
            answer = handler.apply(request);
          } catch (StatusRuntimeException e) {
            response.onError(e);
            return;
          }
          response.onNext(answer);
          response.onCompleted();
        })).build();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(definition, interceptors)).build().start();
    servers.add(server);
    return server;
  }

  /** A plaintext channel to {@code server}. */
  ManagedChannel channel(Server server) {
    ManagedChannel c = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    channels.add(c);
    return c;
  }

  /** One blocking call of {@code service}'s method, with a 30 s deadline. */
  static String call(Channel channel, String service, String request) {
    return ClientCalls.blockingUnaryCall(channel, method(service),
        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request);
  }

  @Override
  public void close() throws Exception {
    for (int i = channels.size() - 1; i >= 0; i--) {
      channels.get(i).shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    for (int i = servers.size() - 1; i >= 0; i--) {
      servers.get(i).shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    for (int i = owned.size() - 1; i >= 0; i--) {
      owned.get(i).close();
    }
  }
}
