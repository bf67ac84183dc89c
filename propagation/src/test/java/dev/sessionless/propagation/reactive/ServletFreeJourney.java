package dev.sessionless.propagation.reactive;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * An edge and a service on WebFlux, every reactive piece in use (the edge filter, the receiving
 * filter, the JWKS endpoint, the WebClient filter), on real Reactor Netty servers over loopback.
 * {@link ServletFreeReactiveTest} runs it in a class loader that hides the Servlet API; public
 * with a public constructor so that it can be made there by reflection.
 */
public final class ServletFreeJourney implements Callable<String> {
  /** Made by reflection in the hiding class loader. */
  public ServletFreeJourney() {}

  /**
   * The edge's answer to a signed-in browser (the subject the service saw), then the JWKS
   * endpoint's status and whether its body names the key.
   */
  @Override
  public String call() {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders")
        .issuer("https://edge.example", edgeKeys).build();
    WebHandler echoSubject = e -> ReactiveCallContext.token().flatMap(t -> e.getResponse().writeWith(Mono.just(
        e.getResponse().bufferFactory().wrap(t.subject().orElse("-").getBytes(StandardCharsets.UTF_8)))));
    try (LoopbackNetty orders = new LoopbackNetty(echoSubject, InternalTokenWebFilter.builder().verifier(verifier).build())) {
      OutgoingTokens outgoing = OutgoingTokens.builder()
          .minter(InternalTokenMinter.builder().keys(edgeKeys).issuer("https://edge.example").build())
          .grant("orders").build();
      WebClient toOrders = LoopbackNetty.client(orders.root, new InternalTokenExchangeFilter(outgoing, "orders"));
      WebHandler page = e -> e.getSession()
          .doOnNext(s -> s.getAttributes().put("user", "alice"))
          .then(toOrders.get().uri("/orders").retrieve().bodyToMono(String.class))
          .flatMap(body -> e.getResponse().writeWith(Mono.just(
              e.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8)))));
      try (LoopbackNetty edge = new LoopbackNetty(page,
          JwksWebHandler.builder().keys(edgeKeys).build().at("/jwks.json"),
          EdgeContextWebFilter.builder().subjectAttribute("user").build())) {
        WebClient browser = LoopbackNetty.client(edge.root);
        String seen = browser.get().uri("/page").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30));
        String jwks = browser.get().uri("/jwks.json").retrieve().toEntity(String.class)
            .map(r -> r.getStatusCode().value() + " " + r.getBody().contains("\"edge-1\""))
            .block(Duration.ofSeconds(30));
        return seen + " " + jwks;
      }
    }
  }
}
