package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.KeyringException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A document fetched over the network (and any source marked verify-only) never picks this
 * node's signing key, is not trusted with secrets, never overrides a local key, and needs https;
 * against the real JDK HTTP server on loopback.
 */
class VerifyOnlySourcesTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  final List<AutoCloseable> closeLater = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
  }

  <T extends AutoCloseable> T keep(T c) {
    closeLater.add(0, c);
    return c;
  }

  static TokenCodec codec(KeySource keys, Algorithm algorithm) {
    return TokenCodec.builder().keys(keys).algorithm(algorithm).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  /** A peer's whole key set, private parts and secrets included, served as its JWKS. */
  JwksEndpoint leakyEndpoint(KeySet keys) throws IOException {
    JwksEndpoint e = keep(new JwksEndpoint(keys));
    e.body = keys.toJwksWithSecrets();
    return e;
  }

  static SourceStatus source(Keyring k, int i) {
    return k.status().sources().get(i);
  }

  static String secretOf(TokenKey k) throws IOException {
    return JSON.readTree(k.toJwkWithSecrets()).path(k.algorithm().isSymmetric() ? "k" : "d").asString();
  }

  @Test
  void remoteJwksNeverSuppliesTheSigningKey() throws IOException {
    TokenKey es = TokenKey.generate("peer-es", Algorithm.ES256);
    TokenKey hs = TokenKey.generate("peer-hs", Algorithm.HS256);
    JwksEndpoint e = leakyEndpoint(KeySet.of(es, hs));
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).build());
    assertEquals(List.of("peer-es"), keyring.status().keyIds(), "the secret key is dropped");
    assertFalse(keyring.current().key("peer-es").orElseThrow().canSign(), "the private part is dropped");
    assertEquals(Map.of(), keyring.status().signingKeyIds(), "nothing from the network signs");
    TokenException x = assertThrows(TokenException.class,
        () -> codec(keyring, Algorithm.ES256).encode(Claims.builder().build()));
    assertEquals(TokenException.Reason.NO_SIGNING_KEY, x.reason());
    // What it is for still works: verifying the peer's tokens.
    String theirs = codec(KeySet.of(es), Algorithm.ES256).encode(Claims.builder().subject("svc").build());
    assertEquals("peer-es", codec(keyring, Algorithm.ES256).decode(theirs).keyId());
    assertTrue(source(keyring, 0).verifyOnly());
    assertEquals(List.of("peer-hs"), source(keyring, 0).refusedKeyIds());
  }

  @Test
  void remoteSecretKeysAreDroppedAndLoggedOnceWithoutTheSecret() throws IOException {
    TokenKey es = TokenKey.generate("drop-es", Algorithm.ES256);
    TokenKey hs = TokenKey.generate("drop-hs", Algorithm.HS384);
    JwksEndpoint e = leakyEndpoint(KeySet.of(es, hs));
    e.cacheControl = "no-cache";
    int mark = RecordingLoggerFinder.mark();
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(20)).build());
    long checks = source(keyring, 0).checks();
    Await.until(() -> source(keyring, 0).checks() >= checks + 5, () -> "five more fetches");
    List<RecordingLoggerFinder.Entry> warnings = RecordingLoggerFinder.since(mark,
        w -> w.level == Level.WARNING && w.text.contains("drop-hs"));
    assertEquals(1, warnings.size(), "one warning, however many fetches: " + warnings);
    assertTrue(warnings.get(0).text.contains("drop-es"), "the stripped private part is named too: " + warnings);
    for (RecordingLoggerFinder.Entry w : RecordingLoggerFinder.since(mark, x -> true)) {
      assertFalse(w.text.contains(secretOf(hs).substring(0, 12)), "a log line holds the secret: " + w);
      assertFalse(w.text.contains(secretOf(es).substring(0, 12)), "a log line holds the private key: " + w);
    }
  }

  @Test
  void acceptedRemoteSecretKeyVerifiesButNeverSigns() throws IOException {
    Instant past = Instant.now().minus(Duration.ofDays(1));
    TokenKey hs = TokenKey.generate("shared-hs", Algorithm.HS256).withLifecycle(past, past, null, null);
    JwksEndpoint e = leakyEndpoint(KeySet.of(hs));
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).acceptSecretKeys().httpAllowInsecurePlainHttp(true)
        .build());
    assertEquals(List.of("shared-hs"), keyring.status().keyIds());
    assertEquals(List.of(), source(keyring, 0).refusedKeyIds());
    assertEquals(Map.of(), keyring.status().signingKeyIds(), "an accepted secret key still never signs");
    assertThrows(TokenException.class, () -> codec(keyring, Algorithm.HS256).encode(Claims.builder().build()));
    String peers = codec(KeySet.of(hs), Algorithm.HS256).encode(Claims.builder().subject("peer").build());
    assertEquals("shared-hs", codec(keyring, Algorithm.HS256).decode(peers).keyId(), "but it verifies");
  }

  @Test
  void plainHttpJwksUrlIsRefusedAtBuildUnlessAllowed() throws IOException {
    JwksEndpoint e = keep(new JwksEndpoint(KeySet.of(TokenKey.generate("k", Algorithm.ES256))));
    KeyringException x = assertThrows(KeyringException.class, () -> Keyring.builder().jwksUrl(e.uri()).build());
    assertEquals(KeyringException.Reason.CONFIGURATION, x.reason());
    assertTrue(x.getMessage().contains("https") && x.getMessage().contains("httpAllowInsecurePlainHttp"),
        x.getMessage());
    assertEquals(0, e.requests.get(), "refused before anything is fetched");
    KeyringException off = assertThrows(KeyringException.class,
        () -> Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(false).build());
    assertEquals(KeyringException.Reason.CONFIGURATION, off.reason());
    Keyring allowed = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).build());
    assertEquals(List.of("k"), allowed.status().keyIds());
  }

  @Test
  void httpsJwksUrlNeedsNoOption() throws Exception {
    JwksEndpoint e = keep(JwksEndpoint.tls(KeySet.of(TokenKey.generate("tls-es", Algorithm.ES256))));
    javax.net.ssl.SSLContext systemDefault = javax.net.ssl.SSLContext.getDefault();
    javax.net.ssl.SSLContext.setDefault(TestTls.LOOPBACK.client);
    try {
      Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).build());
      assertEquals(List.of("tls-es"), keyring.status().keyIds());
    } finally {
      javax.net.ssl.SSLContext.setDefault(systemDefault);
    }
  }

  @Test
  void remoteKidNeverOverridesALocalKeyWhateverTheOrder() throws IOException {
    TokenKey local = TokenKey.generate("same-kid", Algorithm.ES256);
    TokenKey impostor = TokenKey.generate("same-kid", Algorithm.ES256);
    Path file = dir.resolve("local.jwks");
    Files.writeString(file, KeySet.of(local).toJwksWithSecrets());
    JwksEndpoint e = keep(new JwksEndpoint(KeySet.of(impostor)));
    String signedByImpostor = codec(KeySet.of(impostor), Algorithm.ES256).encode(Claims.builder().build());
    List<Function<KeyringBuilder, KeyringBuilder>> orders = List.of(
        b -> b.jwksUrl(e.uri()).jwksFile(file), b -> b.jwksFile(file).jwksUrl(e.uri()));
    for (Function<KeyringBuilder, KeyringBuilder> order : orders) {
      int mark = RecordingLoggerFinder.mark();
      Keyring keyring = keep(order.apply(Keyring.builder()).httpAllowInsecurePlainHttp(true).build());
      assertTrue(keyring.current().key("same-kid").orElseThrow().sameAs(local), "the local key is kept");
      assertEquals(Map.of(Algorithm.ES256, "same-kid"), keyring.status().signingKeyIds());
      assertEquals(Set.of("same-kid"), keyring.status().conflictingKeyIds());
      TokenException x = assertThrows(TokenException.class,
          () -> codec(keyring, Algorithm.ES256).decode(signedByImpostor));
      assertEquals(TokenException.Reason.BAD_SIGNATURE, x.reason());
      assertEquals(1, RecordingLoggerFinder.since(mark, w -> w.level == Level.ERROR && w.text.contains("same-kid")
          && w.text.contains("never overrides")).size(), "the clash is logged");
    }
  }

  @Test
  void remoteCopyOfALocalKeysPublicPartIsNoConflict() throws IOException {
    TokenKey local = TokenKey.generate("own-es", Algorithm.ES256);
    Path file = dir.resolve("own.jwks");
    Files.writeString(file, KeySet.of(local).toJwksWithSecrets());
    JwksEndpoint e = keep(new JwksEndpoint(KeySet.of(local))); // our own published JWKS, public part only
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).jwksFile(file).httpAllowInsecurePlainHttp(true).build());
    assertEquals(Set.of(), keyring.status().conflictingKeyIds());
    assertTrue(keyring.current().key("own-es").orElseThrow().canSign(), "the local key, private part and all");
  }

  @Test
  void verifyOnlyFileOfAPeersKeysNeverSignsNorOverridesLocalKeys() throws IOException {
    TokenKey peerEs = TokenKey.generate("peer-es", Algorithm.ES256);
    TokenKey peerHs = TokenKey.generate("peer-hs", Algorithm.HS256);
    TokenKey peerClash = TokenKey.generate("ours", Algorithm.HS256);
    TokenKey ours = TokenKey.generate("ours", Algorithm.HS256);
    Path peers = dir.resolve("peers.jwks");
    Files.writeString(peers, KeySet.of(peerEs, peerHs, peerClash).toJwksWithSecrets());
    Path local = dir.resolve("ours.jwks");
    Files.writeString(local, KeySet.of(ours).toJwksWithSecrets());

    Keyring strict = keep(Keyring.builder().jwksFile(peers).verifyOnly().jwksFile(local).build());
    assertEquals(List.of("ours", "peer-es"), strict.status().keyIds());
    assertEquals(List.of("peer-hs", "ours"), source(strict, 0).refusedKeyIds());
    assertFalse(strict.current().key("peer-es").orElseThrow().canSign());
    assertEquals(Map.of(Algorithm.HS256, "ours"), strict.status().signingKeyIds());

    Keyring trusting = keep(Keyring.builder().jwksFile(peers).verifyOnly().acceptSecretKeys().jwksFile(local).build());
    assertTrue(trusting.current().key("ours").orElseThrow().sameAs(ours), "the local key wins the kid");
    assertEquals(Set.of("ours"), trusting.status().conflictingKeyIds());
    assertEquals(Map.of(Algorithm.HS256, "ours"), trusting.status().signingKeyIds(), "peer-hs never signs");
    String peerToken = codec(KeySet.of(peerHs), Algorithm.HS256).encode(Claims.builder().build());
    assertEquals("peer-hs", codec(trusting, Algorithm.HS256).decode(peerToken).keyId());
  }

  @Test
  void acceptSecretKeysNeedsAVerifyOnlySource() throws IOException {
    Path file = dir.resolve("k.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k", Algorithm.HS256)).toJwksWithSecrets());
    KeyringException x = assertThrows(KeyringException.class,
        () -> Keyring.builder().jwksFile(file).acceptSecretKeys().build());
    assertEquals(KeyringException.Reason.CONFIGURATION, x.reason());
    assertThrows(IllegalStateException.class, () -> Keyring.builder().verifyOnly());
    assertThrows(IllegalStateException.class, () -> Keyring.builder().acceptSecretKeys());
    KeyringException dev = assertThrows(KeyringException.class,
        () -> Keyring.builder().ephemeralDevelopmentKey().verifyOnly().build());
    assertEquals(KeyringException.Reason.CONFIGURATION, dev.reason());
  }
}
