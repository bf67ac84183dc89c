package dev.sessionless.propagation.reactive;

import dev.sessionless.propagation.internal.Answer;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

/** Writes this module's answers ({@link Answer}) to a WebFlux response, as the servlet side writes them. */
final class Responses {
  private Responses() {}

  /** Writes {@code answer}: its status, headers, content type and body. */
  static Mono<Void> write(ServerHttpResponse response, Answer answer) {
    response.setStatusCode(HttpStatusCode.valueOf(answer.status()));
    HttpHeaders h = response.getHeaders();
    answer.headers().forEach(h::set);
    h.set(HttpHeaders.CONTENT_TYPE, Answer.CONTENT_TYPE);
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    h.setContentLength(body.length);
    return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
  }

  /** Whether {@code e} is, or wraps, an instance of {@code type} (32 causes deep at most). */
  static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
