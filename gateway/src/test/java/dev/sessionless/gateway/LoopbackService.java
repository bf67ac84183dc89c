package dev.sessionless.gateway;

import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.reactive.InternalTokenWebFilter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A downstream service, a WebFlux application on a real Reactor Netty server on loopback: {@code
 * /api/**} behind {@link InternalTokenWebFilter} (installed once the gateway's JWKS URL is known),
 * {@code /public/**} open. Both answer what arrived, as {@code key=value} lines: the service's
 * name, the verified token's audience, subject, session id, key id, actors and state, the {@code
 * Cookie} and {@code traceparent} headers, whether an {@code Authorization} or a {@code Txn-Token}
 * header came at all, and a Transaction Token's profile, scope and request context. The last {@code Authorization} header is kept for replaying it elsewhere.
 */
final class LoopbackService implements AutoCloseable {
  private final AtomicReference<WebFilter> verifying = new AtomicReference<>();
  private final DisposableServer server;
  final AtomicReference<String> lastAuthorization = new AtomicReference<>();
  final String name;
  final URI root;

  LoopbackService(String name) {
    this.name = name;
    WebFilter record = (exchange, chain) -> {
      lastAuthorization.set(exchange.getRequest().getHeaders().getFirst("Authorization"));
      return chain.filter(exchange);
    };
    WebFilter api = (exchange, chain) -> {
      if (!exchange.getRequest().getPath().value().startsWith("/api/")) {
        return chain.filter(exchange);
      }
      WebFilter f = verifying.get();
      if (f == null) {
        exchange.getResponse().setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
        return exchange.getResponse().setComplete();
      }
      return f.filter(exchange, chain);
    };
    HttpHandler handler = WebHttpHandlerBuilder.webHandler((WebHandler) this::echo).filter(record, api).build();
    server = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler))
        .bindNow(Duration.ofSeconds(30));
    root = URI.create("http://127.0.0.1:" + server.port());
  }

  /** Installs the receiving filter: from now on {@code /api/**} needs a token it accepts. */
  void verifyWith(InternalTokenWebFilter filter) {
    verifying.set(filter);
  }

  private Mono<Void> echo(ServerWebExchange exchange) {
    Map<String, String> seen = new TreeMap<>();
    seen.put("service", name);
    seen.put("path", exchange.getRequest().getPath().value());
    seen.put("cookie", String.valueOf(exchange.getRequest().getHeaders().getFirst("Cookie")));
    seen.put("traceparent", String.valueOf(exchange.getRequest().getHeaders().getFirst("traceparent")));
    seen.put("authorization", exchange.getRequest().getHeaders().getFirst("Authorization") == null ? "absent" : "present");
    seen.put("txn-token", exchange.getRequest().getHeaders().getFirst("Txn-Token") == null ? "absent" : "present");
    InternalTokenWebFilter.token(exchange).ifPresent((InternalToken t) -> {
      seen.put("aud", t.audience());
      seen.put("sub", t.subject().orElse("-"));
      seen.put("sid", t.sessionId());
      seen.put("kid", t.token().keyId());
      seen.put("actors", String.valueOf(t.actors()));
      seen.put("profile", t.profile().propertyValue());
      seen.put("scope", String.valueOf(new java.util.TreeSet<>(t.scope())));
      seen.put("rctx", String.valueOf(t.requestContext()));
      Map<String, String> state = new TreeMap<>();
      t.stateNames().forEach(n -> state.put(n, t.token().get(n, String.class).orElse("?")));
      seen.put("state", state.toString());
    });
    StringBuilder out = new StringBuilder();
    seen.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
    ServerHttpResponse response = exchange.getResponse();
    response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(out.toString().getBytes(StandardCharsets.UTF_8))));
  }

  @Override
  public void close() {
    server.disposeNow(Duration.ofSeconds(10));
  }
}
