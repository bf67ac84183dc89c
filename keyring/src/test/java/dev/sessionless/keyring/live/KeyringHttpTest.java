package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP JWKS source against a real JDK HTTP server on loopback. */
class KeyringHttpTest {
  /** A JWKS endpoint whose behaviour each test sets. */
  static final class Endpoint {
    final HttpServer server;
    final AtomicInteger requests = new AtomicInteger();
    final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
    volatile String body;
    volatile String etag;
    volatile String cacheControl;
    volatile int status = 200;
    volatile CountDownLatch hang;
    final CountDownLatch hanging = new CountDownLatch(1);

    Endpoint(KeySet keys) throws IOException {
      body = keys.toPublicJwks();
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/jwks", this::handle);
      server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
      server.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    }

    void handle(HttpExchange ex) throws IOException {
      requests.incrementAndGet();
      String inm = ex.getRequestHeaders().getFirst("If-None-Match");
      if (inm != null) {
        ifNoneMatch.add(inm);
      }
      CountDownLatch h = hang;
      if (h != null) {
        hanging.countDown();
        try {
          h.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (cacheControl != null) {
        ex.getResponseHeaders().set("Cache-Control", cacheControl);
      }
      if (status != 200) {
        ex.sendResponseHeaders(status, -1);
        ex.close();
        return;
      }
      if (etag != null) {
        ex.getResponseHeaders().set("ETag", etag);
        if (etag.equals(inm)) {
          ex.sendResponseHeaders(304, -1);
          ex.close();
          return;
        }
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
      ex.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  final List<AutoCloseable> closeLater = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
  }

  Endpoint endpoint(KeySet keys) throws IOException {
    Endpoint e = new Endpoint(keys);
    closeLater.add(() -> {
      CountDownLatch h = e.hang;
      if (h != null) {
        h.countDown();
      }
      e.server.stop(0);
    });
    return e;
  }

  Keyring keep(Keyring k) {
    closeLater.add(0, k);
    return k;
  }

  static KeySet es256(String... kids) {
    KeySet set = KeySet.empty();
    for (String kid : kids) {
      set = set.with(TokenKey.generate(kid, Algorithm.ES256));
    }
    return set;
  }

  static List<String> kids(Keyring k) {
    return k.current().keys().stream().map(TokenKey::kid).toList();
  }

  @Test
  void publicKeysAreFetchedAtStartAndVerifyTokensSignedElsewhere() throws IOException {
    KeySet signer = es256("remote-1");
    Endpoint e = endpoint(signer);
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).build());
    assertEquals(List.of("remote-1"), kids(keyring));
    TokenCodec issuer = TokenCodec.builder().keys(signer).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
    TokenCodec verifier = TokenCodec.builder().keys(keyring).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
    assertEquals("remote-1", verifier.decode(issuer.encode(Claims.builder().build())).keyId());
  }

  @Test
  void maxAgeDecidesWhenToRefresh() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "public, max-age=1";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri())
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(1)).build());
    e.body = es256("k1", "k2").toPublicJwks();
    // Refreshed at 75-90 % of one second: the new key shows up without any trigger.
    Await.until(() -> kids(keyring).contains("k2"), () -> "refresh after max-age: " + keyring.status());
    assertTrue(e.requests.get() >= 2);
  }

  @Test
  void longMaxAgeMeansNoRefetchEvenWithAShortMinimum() throws Exception {
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri())
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(2)).build());
    // Compare with a no-cache endpoint, which refreshes at the (10 ms) minimum.
    Endpoint busy = endpoint(es256("k9"));
    busy.cacheControl = "no-cache";
    Keyring eager = keep(Keyring.builder().jwksUrl(busy.uri())
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(2)).build());
    Await.until(() -> busy.requests.get() >= 10, () -> "the no-cache endpoint polled often");
    assertEquals(1, e.requests.get(), "max-age=3600 was honoured: " + keyring.status());
    assertEquals(List.of("k9"), kids(eager));
  }

  @Test
  void etagMakesRefreshesConditionalAndA304KeepsTheSnapshot() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    e.etag = "\"v1\"";
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri())
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(1)).build());
    KeySet first = keyring.current();
    Await.until(() -> e.ifNoneMatch.size() >= 3, () -> "conditional requests");
    assertEquals("\"v1\"", e.ifNoneMatch.get(0));
    assertSame(first, keyring.current(), "304: the same snapshot");
    e.body = es256("k1", "k2").toPublicJwks();
    e.etag = "\"v2\"";
    Await.until(() -> kids(keyring).contains("k2"), () -> "new ETag, new keys");
  }

  @Test
  void unknownKidsTriggerAtMostOneEarlyRefreshPerInterval() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).unknownKeyRefreshInterval(Duration.ofHours(1)).build());
    e.body = es256("k1", "k2").toPublicJwks();
    for (int i = 0; i < 1000; i++) {
      keyring.unknownKeyId(UUID.randomUUID().toString());
    }
    Await.until(() -> kids(keyring).contains("k2"), () -> "the early refresh found k2");
    assertEquals(2, e.requests.get(), "start + one early refresh, whatever the number of unknown kids");
  }

  @Test
  void unknownKidSeenByTheCodecFetchesANewlyPublishedKey() throws IOException {
    KeySet signer = es256("k1", "k2");
    Endpoint e = endpoint(signer.without("k2"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).build());
    TokenCodec verifier = TokenCodec.builder().keys(keyring).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
    TokenCodec byK2 = TokenCodec.builder().keys(signer.without("k1")).algorithm(Algorithm.ES256).issuer("i")
        .audience("a").timeToLive(Duration.ofMinutes(5)).build();
    String token = byK2.encode(Claims.builder().build());
    e.body = signer.toPublicJwks(); // k2 is published after this node's last fetch
    TokenException first = assertThrows(TokenException.class, () -> verifier.decode(token));
    assertEquals(TokenException.Reason.UNKNOWN_KEY, first.reason());
    Await.until(() -> kids(keyring).contains("k2"), () -> "k2 fetched early");
    assertEquals("k2", verifier.decode(token).keyId());
  }

  @Test
  void outageServesTheLastGoodKeysUpToTheStaleBoundThenDropsThemAndRecovers() throws IOException {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().keys(KeySet.of(TokenKey.generate("local", Algorithm.HS256)))
        .jwksUrl(e.uri()).clock(clock).httpRefreshBounds(Duration.ofMillis(10), Duration.ofMillis(50))
        .httpBackoff(Duration.ofMillis(10)).httpMaxStale(Duration.ofHours(1)).build());
    e.status = 500;
    Await.until(() -> keyring.status().sources().get(1).failures() >= 2, () -> "failures during the outage");
    assertTrue(kids(keyring).contains("k1"), "stale keys served within the bound");
    clock.advance(Duration.ofMinutes(61));
    Await.until(() -> !kids(keyring).contains("k1"), () -> "keys dropped past the stale bound");
    assertEquals(List.of("local"), kids(keyring), "other sources are unaffected");
    e.status = 200;
    Await.until(() -> kids(keyring).contains("k1"), () -> "recovered: " + keyring.status());
  }

  @Test
  void failuresBackOffExponentially() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri())
        .httpRefreshBounds(Duration.ofMillis(5), Duration.ofSeconds(30)).httpBackoff(Duration.ofMillis(20)).build());
    e.status = 503;
    Await.until(() -> keyring.status().sources().get(0).failures() >= 5, () -> "five failures");
    // Back-off doubles from 20 ms (with jitter of at most half): after the fifth failure the next
    // attempt waits at least 160 ms, so a quick look sees no sixth one yet — counted, not timed.
    long failures = keyring.status().sources().get(0).failures();
    assertTrue(failures <= 6, "attempts are spaced out: " + failures);
    assertTrue(keyring.status().sources().get(0).lastFailure().orElseThrow().contains("HTTP 503"));
  }

  @Test
  void aServerThatNeverAnswersTimesOut() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> accepted = new CopyOnWriteArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(silent.accept()); // accept, read nothing, answer nothing
          }
        } catch (IOException closed) {
          // done
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      KeyringException e = assertThrows(KeyringException.class, () -> Keyring.builder()
          .jwksUrl(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/jwks"))
          .httpReadTimeout(Duration.ofMillis(200)).build());
      assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
      assertTrue(e.getMessage().contains("timeout"), e.getMessage());
      for (Socket s : accepted) {
        s.close();
      }
    }
  }

  @Test
  void aServerThatTricklesItsBodyTimesOutAsAWhole() throws Exception {
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
      KeyringException e = assertThrows(KeyringException.class, () -> Keyring.builder()
          .jwksUrl(URI.create("http://127.0.0.1:" + slow.getLocalPort() + "/jwks"))
          .httpReadTimeout(Duration.ofMillis(500)).build());
      assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
      assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    }
  }

  @Test
  void aRefusedConnectionIsUnavailable() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    KeyringException e = assertThrows(KeyringException.class, () -> Keyring.builder()
        .jwksUrl(URI.create("http://127.0.0.1:" + port + "/jwks")).httpConnectTimeout(Duration.ofMillis(500)).build());
    assertEquals(KeyringException.Reason.UNAVAILABLE, e.reason());
  }

  @Test
  void anOversizedResponseIsRefused() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    e.body = "{\"keys\":[],\"pad\":\"" + "x".repeat(4096) + "\"}";
    KeyringException x = assertThrows(KeyringException.class,
        () -> Keyring.builder().jwksUrl(e.uri()).httpMaxResponseBytes(1024).build());
    assertEquals(KeyringException.Reason.MALFORMED, x.reason());
  }

  @Test
  void currentNeverWaitsForARefreshThatHangs() throws Exception {
    Endpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpReadTimeout(Duration.ofSeconds(30)).build());
    e.hang = new CountDownLatch(1);
    keyring.unknownKeyId("whatever"); // starts a refresh on the keyring's thread, which now hangs
    assertTrue(e.hanging.await(10, TimeUnit.SECONDS), "the refresh is stuck in the server");
    AtomicReference<KeySet> got = new AtomicReference<>();
    Thread reader = new Thread(() -> got.set(keyring.current()));
    reader.start();
    reader.join(10_000);
    assertEquals(List.of("k1"), got.get().keys().stream().map(TokenKey::kid).toList(),
        "current() answered while the refresh hangs");
    e.hang.countDown();
  }

  @Test
  void urlQueryIsKeptOutOfDescriptions() throws IOException {
    Endpoint e = endpoint(es256("k1"));
    URI withToken = URI.create(e.uri() + "?access_token=s3cr3t-value");
    Keyring keyring = keep(Keyring.builder().jwksUrl(withToken).build());
    assertTrue(!keyring.toString().contains("s3cr3t") && !keyring.status().toString().contains("s3cr3t"),
        keyring.status().toString());
  }
}
