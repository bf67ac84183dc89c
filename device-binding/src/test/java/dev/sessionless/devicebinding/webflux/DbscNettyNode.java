package dev.sessionless.devicebinding.webflux;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.devicebinding.DeviceBindingBuilder;
import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.springframework.http.HttpMethod;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.handler.WebFluxResponseStatusExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * One WebFlux application node on real Reactor Netty over loopback: WebFlux's own exchange chain
 * ({@code WebHttpHandlerBuilder}) with {@code SessionlessWebSessionManager} as its session
 * manager, {@link DeviceBindingWebFilter}, then the application: {@code POST /login?user=..} logs
 * in and offers registration; every other path answers {@code 200} with the user and whether the
 * session is bound, and counts the exchanges that reached it.
 */
final class DbscNettyNode implements LoopbackNode {
  static final String ISSUER = "https://shop.example";
  private final DisposableServer server;
  private final AtomicInteger reached = new AtomicInteger();

  /** On event loops of {@code loops} (started after BlockHound was installed). */
  DbscNettyNode(KeySource sessionKeys, KeySource dbscKeys, Clock clock, Consumer<DeviceBindingBuilder<?>> config,
      LoopResources loops) {
    // readme-webflux:start
    SessionlessWebSessionManager sessions = SessionlessWebSessionManager.builder().keys(sessionKeys)
        .algorithm(Algorithm.HS256).issuer(ISSUER).audience("shop").cookieName("SESSIONLESS").clock(clock).build();
    DeviceBindingWebFilterBuilder b = DeviceBindingWebFilter.builder().keys(dbscKeys).issuer(ISSUER).clock(clock);
    config.accept(b);                                   // each test's settings: policy, lifetimes, routes
    DeviceBindingWebFilter dbsc = b.build();
    HttpHandler http = WebHttpHandlerBuilder.webHandler(this::application)
        .filter(dbsc)                                   // a WebFilter; its session is the token WebSession
        .sessionManager(sessions)
        .codecConfigurer(ServerCodecConfigurer.create())
        .exceptionHandler(new WebFluxResponseStatusExceptionHandler())  // a 503 for an outage, as Boot has
        .build();
    // readme-webflux:end
    // 16 KiB of request headers: Reactor Netty's default 8 KiB would answer 431 itself for the
    // bad-input test's 9,000-character proof, before the filter's own TOO_LARGE refusal is reached.
    server = HttpServer.create().host("127.0.0.1").port(0).httpRequestDecoder(d -> d.maxHeaderSize(16 * 1024))
        .runOn(loops).handle(new ReactorHttpHandlerAdapter(http)).bindNow(Duration.ofSeconds(30));
  }

  private Mono<Void> application(ServerWebExchange exchange) {
    reached.incrementAndGet();
    String user = exchange.getRequest().getQueryParams().getFirst("user");
    if (exchange.getRequest().getPath().value().equals("/login") && exchange.getRequest().getMethod() == HttpMethod.POST) {
      // readme-webflux-login:start
      return exchange.getSession().flatMap(session -> {
        SessionlessWebSessionManager.loggedIn(session, user);
        session.getAttributes().put("user", user);
        return DeviceBindingWebFilter.offerRegistration(exchange);  // Secure-Session-Registration on this response
      }).then(Mono.defer(() -> text(exchange, "logged in")));
      // readme-webflux-login:end
    }
    return exchange.getSession().flatMap(session -> text(exchange,
        "user=" + session.getAttributes().get("user") + " bound=" + DeviceBindingWebFilter.isBound(exchange)));
  }

  private static Mono<Void> text(ServerWebExchange exchange, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return exchange.getResponse().writeWith(Mono.fromSupplier(() -> exchange.getResponse().bufferFactory().wrap(bytes)));
  }

  @Override
  public String base() {
    return "http://127.0.0.1:" + server.port();
  }

  @Override
  public int reached() {
    return reached.get();
  }

  @Override
  public void close() {
    server.disposeNow(Duration.ofSeconds(10));
  }
}
