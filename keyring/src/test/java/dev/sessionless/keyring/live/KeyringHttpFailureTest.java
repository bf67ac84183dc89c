package dev.sessionless.keyring.live;

import static dev.sessionless.keyring.live.KeyringHttpTest.es256;
import static dev.sessionless.keyring.live.KeyringHttpTest.http;
import static dev.sessionless.keyring.live.KeyringHttpTest.kids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringBuilder;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP JWKS source when the server fails: outages, timeouts, hostile responses, a stuck refresh. */
class KeyringHttpFailureTest {
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

  JwksEndpoint endpoint(KeySet keys) throws IOException {
    JwksEndpoint e = new JwksEndpoint(keys);
    closeLater.add(e);
    return e;
  }

  static KeyringException failsToBuild(KeyringBuilder b) {
    return assertThrows(KeyringException.class, b::build);
  }

  @Test
  void outageServesTheLastGoodKeysUpToTheStaleBoundThenDropsThemAndRecovers() throws IOException {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().keys(KeySet.of(TokenKey.generate("local", Algorithm.HS256)))
        .jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).clock(clock).httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50))
        .httpBackoff(Duration.ofMillis(10)).httpMaxStale(Duration.ofHours(1)).build());
    e.status = 500;
    Await.until(() -> http(keyring).failures() >= 2, () -> "failures during the outage");
    assertTrue(kids(keyring).contains("k1"), "stale keys served within the bound");
    assertEquals(Optional.of(KeyringException.Reason.UNAVAILABLE), http(keyring).lastFailureReason());
    assertTrue(http(keyring).lastFailure().orElseThrow().contains("HTTP 500"));
    clock.advance(Duration.ofMinutes(61));
    Await.until(() -> !kids(keyring).contains("k1"), () -> "keys dropped past the stale bound");
    assertEquals(List.of("local"), kids(keyring), "other sources are unaffected");
    e.status = 200;
    Await.until(() -> kids(keyring).contains("k1"), () -> "recovered: " + keyring.status());
    assertEquals(0, http(keyring).consecutiveFailures());
  }

  @Test
  void tokensUnderKeysPastTheStaleBoundFailAsAnOutageNotAsRejections() throws IOException {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
    KeySet remote = es256("k1");
    JwksEndpoint e = endpoint(remote);
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().keys(KeySet.of(TokenKey.generate("local", Algorithm.HS256)))
        .jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).clock(clock)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50))
        .httpBackoff(Duration.ofMillis(10)).httpMaxStale(Duration.ofHours(1)).build());
    TokenCodec codec = KeyringHttpTest.es256Codec(keyring);
    String token = KeyringHttpTest.es256Codec(remote).encode(Claims.builder().build());
    assertEquals("k1", codec.decode(token).keyId());

    e.status = 500;
    clock.advance(Duration.ofMinutes(61));
    Await.until(() -> !kids(keyring).contains("k1"), () -> "keys taken out past the stale bound");
    TokenException outage = assertThrows(TokenException.class, () -> codec.decode(token));
    assertEquals(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, outage.reason(), "an outage, not a logout");
    assertFalse(outage.reason().isRejection());
    assertTrue(outage.getMessage().contains("httpMaxStale"), outage.getMessage());
    // A kid the source never had is still the client's bad token.
    String stranger = KeyringHttpTest.es256Codec(es256("never-published")).encode(Claims.builder().build());
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(stranger)).reason());

    e.status = 200;
    Await.until(() -> kids(keyring).contains("k1"), () -> "recovered: " + keyring.status());
    assertEquals("k1", codec.decode(token).keyId(), "the keys verify again after a good fetch");
  }

  @Test
  void droppedConnectionsAreFailuresThatKeepTheKeys() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50)).httpBackoff(Duration.ofMillis(10)).build());
    KeySet good = keyring.current();
    e.dropConnection = true;
    Await.until(() -> http(keyring).failures() >= 2, () -> "failures: " + keyring.status());
    assertEquals(good, keyring.current());
    assertEquals(Optional.of(KeyringException.Reason.UNAVAILABLE), http(keyring).lastFailureReason());
    e.dropConnection = false;
    Await.until(() -> http(keyring).consecutiveFailures() == 0, () -> "recovered");
  }

  @Test
  void stoppedServerIsAnOutageThatKeepsTheKeys() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50)).httpBackoff(Duration.ofMillis(10)).build());
    e.server.stop(0);
    Await.until(() -> http(keyring).failures() >= 2, () -> "failures: " + keyring.status());
    assertEquals(List.of("k1"), kids(keyring));
    assertTrue(http(keyring).lastFailure().orElseThrow().contains("refused"), http(keyring).lastFailure().orElseThrow());
  }

  @Test
  void failuresBackOffExponentiallyWithJitter() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(5), Duration.ofSeconds(30)).httpBackoff(Duration.ofMillis(20)).build());
    e.status = 503;
    Await.until(() -> http(keyring).consecutiveFailures() >= 5, () -> "five failures in a row");
    // One status read is one consistent state: the delay chosen after the n-th failure in a row.
    SourceStatus s = http(keyring);
    long full = 20L << (s.consecutiveFailures() - 1);
    long delay = s.nextCheckDelay().toMillis();
    assertTrue(delay >= full / 2 && delay <= full, "after " + s.consecutiveFailures() + " failures: " + delay + " ms");
    assertTrue(s.lastFailure().orElseThrow().contains("HTTP 503"));
  }

  @Test
  void sourceAllowedToStartEmptyFillsInWhenTheServerAnswers() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.status = 503;
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).httpRequiredAtStart(false)
        .httpBackoff(Duration.ofMillis(10)).build());
    assertTrue(keyring.current().keys().isEmpty(), "started without keys");
    assertEquals(1, http(keyring).failures());
    e.status = 200;
    Await.until(() -> kids(keyring).contains("k1"), () -> "keys after the server recovered");
  }

  @Test
  void sourceRequiredAtStartFailsTheBuild() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.status = 503;
    KeyringException x = failsToBuild(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true));
    assertEquals(KeyringException.Reason.UNAVAILABLE, x.reason());
    assertTrue(x.getMessage().contains("HTTP 503"), x.getMessage());
  }

  @Test
  void serverThatNeverAnswersIsCutOffByTheReadTimeout() throws Exception {
    SilentServer silent = keep(new SilentServer(null));
    KeyringException e = failsToBuild(Keyring.builder().jwksUrl(silent.uri()).httpAllowInsecurePlainHttp(true).httpReadTimeout(Duration.ofMillis(200)));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
    assertTrue(e.getMessage().contains("read timeout"), e.getMessage());
  }

  @Test
  void serverThatSendsHeadersThenStallsIsCutOffByTheReadTimeout() throws Exception {
    // The JDK client's own request timeout ends with the headers; the keyring's covers the body.
    SilentServer stalling = keep(new SilentServer(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"keys\":["));
    KeyringException e = failsToBuild(Keyring.builder().jwksUrl(stalling.uri()).httpAllowInsecurePlainHttp(true)
        .httpConnectTimeout(Duration.ofMillis(200)).httpReadTimeout(Duration.ofMillis(300)));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
    assertTrue(e.getMessage().contains("read timeout"), e.getMessage());
  }

  @Test
  void serverThatTricklesItsBodyIsCutOffByTheReadTimeoutAsAWhole() throws Exception {
    try (ServerSocket slow = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try (Socket s = slow.accept()) {
          OutputStream out = s.getOutputStream();
          out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
              .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          for (int i = 0; i < 400; i++) { // one byte every 50 ms: 20 s for the whole body
            out.write(' ');
            out.flush();
            Thread.sleep(50);
          }
        } catch (IOException | InterruptedException done) {
          // the client gave up
        }
      });
      server.setDaemon(true);
      server.start();
      KeyringException e = failsToBuild(Keyring.builder()
          .jwksUrl(URI.create("http://127.0.0.1:" + slow.getLocalPort() + "/jwks")).httpAllowInsecurePlainHttp(true)
          .httpConnectTimeout(Duration.ofMillis(200)).httpReadTimeout(Duration.ofMillis(500)));
      assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
      assertTrue(e.getMessage().contains("read timeout"), e.getMessage());
    }
  }

  @Test
  void connectTimeoutIsHonoured() throws Exception {
    FullBacklogServer full = keep(new FullBacklogServer());
    KeyringException e = failsToBuild(Keyring.builder().jwksUrl(full.uri()).httpAllowInsecurePlainHttp(true)
        .httpConnectTimeout(Duration.ofMillis(300)).httpReadTimeout(Duration.ofSeconds(30)));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
    assertTrue(e.getMessage().contains("connect timeout"), e.getMessage());
  }

  @Test
  void refusedConnectionIsUnavailable() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    KeyringException e = failsToBuild(Keyring.builder().jwksUrl(URI.create("http://127.0.0.1:" + port + "/jwks")).httpAllowInsecurePlainHttp(true));
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
  }

  @Test
  void oversizedResponseIsRefusedWithOrWithoutAContentLength() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.body = "{\"keys\":[],\"pad\":\"" + "x".repeat(64 * 1024) + "\"}";
    KeyringException declared = failsToBuild(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).httpMaxResponseBytes(1024));
    assertEquals(KeyringException.Reason.MALFORMED, declared.reason());
    assertTrue(declared.getMessage().contains("more than 1024 bytes"), declared.getMessage());
    e.chunked = true;
    KeyringException streamed = failsToBuild(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).httpMaxResponseBytes(1024));
    assertEquals(KeyringException.Reason.MALFORMED, streamed.reason());
    assertTrue(streamed.getMessage().contains("more than 1024 bytes"), streamed.getMessage());
  }

  @Test
  void chunkedResponseUnderTheCapIsRead() throws IOException {
    JwksEndpoint e = endpoint(es256("k1", "k2"));
    e.chunked = true;
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).build());
    assertEquals(List.of("k1", "k2"), kids(keyring));
  }

  @Test
  void redirectsAreNotFollowed() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.status = 302;
    KeyringException x = failsToBuild(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true));
    assertTrue(x.getMessage().contains("HTTP 302"), x.getMessage());
  }

  @Test
  void currentNeverWaitsForARefreshThatHangs() throws Exception {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).httpReadTimeout(Duration.ofSeconds(60)).build());
    e.hang = new CountDownLatch(1);
    keyring.unknownKeyId("whatever"); // starts a refresh on the keyring's thread, which now hangs
    assertTrue(e.hanging.await(10, TimeUnit.SECONDS), "the refresh is stuck in the server");
    AtomicReference<KeySet> got = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      for (int i = 0; i < 100_000; i++) {
        got.set(keyring.current());
      }
    });
    reader.start();
    reader.join(10_000);
    assertFalse(reader.isAlive(), "100,000 reads of current() finished while the refresh hangs");
    assertEquals(List.of("k1"), got.get().keys().stream().map(TokenKey::kid).toList());
    keyring.status(); // the diagnostics view does not wait either
  }

  @Test
  void closeInterruptsAStuckRefreshAndEndsTheThread() throws Exception {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring[] keyring = new Keyring[1];
    Thread refresh = RefreshThreads.startedBy(
        () -> Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).httpReadTimeout(Duration.ofSeconds(60)).build(), keyring);
    e.hang = new CountDownLatch(1);
    keyring[0].unknownKeyId("whatever");
    assertTrue(e.hanging.await(10, TimeUnit.SECONDS), "the refresh is stuck in the server");
    keyring[0].close();
    refresh.join(10_000);
    assertFalse(refresh.isAlive(), "close() ended the refresh thread although its fetch hung");
    assertEquals(List.of("k1"), kids(keyring[0]));
  }

  @Test
  void urlQueryIsKeptOutOfDescriptionsAndMessages() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    URI withToken = URI.create(e.uri() + "?access_token=s3cr3t-value");
    Keyring keyring = keep(Keyring.builder().jwksUrl(withToken).httpAllowInsecurePlainHttp(true).build());
    assertFalse(keyring.toString().contains("s3cr3t") || keyring.status().toString().contains("s3cr3t"),
        keyring.status().toString());
    e.status = 500;
    KeyringException x = failsToBuild(Keyring.builder().jwksUrl(withToken).httpAllowInsecurePlainHttp(true));
    assertFalse(x.getMessage().contains("s3cr3t"), x.getMessage());
  }
}
