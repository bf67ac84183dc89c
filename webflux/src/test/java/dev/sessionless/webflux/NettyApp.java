package dev.sessionless.webflux;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.reactive.handler.WebFluxResponseStatusExceptionHandler;
import org.springframework.web.server.session.WebSessionManager;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * A real Reactor Netty server on a loopback port running WebFlux's own exchange and handler
 * chain ({@code WebHttpHandlerBuilder}) with the session manager under test. Routes are plain
 * functions of the exchange and its session answering a text body.
 */
final class NettyApp implements AutoCloseable {
  /** A route: the session and the exchange in, the body text out. */
  interface Route extends BiFunction<ServerWebExchange, WebSession, Mono<String>> {}

  private final DisposableServer server;

  NettyApp(WebSessionManager sessions, Map<String, Route> routes) {
    this(sessions, routes, null);
  }

  /** On event loops of {@code loops} (null: Reactor Netty's shared ones). */
  NettyApp(WebSessionManager sessions, Map<String, Route> routes, LoopResources loops) {
    var http = WebHttpHandlerBuilder.webHandler(exchange -> {
      Route r = routes.get(exchange.getRequest().getPath().pathWithinApplication().value());
      if (r == null) {
        exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
        return exchange.getResponse().setComplete();
      }
      return exchange.getSession().flatMap(s -> r.apply(exchange, s)).flatMap(body -> exchange.getResponse()
          .writeWith(Mono.just(exchange.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8)))));
    }).sessionManager(sessions)
        // Made here, not lazily on the first request's event loop: its class reads a properties
        // file when it initialises (a boot-time read that BlockHound would report).
        .codecConfigurer(ServerCodecConfigurer.create())
        // What @EnableWebFlux (and Boot) registers: a ResponseStatusException's status and headers.
        .exceptionHandler(new WebFluxResponseStatusExceptionHandler()).build();
    HttpServer s = HttpServer.create().host("127.0.0.1").port(0);
    this.server = (loops == null ? s : s.runOn(loops)).handle(new ReactorHttpHandlerAdapter(http))
        .bindNow(Duration.ofSeconds(30));
  }

  /** {@code http://127.0.0.1:port}. */
  String base() {
    return "http://127.0.0.1:" + server.port();
  }

  @Override
  public void close() {
    server.disposeNow(Duration.ofSeconds(10));
  }
}
