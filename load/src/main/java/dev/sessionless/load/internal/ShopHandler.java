package dev.sessionless.load.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.LongSupplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * The shop as a WebFlux handler on {@code WebSession}: the same routes, rules and answers as
 * {@link ShopServlet} (both follow {@link Shop}), unaware of how the session is kept. Mapped as
 * the servlet is ({@code /shop/*}): any other path is a 404 (but {@link Cluster#HEALTH_PATH}, a
 * 200), and so is an unknown action.
 */
final class ShopHandler implements WebHandler {
  private static final String PREFIX = "/shop";

  /** Nanoseconds of CPU time to spend on each request ({@link ShopServlet#spend}). */
  private final LongSupplier appCpuNanos;

  ShopHandler(LongSupplier appCpuNanos) {
    this.appCpuNanos = appCpuNanos;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange) {
    String path = exchange.getRequest().getPath().pathWithinApplication().value();
    ServerHttpResponse res = exchange.getResponse();
    if (path.equals(Cluster.HEALTH_PATH)) { // a balancer's health check: no session
      res.setStatusCode(HttpStatus.OK);
      return res.setComplete();
    }
    if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
      res.setStatusCode(HttpStatus.NOT_FOUND);
      return res.setComplete();
    }
    String action = path.substring(PREFIX.length());
    String item = exchange.getRequest().getQueryParams().getFirst("item");
    return exchange.getSession().flatMap(session -> {
      ShopServlet.spend(appCpuNanos.getAsLong());
      Map<String, Object> attributes = session.getAttributes();
      String body = Shop.serve(action, item, new Shop.Session(attributes::get, attributes::put, attributes::remove));
      if (body == null) {
        res.setStatusCode(HttpStatus.NOT_FOUND);
        return res.setComplete();
      }
      res.getHeaders().set(HttpHeaders.CONTENT_TYPE, Shop.CONTENT_TYPE);
      return res.writeWith(Mono.just(res.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
    });
  }
}
