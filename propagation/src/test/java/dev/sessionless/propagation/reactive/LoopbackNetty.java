package dev.sessionless.propagation.reactive;

import java.net.URI;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.server.session.WebSessionManager;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/** A real Reactor Netty server on a free loopback port, serving a WebFlux handler behind its filters. */
final class LoopbackNetty implements AutoCloseable {
  private final DisposableServer server;
  final URI root;

  LoopbackNetty(WebHandler handler, WebFilter... filters) {
    this(null, handler, filters);
  }

  /** On event loops of {@code loops} (null: Reactor Netty's shared ones). */
  LoopbackNetty(LoopResources loops, WebHandler handler, WebFilter... filters) {
    this(loops, null, handler, filters);
  }

  /** With this session manager (null: WebFlux's own in-memory sessions), on Reactor Netty's shared loops. */
  static LoopbackNetty withSessions(WebSessionManager sessions, WebHandler handler, WebFilter... filters) {
    return new LoopbackNetty(null, sessions, handler, filters);
  }

  private LoopbackNetty(LoopResources loops, WebSessionManager sessions, WebHandler handler, WebFilter... filters) {
    WebHttpHandlerBuilder builder = WebHttpHandlerBuilder.webHandler(handler).filters(f -> f.addAll(java.util.List.of(filters)));
    if (sessions != null) {
      builder.sessionManager(sessions);
    }
    HttpHandler http = builder.build();
    HttpServer s = HttpServer.create().host("127.0.0.1").port(0);
    server = (loops == null ? s : s.runOn(loops)).handle(new ReactorHttpHandlerAdapter(http))
        .bindNow(Duration.ofSeconds(30));
    root = URI.create("http://127.0.0.1:" + server.port() + "/");
  }

  /** A WebClient on real Reactor Netty, following no redirect, with these filters. */
  static WebClient client(URI base, ExchangeFilterFunction... filters) {
    return client(null, base, filters);
  }

  /** As {@link #client(URI, ExchangeFilterFunction...)}, on event loops of {@code loops} (null: the shared ones). */
  static WebClient client(LoopResources loops, URI base, ExchangeFilterFunction... filters) {
    HttpClient c = HttpClient.create().followRedirect(false);
    WebClient.Builder b = WebClient.builder().baseUrl(base.toString())
        .clientConnector(new ReactorClientHttpConnector(loops == null ? c : c.runOn(loops)));
    for (ExchangeFilterFunction f : filters) {
      b.filter(f);
    }
    return b.build();
  }

  /** GET {@code path}, with this {@code Cookie} header (none if null); the answer as text. */
  static ResponseEntity<String> get(WebClient c, String path, String cookie) {
    return c.get().uri(path).headers(h -> {
      if (cookie != null) {
        h.set(HttpHeaders.COOKIE, cookie);
      }
    }).exchangeToMono(r -> r.toEntity(String.class)).block(Duration.ofSeconds(30));
  }

  @Override
  public void close() {
    server.disposeNow(Duration.ofSeconds(30));
  }
}
