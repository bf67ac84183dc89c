package dev.sessionless.propagation.spring;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.internal.Callee;
import dev.sessionless.propagation.reactive.ReactiveCallContext;
import java.util.Map;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Adds the internal token and {@code traceparent} for one callee to every request of a Spring
 * {@code WebClient}.
 *
 * <pre>{@code
 * WebClient orders = WebClient.builder().baseUrl(ordersUrl)
 *     .filter(new InternalTokenExchangeFilter(outgoing, "orders")).build();
 * }</pre>
 *
 * <p>The headers are computed when the exchange is subscribed, from the first {@code
 * CallContext} found of: one put in the request's attributes under {@link #CONTEXT_ATTRIBUTE}
 * ({@code .attribute(CONTEXT_ATTRIBUTE, context)}); the one in the subscriber's Reactor {@code
 * Context} under {@link ReactiveCallContext#KEY}, which the WebFlux filters ({@code
 * InternalTokenWebFilter}, {@code EdgeContextWebFilter}) put there, so a handler that returns
 * the call's {@code Mono} passes its token on, narrowed to the callee, on whatever thread it
 * runs; else the subscribing thread's. Without any, the exchange fails with {@code
 * IllegalStateException} and nothing is sent.
 *
 * <p><b>Redirects.</b> The connector follows redirects, if configured to, re-sending the
 * headers this filter set: Reactor Netty's and the JDK connector's defaults follow none; keep
 * it so ({@code HttpClient.create().followRedirect(false)}).
 *
 * <p>Needs {@code spring-webflux} (an optional dependency of this module). Thread-safe.
 */
public final class InternalTokenExchangeFilter implements ExchangeFilterFunction {
  /** The request attribute that may carry the {@link CallContext} to mint from. */
  public static final String CONTEXT_ATTRIBUTE = CallContext.class.getName();

  private final Callee callee;

  /**
   * A filter for calls to {@code audience}.
   *
   * @throws IllegalArgumentException if {@code tokens} has no grant for {@code audience}
   */
  public InternalTokenExchangeFilter(OutgoingTokens tokens, String audience) {
    this.callee = new Callee(tokens, audience);
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.deferContextual(reactor -> {
      Object attached = request.attribute(CONTEXT_ATTRIBUTE).orElse(null);
      Map<String, String> headers;
      try {
        headers = callee.headers(attached != null ? attached : ReactiveCallContext.of(reactor).orElse(null));
      } catch (RuntimeException e) {
        return Mono.error(e); // a reactive pipeline reports failures as signals, not throws
      }
      return next.exchange(ClientRequest.from(request).headers(h -> headers.forEach(h::set)).build());
    });
  }

  /** The audience. */
  @Override
  public String toString() {
    return callee.describe("InternalTokenExchangeFilter");
  }
}
