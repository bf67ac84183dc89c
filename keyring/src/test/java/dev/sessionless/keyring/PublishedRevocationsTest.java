package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signed revocation list published over real HTTP on loopback (the JDK's server) and as a
 * file: read at start, re-read with the ETag, forged lists refused, stale lists failing open
 * or closed as configured.
 */
class PublishedRevocationsTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final TokenKey key = TokenKey.generate("k1", Algorithm.ES256);
  final KeySet keys = KeySet.of(key);
  final TokenCodec publisher = listCodec(keys);
  HttpServer server;
  volatile String body;
  volatile String etag = "\"v1\"";
  final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
  final List<PublishedRevocations> opened = new CopyOnWriteArrayList<>();
  final AtomicInteger requests = new AtomicInteger();
  /** When set, the server counts the first latch down on a request and answers once the second is. */
  volatile CountDownLatch[] hold;

  TokenCodec listCodec(KeySet k) {
    return TokenCodec.builder().keys(k).algorithm(Algorithm.ES256).issuer("https://shop.example")
        .audience("shop-nodes").tokenType(PublishedRevocations.TOKEN_TYPE).timeToLive(Duration.ofMinutes(5))
        .clock(clock).build();
  }

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/revocations", ex -> {
      requests.incrementAndGet();
      CountDownLatch[] h = hold;
      if (h != null) {
        h[0].countDown();
        try {
          h[1].await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      String inm = ex.getRequestHeaders().getFirst("If-None-Match");
      if (inm != null) {
        ifNoneMatch.add(inm);
      }
      if (inm != null && inm.equals(etag)) {
        ex.sendResponseHeaders(304, -1);
        ex.close();
        return;
      }
      byte[] b = body.getBytes(StandardCharsets.US_ASCII);
      ex.getResponseHeaders().set("ETag", etag);
      ex.sendResponseHeaders(200, b.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    CountDownLatch[] h = hold;
    if (h != null) {
      h[1].countDown(); // never leave a request hanging
    }
    opened.forEach(PublishedRevocations::close);
    server.stop(0);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/revocations");
  }

  String list(TokenCodec codec, Map<String, Instant> sessions, Map<String, List<Instant>> subjects) {
    return PublishedRevocations.sign(codec, sessions, subjects, clock);
  }

  PublishedRevocations reader(PublishedRevocations.OnStale onStale) {
    PublishedRevocations r = PublishedRevocations.builder().url(url()).keys(keys).issuer("https://shop.example")
        .audience("shop-nodes").clock(clock).onStale(onStale).build();
    opened.add(r);
    return r;
  }

  @Test
  void signedListFromHttpRevokesSessionsAndSubjectsThroughTheCodec() {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of("alice", List.of(NOW, NOW.plusSeconds(3600))));
    PublishedRevocations r = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    TokenCodec sessions = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("s", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(30)).clock(clock).revocation(r).build();
    String revoked = sessions.encode(Claims.builder().sessionId("s1").build());
    String oldLogin = sessions.encode(Claims.builder().subject("alice").authTime(NOW.minusSeconds(60)).build());
    String fine = sessions.encode(Claims.builder().subject("bob").authTime(NOW.minusSeconds(60)).build());
    assertEquals(TokenException.Reason.SESSION_REVOKED,
        assertThrows(TokenException.class, () -> sessions.decode(revoked)).reason());
    assertEquals(TokenException.Reason.SUBJECT_REVOKED,
        assertThrows(TokenException.class, () -> sessions.decode(oldLogin)).reason());
    assertEquals("bob", sessions.decode(fine).subject().orElseThrow());
  }

  @Test
  void unchangedListIsNotDownloadedAgain() {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    PublishedRevocations r = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    r.refresh();
    assertEquals(List.of("\"v1\""), ifNoneMatch, "the second read was conditional");
    etag = "\"v2\"";
    body = list(publisher, Map.of("s2", NOW.plusSeconds(1800)), Map.of());
    r.refresh();
    assertTrue(r.isRevoked("s2"));
    assertFalse(r.isRevoked("s1"), "a new list replaces the old one");
  }

  @Test
  void listSignedByAKeyOutsideTheSetIsRefusedAndTheLastGoodCopyKept() {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    PublishedRevocations r = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    etag = "\"forged\"";
    body = list(listCodec(KeySet.of(TokenKey.generate("k1", Algorithm.ES256))), Map.of(), Map.of());
    KeyringException e = assertThrows(KeyringException.class, r::refresh);
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
    assertTrue(r.isRevoked("s1"), "the forged (empty) list did not replace the good one");
  }

  @Test
  void sessionTokenPresentedAsAListIsRefused() {
    body = TokenCodec.builder().keys(keys).algorithm(Algorithm.ES256).issuer("https://shop.example")
        .audience("shop-nodes").timeToLive(Duration.ofMinutes(5)).clock(clock).build()
        .encode(Claims.builder().claim("s", Map.of()).build());
    assertThrows(KeyringException.class, () -> reader(PublishedRevocations.OnStale.FAIL_OPEN));
  }

  @Test
  void expiredListFailsClosedWhenConfiguredAndOpenByDefault() {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    PublishedRevocations closed = reader(PublishedRevocations.OnStale.FAIL_CLOSED);
    PublishedRevocations open = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    clock.advance(Duration.ofMinutes(6)); // the publisher stopped signing: the list's 5 minutes are over
    closed.refresh(); // 304: nothing newer
    open.refresh();
    assertTrue(closed.isStale());
    assertTrue(open.isStale());
    TokenException e = assertThrows(TokenException.class, () -> closed.isRevoked("s1"));
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE, e.reason());
    assertFalse(e.reason().isRejection());
    assertTrue(open.isRevoked("s1"), "fail open keeps the last list");
    etag = "\"v2\"";
    body = list(publisher, Map.of("s1", clock.instant().plusSeconds(1800)), Map.of());
    closed.refresh();
    assertFalse(closed.isStale());
    assertTrue(closed.isRevoked("s1"), "a fresh list ends the outage");
  }

  /**
   * Staleness is judged on the read path from the list's own {@code exp}, not only when a
   * refresh runs: a poller that has died (an {@code Error} ends a scheduled task for good) or
   * has not run yet must not leave a node that fails closed answering from an expired list.
   */
  @Test
  void listPastItsExpiryFailsClosedWithoutWaitingForTheNextRefresh() {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    PublishedRevocations closed = reader(PublishedRevocations.OnStale.FAIL_CLOSED);
    PublishedRevocations open = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    clock.advance(Duration.ofMinutes(6)); // past the list's 5 minutes; no refresh has run since
    assertTrue(closed.isStale(), "stale by the list's exp, judged now");
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE,
        assertThrows(TokenException.class, () -> closed.isRevoked("s1")).reason());
    assertEquals(TokenException.Reason.REVOCATION_UNAVAILABLE,
        assertThrows(TokenException.class, () -> closed.notBefore("alice")).reason());
    assertTrue(open.isRevoked("s1"), "fail open keeps the last list");
  }

  @Test
  void listFileIsReadAgainWhenItChanges(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("revocations.jws");
    Files.writeString(file, list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of()));
    PublishedRevocations r = PublishedRevocations.builder().file(file).keys(keys).issuer("https://shop.example")
        .audience("shop-nodes").clock(clock).build();
    opened.add(r);
    assertTrue(r.isRevoked("s1"));
    Files.writeString(file, list(publisher, Map.of("s1", NOW.plusSeconds(1800), "s22", NOW.plusSeconds(1800)), Map.of()));
    r.refresh();
    assertTrue(r.isRevoked("s22"));
  }

  /**
   * Issue 35: the keyring's default key is A256GCM ({@code dir}), which encrypts and cannot sign.
   * A publisher whose codec would encrypt the list is refused at {@code sign}, and a reader
   * given only such keys is refused at {@code build()} with a typed error naming the setting,
   * rather than starting on a list it could never verify. A key set holding a signing key beside
   * the A256GCM one (the usual key file) reads lists as before.
   */
  @Test
  void listWithOnlyAnA256gcmKeyIsRefusedAtSignAndAtBuildNamingTheSettingToChange() {
    KeySet aesOnly = KeySet.of(TokenKey.generate("sessions", Algorithm.DIR_A256GCM));
    TokenCodec encrypting = TokenCodec.builder().keys(aesOnly).algorithm(Algorithm.DIR_A256GCM)
        .issuer("https://shop.example").audience("shop-nodes").tokenType(PublishedRevocations.TOKEN_TYPE)
        .timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    IllegalArgumentException signing = assertThrows(IllegalArgumentException.class,
        () -> PublishedRevocations.sign(encrypting, Map.of("s1", NOW.plusSeconds(60)), Map.of(), clock));
    assertTrue(signing.getMessage().contains("algorithm(ES256)"), signing.getMessage());

    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    KeyringException reading = assertThrows(KeyringException.class, () -> PublishedRevocations.builder().url(url())
        .keys(aesOnly).issuer("https://shop.example").audience("shop-nodes").clock(clock).build());
    assertEquals(KeyringException.Reason.CONFIGURATION, reading.reason());
    assertTrue(reading.getMessage().contains("keys(...)")
        && reading.getMessage().contains("sessionless.revocation.published.keys-file"), reading.getMessage());

    PublishedRevocations both = PublishedRevocations.builder().url(url())
        .keys(KeySet.of(aesOnly.keys().get(0), key)).issuer("https://shop.example").audience("shop-nodes")
        .clock(clock).build();
    opened.add(both);
    assertTrue(both.isRevoked("s1"), "an A256GCM key beside the signing one changes nothing");
  }

  @Test
  void builderRefusesPlainHttpToAnotherHostAndContradictions() {
    assertThrows(IllegalStateException.class, () -> PublishedRevocations.builder()
        .url(URI.create("http://revocations.example/list")).keys(keys).issuer("i").audience("a").build());
    assertThrows(IllegalStateException.class, () -> PublishedRevocations.builder().keys(keys).issuer("i").audience("a").build());
    assertThrows(IllegalArgumentException.class, () -> PublishedRevocations.sign(
        TokenCodec.builder().keys(keys).algorithm(Algorithm.ES256).issuer("i").audience("a")
            .timeToLive(Duration.ofMinutes(5)).build(), Map.of(), Map.of(), clock));
  }

  /**
   * Issue 35: no network I/O while holding a monitor (a virtual thread blocked on one pins its
   * carrier before JDK 24). While one refresh waits on the network, readers answer from the last
   * good list, and a second refresh waits for the one in progress, parked ({@code WAITING}), not
   * {@code BLOCKED} on a monitor, and shares its outcome: one request for both.
   */
  @Test
  @Timeout(60)
  void concurrentRefreshesShareOneFetchAndNoneWaitsOnAMonitorMeanwhile() throws Exception {
    body = list(publisher, Map.of("s1", NOW.plusSeconds(1800)), Map.of());
    PublishedRevocations r = reader(PublishedRevocations.OnStale.FAIL_OPEN);
    etag = "\"v2\"";
    body = list(publisher, Map.of("s2", NOW.plusSeconds(1800)), Map.of());
    CountDownLatch inFetch = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    hold = new CountDownLatch[] {inFetch, release};
    int before = requests.get();
    FutureTask<Void> firstCall = new FutureTask<>(r::refresh, null);
    FutureTask<Void> secondCall = new FutureTask<>(r::refresh, null);
    Thread first = new Thread(firstCall, "first-refresh");
    Thread second = new Thread(secondCall, "second-refresh");
    try {
      first.start();
      inFetch.await(); // the first refresh is inside the HTTP exchange, held by the server
      assertTrue(r.isRevoked("s1"), "readers answer from the last good list while it is fetched");
      assertFalse(r.isStale());
      second.start();
      Thread.State waiting = settled(second);
      assertEquals(Thread.State.WAITING, waiting,
          "the second refresh waits for the fetch in progress without a monitor (BLOCKED pins a virtual thread)");
    } finally {
      release.countDown();
    }
    firstCall.get();
    secondCall.get();
    assertEquals(before + 1, requests.get(), "one fetch served both callers");
    assertTrue(r.isRevoked("s2"));
    assertFalse(r.isRevoked("s1"));
  }

  /** The state a started thread settles in once it stops running (it waits, blocks or ends). */
  static Thread.State settled(Thread t) throws InterruptedException {
    while (true) {
      Thread.State s = t.getState();
      if (s != Thread.State.NEW && s != Thread.State.RUNNABLE) {
        return s;
      }
      Thread.sleep(1);
    }
  }
}
