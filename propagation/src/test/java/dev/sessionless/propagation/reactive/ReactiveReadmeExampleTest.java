package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import dev.sessionless.testing.ReadmeBlocks;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** Keeps the README's WebFlux block compiling and true: the code below is the README's, line for line. */
@Timeout(60)
class ReactiveReadmeExampleTest {
  @Test
  void readmeWebFluxExamplePassesTheCallOnToBillingNarrowed() {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
    KeySet ordersKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256));
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders")
        .issuer("https://edge.example", edgeKeys).build();
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(ordersKeys)
        .issuer("https://orders.internal").build()).grant("billing", "tenant").build();
    Queue<String> payments = new ConcurrentLinkedQueue<>();
    try (LoopbackNetty billingServer = new LoopbackNetty(e -> ReactiveCallContext.token()
        .doOnNext(t -> payments.add(t.subject().orElse("-") + " " + t.stateNames())).then(e.getResponse().setComplete()),
        InternalTokenWebFilter.builder().verifier(InternalTokenVerifier.builder().audience("billing")
            .issuer("https://orders.internal", ordersKeys).build()).build())) {
      String billingUrl = billingServer.root.toString();
      // readme-webflux:start
      // In the orders service: verify every call, and pass the token on, narrowed, to billing
      WebFilter internal = InternalTokenWebFilter.builder().verifier(verifier).build();
      WebClient billing = WebClient.builder().baseUrl(billingUrl)
          .filter(new InternalTokenExchangeFilter(outgoing, "billing")).build();
      WebHandler orders = exchange -> ReactiveCallContext.token()            // the caller's verified token
          .flatMap(t -> billing.get().uri("/pay").retrieve().bodyToMono(String.class))  // re-minted for billing
          .flatMap(paid -> exchange.getResponse().setComplete());
      HttpHandler app = WebHttpHandlerBuilder.webHandler(orders).filter(internal).build();
      // At the edge: each exchange's session and trace for its calls, and the JWKS the services read
      WebFilter edge = EdgeContextWebFilter.builder().subjectAttribute("user").build();
      WebFilter jwks = JwksWebHandler.builder().keys(edgeKeys).build().at("/.well-known/jwks.json");
      // readme-webflux:end
      assertFalse(edge.toString().isEmpty() || jwks.toString().isEmpty());
      DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(app))
          .bindNow(Duration.ofSeconds(30));
      try {
        String token = InternalTokenMinter.builder().keys(edgeKeys).issuer("https://edge.example").build()
            .mint(EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(600))
                .put("tenant", "t-7").put("cart", "book").build(), "orders", Set.of("tenant", "cart"));
        int status = LoopbackNetty.client(java.net.URI.create("http://127.0.0.1:" + server.port() + "/")).get()
            .uri("/orders").header("Authorization", "Bearer " + token).exchangeToMono(r -> r.toBodilessEntity())
            .block(Duration.ofSeconds(30)).getStatusCode().value();
        assertEquals(200, status);
        assertEquals("alice [tenant]", payments.peek(), "billing got alice, the tenant only");
      } finally {
        server.disposeNow(Duration.ofSeconds(30));
      }
    }
  }

  @Test
  void readmeShowsExactlyTheWebFluxCodeThisTestRuns() throws Exception {
    assertEquals(ReadmeBlocks.java(Path.of(
        "src/test/java/dev/sessionless/propagation/reactive/ReactiveReadmeExampleTest.java"), "readme-webflux"),
        ReadmeBlocks.markdown(Path.of("README.md"), "readme-webflux"), "README.md drifted from ReactiveReadmeExampleTest");
  }
}
