package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 7517 section 5: a JWK Set reader SHOULD ignore keys it does not understand. A remote JWKS
 * (an identity provider's, say) often holds an encryption key or an RSA key beside the signing
 * keys; the keyring skips those, says so once per kid, shows them in the source's status and keeps
 * the rest. A document with no usable key at all is still refused, and a local key file, which
 * the operator writes, stays strict. The JWKS is served by a real HTTP server on loopback.
 */
class UnusableJwksKeysTest {
  static final Instant T = Instant.parse("2026-11-28T09:00:00Z");
  static final String RSA = "{\"kty\":\"RSA\",\"kid\":\"rsa-1\",\"use\":\"sig\",\"alg\":\"RS256\","
      + "\"n\":\"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECP"
      + "ebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQ"
      + "MicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3"
      + "XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw\",\"e\":\"AQAB\"}";
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T);
  final TokenKey signing = TokenKey.generate("sig-1", Algorithm.ES256);
  final TokenKey encryption = TokenKey.generate("enc-1", Algorithm.ES256);

  /** A JWKS of the signing key, an EC key its publisher marked for encryption, and an RSA key. */
  String mixedJwks() {
    String sig = KeySet.of(signing).toPublicJwks();
    String enc = encryption.toPublicJwk().replace("\"use\":\"sig\"", "\"use\":\"enc\"");
    assertTrue(enc.contains("\"use\":\"enc\""), enc);
    return sig.replace("]}", "," + enc + "," + RSA + "]}");
  }

  static TokenCodec es256(dev.sessionless.core.KeySource keys) {
    return TokenCodec.builder().keys(keys).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  @Test
  void aRemoteJwksWithAnEncryptionKeyAmongSigningKeysKeepsTheSigningKeys() throws Exception {
    int mark = RecordingLoggerFinder.mark();
    FakeScheduler scheduler = new FakeScheduler(clock);
    try (JwksEndpoint endpoint = new JwksEndpoint(KeySet.empty());
        Keyring keyring = buildOver(endpoint, scheduler)) {
      assertEquals(List.of("sig-1"), keyring.status().keyIds());
      SourceStatus source = keyring.status().sources().get(0);
      assertEquals(Set.of("enc-1", "rsa-1"), source.skippedKeys().keySet());
      assertTrue(source.skippedKeys().get("enc-1").contains("\"use\" is \"enc\""), source.skippedKeys().toString());
      assertTrue(source.skippedKeys().get("rsa-1").contains("RSA"), source.skippedKeys().toString());
      assertTrue(source.toString().contains("skipped=[enc-1, rsa-1]"), source.toString());
      String token = es256(KeySet.of(signing)).encode(Claims.builder().subject("alice").build());
      assertEquals("alice", es256(keyring).decode(token).subject().orElseThrow());

      clock.advance(Duration.ofMinutes(10)); // the next refresh reads the same document
      scheduler.runDue();
      assertEquals(2, endpoint.requests.get(), "refreshed");
      List<RecordingLoggerFinder.Entry> warned = RecordingLoggerFinder.since(mark,
          e -> e.level == Level.WARNING && e.text.contains("skipped key"));
      assertEquals(2, warned.size(), "once per kid, not once per refresh: " + warned);
      assertTrue(warned.stream().anyMatch(e -> e.text.contains("enc-1")), warned.toString());
    }
  }

  @Test
  void aRemoteJwksWithNoUsableKeyIsRefusedSayingWhatWasSkipped() throws Exception {
    try (JwksEndpoint endpoint = new JwksEndpoint(KeySet.empty())) {
      endpoint.body = "{\"keys\":[" + RSA + "]}";
      KeyringException e = assertThrows(KeyringException.class,
          () -> Keyring.builder().jwksUrl(endpoint.uri()).httpAllowInsecurePlainHttp(true).build());
      assertEquals(KeyringException.Reason.MALFORMED, e.reason());
      assertTrue(e.getMessage().contains("no key this library can use") && e.getMessage().contains("rsa-1"),
          e.getMessage());
    }
  }

  @Test
  void aLocalKeyFileWithAnUnusableKeyIsStillRefusedWhole() throws Exception {
    Path file = dir.resolve("peer.jwks");
    Files.writeString(file, mixedJwks());
    KeyringException e = assertThrows(KeyringException.class,
        () -> Keyring.builder().jwksFile(file).verifyOnly().build());
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
    assertTrue(e.getMessage().contains("enc-1"), "names the key the operator must fix: " + e.getMessage());
  }

  private Keyring buildOver(JwksEndpoint endpoint, FakeScheduler scheduler) {
    endpoint.body = mixedJwks();
    endpoint.cacheControl = "max-age=300";
    return TestHooks.scheduler(Keyring.builder().jwksUrl(endpoint.uri()).httpAllowInsecurePlainHttp(true)
        .clock(clock), () -> scheduler).build();
  }
}
