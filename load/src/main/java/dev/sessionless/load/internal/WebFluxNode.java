package dev.sessionless.load.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySource;
import dev.sessionless.load.LoadException;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.handler.WebFluxResponseStatusExceptionHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * One node of the {@code sessionless-webflux} system: the {@link ShopHandler} behind WebFlux's own
 * exchange and handler chain ({@code WebHttpHandlerBuilder}) with a {@link
 * SessionlessWebSessionManager}, served by Reactor Netty on a loopback port. The node has its own
 * event loops, so {@link #kill()} is a real stop of this node alone: its listening socket and every
 * connection it accepted close, and requests in flight on it fail, as when a process dies.
 */
final class WebFluxNode {
  private static final AtomicInteger STARTED = new AtomicInteger();
  private static final Duration BIND = Duration.ofSeconds(30);
  private static final Duration STOP = Duration.ofSeconds(10);

  private final DisposableServer server;
  private final LoopResources loops;

  private WebFluxNode(DisposableServer server, LoopResources loops) {
    this.server = server;
    this.loops = loops;
  }

  /**
   * Starts a node on {@code port} (0: a free one) whose sessions are tokens made with {@code keys}
   * (shared with the other nodes; nothing else is), {@code algorithm} and {@code compression}.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when it does not start
   */
  static WebFluxNode start(int port, KeySource keys, Algorithm algorithm, Compression compression,
      LongSupplier appCpuNanos) {
    LoopResources loops = LoopResources.create("load-webflux-" + STARTED.incrementAndGet(), 1,
        LoopResources.DEFAULT_IO_WORKER_COUNT, true);
    try {
      SessionlessWebSessionManager sessions = SessionlessWebSessionManager.builder()
          .keys(keys).issuer("https://shop.example").audience("shop")
          .algorithm(algorithm).compression(compression).build();
      var http = WebHttpHandlerBuilder.webHandler(new ShopHandler(appCpuNanos)).sessionManager(sessions)
          .codecConfigurer(ServerCodecConfigurer.create())
          .exceptionHandler(new WebFluxResponseStatusExceptionHandler()).build();
      DisposableServer server = HttpServer.create().runOn(loops).host("127.0.0.1").port(port)
          .option(ChannelOption.SO_REUSEADDR, true) // the restarted node binds its predecessor's port
          .handle(new ReactorHttpHandlerAdapter(http)).bindNow(BIND);
      return new WebFluxNode(server, loops);
    } catch (RuntimeException e) {
      disposeLoops(loops);
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not start a WebFlux node: " + e, e);
    }
  }

  /** The port it listens on. */
  int port() {
    return server.port();
  }

  /**
   * Stops the node at once, best effort: the listening socket closes, then its event loops shut
   * down with no quiet period, which closes every connection they serve (no request waits on this
   * node for its own timeout).
   */
  void kill() {
    server.dispose();
    disposeLoops(loops);
  }

  private static void disposeLoops(LoopResources loops) {
    try {
      loops.disposeLater(Duration.ZERO, STOP).block(STOP.plus(STOP));
    } catch (RuntimeException e) {
      // stopping is best effort: the JVM ends the run anyway
    }
  }
}
