package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.TransactionTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * The WebFlux pieces in the Transaction Token profile on a real Reactor Netty server: {@link
 * InternalTokenExchangeFilter} sends the token in {@code Txn-Token} and {@link
 * InternalTokenWebFilter} reads it there, with the refusals of the internal profile.
 */
@Timeout(60)
class TransactionTokenHelpersTest {
  static final String EDGE = "https://edge.example";
  static final String DOMAIN = "trust-domain.example";
  static final KeySet KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final TraceContext TRACE = TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
      .orElseThrow();

  static InternalTokenMinter minter(TokenProfile profile) {
    InternalTokenMinter.Builder b = InternalTokenMinter.builder().keys(KEYS).issuer(EDGE).profile(profile);
    return profile == TokenProfile.TXN_TOKEN ? b.trustDomain(DOMAIN).scope("pay").build() : b.build();
  }

  static CallContext context() {
    EdgeSession s = EdgeSession.builder().sessionId("s-5").subject("dave").expiresAt(Instant.now().plusSeconds(900))
        .put("tenant", "t-5").build();
    return CallContext.ofSession(TRACE, () -> Optional.of(s));
  }

  /** Answers with what the verified Transaction Token told it. */
  static final WebHandler ECHO = exchange -> ReactiveCallContext.token().flatMap(t -> {
    String body = String.join("|", t.subject().orElse("-"), t.transactionId().orElse("-"), String.valueOf(t.scope()),
        t.get("tenant", String.class).orElse("-"), String.valueOf(t.requestContext().get(TransactionTokens.TRACE_ID)));
    DataBuffer b = exchange.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8));
    return exchange.getResponse().writeWith(Mono.just(b));
  });

  @Test
  void webClientSendsTheTransactionTokenInItsHeaderAndTheWebFilterAcceptsIt() {
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN).audience(DOMAIN)
        .issuer(EDGE, KEYS).build();
    OutgoingTokens out = OutgoingTokens.builder().minter(minter(TokenProfile.TXN_TOKEN)).grant("billing", "tenant")
        .build();
    try (LoopbackNetty billing = new LoopbackNetty(ECHO, InternalTokenWebFilter.builder().verifier(verifier).build())) {
      WebClient client = LoopbackNetty.client(billing.root, new InternalTokenExchangeFilter(out, "billing"));
      String body = client.get().uri("/pay").attribute(InternalTokenExchangeFilter.CONTEXT_ATTRIBUTE, context())
          .retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30));
      String[] f = body.split("\\|");
      assertEquals(List.of("dave", "[pay]", "t-5", TRACE.traceId()), List.of(f[0], f[2], f[3], f[4]), body);
      assertEquals(36, f[1].length(), "a txn: " + body);

      WebClient plain = LoopbackNetty.client(billing.root);
      String txnToken = out.tokenFor(context(), "billing");
      assertEquals(401, status(plain.get().uri("/pay").header(HttpHeaders.AUTHORIZATION, "Bearer " + txnToken)),
          "not in Authorization: the draft's header only");
      String internal = minter(TokenProfile.INTERNAL).mint(context().session().orElseThrow(), DOMAIN, Set.of());
      assertEquals("401 Bearer error=\"invalid_token\"", statusAndChallenge(plain.get().uri("/pay")
          .header(TransactionTokens.HEADER, internal)), "a token of the other profile");
      assertEquals("401 Bearer", statusAndChallenge(plain.get().uri("/pay")), "none at all");
      assertEquals(200, status(plain.get().uri("/pay").header(TransactionTokens.HEADER, txnToken)));
    }
  }

  static int status(WebClient.RequestHeadersSpec<?> request) {
    return request.exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value())).block(Duration.ofSeconds(30));
  }

  static String statusAndChallenge(WebClient.RequestHeadersSpec<?> request) {
    return request.exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value() + " "
        + r.headers().asHttpHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE))).block(Duration.ofSeconds(30));
  }
}
