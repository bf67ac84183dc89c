package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An edge issuer publishes its keys through {@link JwksServlet} in a real Jetty; a downstream
 * service verifies internal tokens with keys it fetched through the keyring's HTTP source. Each
 * refused token is refused with its own reason.
 */
class DownstreamVerificationTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "orders";

  private final TokenKey edgeKey = TokenKey.generate("edge-es256", Algorithm.ES256);
  private final KeySet edgeKeys = KeySet.of(edgeKey, TokenKey.generate("edge-eddsa", Algorithm.EDDSA));
  private LoopbackJetty jwks;
  private Keyring downstreamKeys;

  @BeforeEach
  void start() throws Exception {
    jwks = new LoopbackJetty(JwksServlet.builder().keys(edgeKeys).build());
    downstreamKeys = Keyring.builder().jwksUrl(jwks.uri).httpAllowInsecurePlainHttp(true).build();
  }

  @AfterEach
  void stop() throws Exception {
    downstreamKeys.close();
    jwks.close();
  }

  static TokenCodec.Builder internal(KeySource keys, String audience, Algorithm alg) {
    return TokenCodec.builder().keys(keys).algorithm(alg).issuer(EDGE).audience(audience)
        .timeToLive(Duration.ofSeconds(60)).tokenType(InternalTokens.TOKEN_TYPE);
  }

  /** The edge's minter for calls to {@code audience}. */
  TokenCodec edgeFor(String audience) {
    return internal(edgeKeys, audience, Algorithm.ES256).build();
  }

  /** The downstream service's verifier: its own audience, the edge's published keys. */
  TokenCodec orders() {
    return internal(downstreamKeys, ORDERS, Algorithm.ES256).acceptAlgorithms(Algorithm.ES256, Algorithm.EDDSA).build();
  }

  static Claims call() {
    return Claims.builder().subject("alice").claim("sid", "session-1")
        .claim("act", Map.of("sub", EDGE)).put("tenant", "t-1").build();
  }

  static Reason refused(TokenCodec codec, String token) {
    TokenException e = assertThrows(TokenException.class, () -> codec.decode(token));
    assertTrue(e.reason().isRejection(), e.reason() + " is a rejection, not an internal failure");
    return e.reason();
  }

  @Test
  void internalTokenVerifiesDownstreamWithThePublishedKeys() {
    for (Algorithm alg : new Algorithm[] {Algorithm.ES256, Algorithm.EDDSA}) {
      String token = internal(edgeKeys, ORDERS, alg).build().encode(call());
      SessionToken t = orders().decode(token);
      assertEquals(EDGE, t.issuer());
      assertEquals(ORDERS, t.audience());
      assertEquals("alice", t.subject().orElseThrow());
      assertEquals("session-1", t.claim("sid", String.class).orElseThrow());
      assertEquals(Map.of("sub", EDGE), t.claim("act", Map.class).orElseThrow());
      assertEquals("t-1", t.get("tenant", String.class).orElseThrow());
    }
  }

  @Test
  void tokenForAnotherAudienceIsRefused() {
    assertEquals(Reason.WRONG_AUDIENCE, refused(orders(), edgeFor("billing").encode(call())));
  }

  @Test
  void tokenSignedByAKeyNotInTheIssuersJwksIsRefused() {
    TokenKey stranger = TokenKey.generate("stranger", Algorithm.ES256);
    String token = internal(KeySet.of(stranger), ORDERS, Algorithm.ES256).build().encode(call());
    assertEquals(Reason.UNKNOWN_KEY, refused(orders(), token));
    TokenKey impostor = TokenKey.generate(edgeKey.kid(), Algorithm.ES256); // the edge's kid, another key
    String forged = internal(KeySet.of(impostor), ORDERS, Algorithm.ES256).build().encode(call());
    assertEquals(Reason.BAD_SIGNATURE, refused(orders(), forged));
  }

  @Test
  void hs256TokenForgedWithTheIssuersPublicKeyAsSecretIsRefused() throws Exception {
    String valid = edgeFor(ORDERS).encode(call());
    String payload = valid.substring(valid.indexOf('.') + 1, valid.lastIndexOf('.'));
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header = b64.encodeToString(("{\"alg\":\"HS256\",\"kid\":\"" + edgeKey.kid() + "\",\"typ\":\""
        + InternalTokens.TOKEN_TYPE + "\"}").getBytes(StandardCharsets.UTF_8));
    String input = header + "." + payload;
    // The secrets an attacker would try: the published JWK text, and the key's encoded form.
    for (byte[] secret : new byte[][] {
        edgeKey.toPublicJwk().getBytes(StandardCharsets.UTF_8),
        edgeKeys.toPublicJwks().getBytes(StandardCharsets.UTF_8)}) {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      String forged = input + "." + b64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
      assertEquals(Reason.ALGORITHM_MISMATCH, refused(orders(), forged));
    }
  }

  @Test
  void browserSessionTokenPresentedAsInternalIsRefused() {
    TokenCodec browser = TokenCodec.builder().keys(edgeKeys).algorithm(Algorithm.ES256).issuer(EDGE)
        .audience(ORDERS).timeToLive(Duration.ofMinutes(30)).build();
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(orders(), browser.encode(call())));
  }

  @Test
  void internalTokenPresentedAsABrowserSessionIsRefused() {
    TokenCodec browserReader = TokenCodec.builder().keys(downstreamKeys).algorithm(Algorithm.ES256).issuer(EDGE)
        .audience(ORDERS).timeToLive(Duration.ofMinutes(30)).build();
    assertEquals(Reason.WRONG_TOKEN_TYPE, refused(browserReader, edgeFor(ORDERS).encode(call())));
  }

  @Test
  void expiredInternalTokenIsRefused() {
    String token = edgeFor(ORDERS).encode(call());
    // The downstream clock two minutes on: past the 60 s lifetime and the 30 s leeway.
    TokenCodec later = internal(downstreamKeys, ORDERS, Algorithm.ES256)
        .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(2))).build();
    assertEquals(Reason.EXPIRED, refused(later, token));
  }
}
