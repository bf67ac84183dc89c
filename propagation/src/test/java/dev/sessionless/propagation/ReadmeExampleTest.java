package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.ReadmeBlocks;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps the README example compiling and true: the code below is the README's, line for line. */
class ReadmeExampleTest {
  private final List<AutoCloseable> open = new ArrayList<>();

  /** Serves the servlet in a real Jetty on loopback, as any servlet container would. */
  URI serve(JwksServlet servlet) throws Exception {
    LoopbackJetty jetty = new LoopbackJetty(servlet);
    open.add(jetty);
    return jetty.uri;
  }

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void readmeExampleCarriesTheSessionIdToTheDownstreamService() throws Exception {
    TokenCodec sessionCodec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("b", Algorithm.HS256)))
        .issuer("https://edge.example").audience("shop").timeToLive(Duration.ofMinutes(30)).build();
    String cookie = sessionCodec.encode(Claims.builder().subject("alice").put("cart", List.of("book"))
        .put("csrf", "x").build());
    // readme-example:start
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-2026-11", Algorithm.ES256));
    URI jwksUrl = serve(JwksServlet.builder().keys(edgeKeys).build());   // in any servlet container
    InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer("https://edge.example").build();
    SessionToken browserSession = sessionCodec.decode(cookie);          // the user's verified session
    String token = edge.mint(EdgeSession.of(browserSession), "orders", Set.of("cart"));  // 60 s, the cart only
    // In the orders service: the edge's public keys through its JWKS (https; plain http on loopback only)
    Keyring edgePublic = Keyring.builder().jwksUrl(jwksUrl).httpAllowInsecurePlainHttp(true).build();
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders")
        .issuer("https://edge.example", edgePublic).build();
    InternalToken call = verifier.verify(token);   // or TokenException: WRONG_AUDIENCE, WIDENED, ...
    // readme-example:end
    open.add(edgePublic);
    assertEquals(browserSession.id(), call.sessionId());
    assertEquals("alice", call.subject().orElseThrow());
    assertEquals(Set.of("cart"), call.stateNames());
    assertFalse(edgePublic.current().keys().get(0).canSign(), "the downstream side holds no private key");
  }

  @Test
  @Timeout(60)
  void readmeTransactionTokenExampleCarriesSubjectTxnAndTraceToTheTrustDomain() throws Exception {
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-2026-11", Algorithm.ES256));
    URI jwksUrl = serve(JwksServlet.builder().keys(edgeKeys).build());
    EdgeSession session = EdgeSession.builder().sessionId("s-1").subject("alice").put("ticker", "MSFT").build();
    TraceContext trace = TraceContext.newTrace();
    // readme-txn:start
    InternalTokenMinter edge = InternalTokenMinter.builder().keys(edgeKeys).issuer("https://edge.example")
        .profile(TokenProfile.TXN_TOKEN).trustDomain("trust-domain.example").scope("trade.stocks").build();
    String txnToken = edge.mint(session, "orders", Set.of("ticker"), trace);   // aud = the trust domain
    // In any service of the trust domain, from the Txn-Token header:
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN)
        .audience("trust-domain.example").issuer("https://edge.example", edgePublic(jwksUrl)).build();
    InternalToken txn = verifier.verify(txnToken);   // txn.transactionId(), scope(), requestContext()
    // readme-txn:end
    assertEquals("alice", txn.subject().orElseThrow());
    assertEquals(Set.of("trade.stocks"), txn.scope());
    assertEquals(trace.traceId(), txn.requestContext().get(TransactionTokens.TRACE_ID));
    assertEquals("MSFT", txn.get("ticker", String.class).orElseThrow());
  }

  Keyring edgePublic(URI jwksUrl) {
    Keyring k = Keyring.builder().jwksUrl(jwksUrl).httpAllowInsecurePlainHttp(true).build();
    open.add(k);
    return k;
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/propagation/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
    List<String> txnTested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/propagation/ReadmeExampleTest.java"), "readme-txn");
    assertFalse(txnTested.isEmpty());
    assertEquals(txnTested, ReadmeBlocks.markdown(Path.of("README.md"), "readme-txn"),
        "README.md's Transaction Token block drifted from ReadmeExampleTest");
  }
}
