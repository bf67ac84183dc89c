package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.ReadmeBlocks;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
    // readme-example:start
    KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-2026-11", Algorithm.ES256));
    URI jwksUrl = serve(JwksServlet.builder().keys(edgeKeys).build());   // in any servlet container
    TokenCodec toOrders = TokenCodec.builder().keys(edgeKeys).algorithm(Algorithm.ES256)
        .issuer("https://edge.example").audience("orders").timeToLive(Duration.ofSeconds(60))
        .tokenType(InternalTokens.TOKEN_TYPE).build();
    String token = toOrders.encode(Claims.builder().subject("alice").claim("sid", "s-1").build());
    // In the orders service: the edge's public keys through its JWKS (https; plain http on loopback only)
    Keyring edge = Keyring.builder().jwksUrl(jwksUrl).httpAllowInsecurePlainHttp(true).build();
    TokenCodec fromEdge = TokenCodec.builder().keys(edge).algorithm(Algorithm.ES256)
        .issuer("https://edge.example").audience("orders").timeToLive(Duration.ofSeconds(60))
        .tokenType(InternalTokens.TOKEN_TYPE).build();
    String sid = fromEdge.decode(token).claim("sid", String.class).orElseThrow();
    // readme-example:end
    open.add(edge);
    assertEquals("s-1", sid);
    assertFalse(edge.current().keys().get(0).canSign(), "the downstream side holds no private key");
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/propagation/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
