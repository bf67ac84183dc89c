package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The WebClient filter takes the call context from Reactor's {@code Context}: a pipeline that
 * runs on threads with no bound context still passes the token on, narrowed to the callee.
 */
@Timeout(60)
class ExchangeFilterReactorContextTest {
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer("https://edge.example").build();
  private LoopbackNetty echo;

  @AfterEach
  void stop() {
    if (echo != null) {
      echo.close();
    }
  }

  /** Answers the Authorization and traceparent headers it got. */
  WebClient client(OutgoingTokens outgoing) {
    echo = new LoopbackNetty(e -> {
      HttpHeaders h = e.getRequest().getHeaders();
      String body = h.getFirst(HttpHeaders.AUTHORIZATION) + "|" + h.getFirst(TraceContext.HEADER);
      return e.getResponse().writeWith(Mono.just(e.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
    });
    return LoopbackNetty.client(echo.root, new InternalTokenExchangeFilter(outgoing, "orders"));
  }

  @Test
  void theCallContextInReactorsContextMintsTheCallOnAnyThreadWithoutAThreadLocal() {
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(edge).grant("orders", "tenant").build();
    WebClient orders = client(outgoing);
    TraceContext trace = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").orElseThrow();
    CallContext context = CallContext.ofSession(trace, () -> Optional.of(EdgeSession.builder().sessionId("s-1")
        .subject("alice").expiresAt(Instant.now().plusSeconds(600)).put("tenant", "t-7").put("cart", "x").build()));
    String got = Mono.defer(() -> orders.get().uri("/").retrieve().bodyToMono(String.class))
        .subscribeOn(Schedulers.boundedElastic())
        .contextWrite(ReactiveCallContext.with(context))
        .block(Duration.ofSeconds(30));
    assertFalse(CallContext.current().isPresent(), "nothing bound to any thread here");
    String[] parts = got.split("\\|");
    assertTrue(parts[0].startsWith("Bearer "), got);
    InternalToken t = InternalTokenVerifier.builder().audience("orders").issuer("https://edge.example", edgeKeys).build()
        .verify(parts[0].substring(7));
    assertEquals("alice", t.subject().orElseThrow());
    assertEquals(Set.of("tenant"), t.stateNames(), "narrowed to the callee's grant");
    assertTrue(parts[1].startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-"), "a child of the context's trace: " + got);
  }

  @Test
  void aContextInTheRequestsAttributesStillWinsAndNoContextAtAllStillFails() {
    OutgoingTokens outgoing = OutgoingTokens.builder().minter(edge).grant("orders", "tenant").build();
    WebClient orders = client(outgoing);
    TraceContext reactorTrace = TraceContext.newTrace();
    TraceContext attributeTrace = TraceContext.newTrace();
    CallContext inReactor = CallContext.ofSession(reactorTrace,
        () -> Optional.of(EdgeSession.builder().sessionId("s-1").subject("alice").build()));
    CallContext inAttribute = CallContext.ofSession(attributeTrace,
        () -> Optional.of(EdgeSession.builder().sessionId("s-2").subject("bob").build()));
    String got = orders.get().uri("/").attribute(InternalTokenExchangeFilter.CONTEXT_ATTRIBUTE, inAttribute)
        .retrieve().bodyToMono(String.class).contextWrite(ReactiveCallContext.with(inReactor))
        .block(Duration.ofSeconds(30));
    assertTrue(got.split("\\|")[1].contains(attributeTrace.traceId()), got);
    assertThrows(IllegalStateException.class,
        () -> orders.get().uri("/").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30)));
  }
}
