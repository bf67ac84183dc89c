package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.blockhound.BlockHound;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * Nothing of the WebFlux side blocks an event loop: BlockHound watches every Reactor Netty
 * event-loop thread while tokens are verified (keys from a keyring over real HTTP, a key it does
 * not know yet among them, which makes it refresh on its own thread), re-minted and passed on
 * with a WebClient, and the JWKS served. BlockHound here records instead of throwing, so that
 * the test can show it catches a blocking call put on the event loop (a check that sleeps).
 *
 * <p>No allowance: trace and span ids come from core's once-seeded DRBG, which reads no file on
 * the loop (ECDSA signing is deterministic, RFC 6979). The calls are repeated after pauses longer
 * than {@code NativePRNG}'s 100 ms buffer life, so that ids drawn from the platform default would
 * read {@code /dev/urandom} on the loop and be caught.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ReactiveNonBlockingTest {
  static final Queue<String> BLOCKING = new ConcurrentLinkedQueue<>();
  static final String EDGE = "https://edge.example";
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer(EDGE).build();
  private LoopbackNetty jwks;
  private Keyring edgePublic;
  /**
   * Event loops of this test's own, started after BlockHound is installed: BlockHound decides
   * once per thread whether it may block, so loops another test started before would go unwatched.
   */
  private LoopResources loops;

  @BeforeAll
  void install() {
    BlockHound.install(b -> b
        .blockingMethodCallback(m -> BLOCKING.add(m + " on " + Thread.currentThread().getName() + where())));
    loops = LoopResources.create("nonblocking-test", 2, true);
    jwks = new LoopbackNetty(loops, e -> Mono.empty(), JwksWebHandler.builder().keys(edgeKeys).build().at("/jwks.json"));
    edgePublic = Keyring.builder().jwksUrl(jwks.root.resolve("jwks.json")).httpAllowInsecurePlainHttp(true).build();
  }

  /** The frames of the blocking call's caller, for the failure message. */
  static String where() {
    StringBuilder b = new StringBuilder();
    for (StackTraceElement f : new Throwable().getStackTrace()) {
      b.append("\n    at ").append(f);
    }
    return b.toString();
  }

  @AfterAll
  void stop() {
    edgePublic.close();
    jwks.close();
    loops.disposeLater().block(Duration.ofSeconds(30));
  }

  static String token(InternalTokenMinter minter) {
    return minter.mint(EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(Instant.now().plusSeconds(600))
        .put("tenant", "t-7").build(), "orders", Set.of("tenant"));
  }

  /** Orders, re-minting for billing; billing verifies with orders' keys. Returns a client of orders. */
  WebClient services(Predicate<Object> check, List<LoopbackNetty> open) {
    KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.ES256));
    LoopbackNetty billing = new LoopbackNetty(loops, e -> e.getResponse().setComplete(), InternalTokenWebFilter.builder()
        .verifier(InternalTokenVerifier.builder().audience("billing").issuer("orders", orderKeys).build()).build());
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(orderKeys).issuer("orders")
        .build()).grant("billing", "tenant").build();
    WebClient toBilling = LoopbackNetty.client(loops, billing.root, new InternalTokenExchangeFilter(out, "billing"));
    LoopbackNetty orders = new LoopbackNetty(loops,
        e -> toBilling.get().uri("/").retrieve().toBodilessEntity().then(e.getResponse().setComplete()),
        InternalTokenWebFilter.builder().verifier(InternalTokenVerifier.builder().audience("orders")
            .issuer(EDGE, edgePublic).build()).check(check::test).build());
    open.add(billing);
    open.add(orders);
    return LoopbackNetty.client(loops, orders.root);
  }

  static int status(WebClient client, String token) {
    ResponseEntity<Void> r = client.get().uri("/").header("Authorization", "Bearer " + token)
        .exchangeToMono(x -> x.toBodilessEntity()).block(Duration.ofSeconds(30));
    return r.getStatusCode().value();
  }

  @Test
  void verifyingRemintingCallingOnAndServingKeysNeverBlockAnEventLoopAndABlockingCallIsCaught() throws Exception {
    List<LoopbackNetty> open = new java.util.ArrayList<>();
    try {
      WebClient orders = services(t -> true, open);
      String unknownKey = token(InternalTokenMinter.builder().keys(KeySet.of(TokenKey.generate("edge-9", Algorithm.ES256)))
          .issuer(EDGE).build());
      // One round first: the first exchange of a JVM initialises Spring's codec defaults, which
      // read a properties file from a jar once (Spring's own start-up, not a per-request cost).
      for (int i = 0; i < 21; i++) {
        if (i == 1) {
          BLOCKING.clear();
        }
        assertEquals(200, status(orders, token(edge)));
        assertEquals(401, status(orders, unknownKey), "an unknown key: refused, the keyring refreshes on its own thread");
        assertEquals(401, status(orders, "forged.token.x"));
      }
      for (int i = 0; i < 3; i++) {
        Thread.sleep(150); // not a timed assert: a NativePRNG buffer would now be stale, its next draw a file read
        assertEquals(200, status(orders, token(edge)), "a new trace and a child span id after a pause");
      }
      WebClient keys = LoopbackNetty.client(loops, jwks.root);
      for (int i = 0; i < 5; i++) { // the JWKS endpoint served its first document to the keyring already
        assertEquals(200, keys.get().uri("/jwks.json").retrieve().toBodilessEntity().block(Duration.ofSeconds(30))
            .getStatusCode().value());
      }
      assertEquals(List.of(), List.copyOf(BLOCKING), "no blocking call on an event loop");

      // The proof that the watch works: a check that sleeps, on the event loop.
      WebClient sleepy = services(t -> {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return true;
      }, open);
      assertEquals(200, status(sleepy, token(edge)));
      assertFalse(BLOCKING.isEmpty(), "BlockHound saw the sleep on the event loop");
      assertFalse(BLOCKING.stream().noneMatch(s -> s.contains("sleep")), String.valueOf(BLOCKING));
    } finally {
      open.forEach(LoopbackNetty::close);
    }
  }
}
