package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP JWKS source against a real JDK HTTP server on loopback: caching, ETags, unknown kids. */
class KeyringHttpTest {
  final List<AutoCloseable> closeLater = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
  }

  JwksEndpoint endpoint(KeySet keys) throws IOException {
    JwksEndpoint e = new JwksEndpoint(keys);
    closeLater.add(e);
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
    return k.status().keyIds();
  }

  static TokenCodec es256Codec(dev.sessionless.core.KeySource keys) {
    return TokenCodec.builder().keys(keys).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(5)).build();
  }

  static SourceStatus http(Keyring k) {
    return k.status().sources().get(k.status().sources().size() - 1);
  }

  static void assertBetween(Duration low, Duration high, Duration actual) {
    assertTrue(actual.compareTo(low) >= 0 && actual.compareTo(high) <= 0,
        actual + " is not within " + low + " .. " + high);
  }

  @Test
  void publicKeysAreFetchedAtStartAndVerifyTokensSignedElsewhere() throws IOException {
    KeySet signer = es256("remote-1");
    JwksEndpoint e = endpoint(signer);
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).build());
    assertEquals(List.of("remote-1"), kids(keyring));
    assertTrue(!keyring.current().key("remote-1").orElseThrow().canSign(), "public keys only: verification only");
    assertEquals("remote-1", es256Codec(keyring).decode(es256Codec(signer).encode(Claims.builder().build())).keyId());
  }

  @Test
  void maxAgeDecidesWhenToRefresh() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "public, max-age=1";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(1)).build());
    assertBetween(Duration.ofMillis(750), Duration.ofMillis(900), http(keyring).nextCheckDelay());
    e.publish(es256("k1", "k2"));
    // Refreshed at 75-90 % of one second: the new key shows up without any trigger.
    Await.until(() -> kids(keyring).contains("k2"), () -> "refresh after max-age: " + keyring.status());
    assertTrue(e.requests.get() >= 2);
  }

  @Test
  void ageHeaderShortensTheFreshness() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=100";
    e.age = "60"; // a cache in between already held it for a minute
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(1)).build());
    assertBetween(Duration.ofSeconds(30), Duration.ofSeconds(36), http(keyring).nextCheckDelay());
  }

  @Test
  void refreshIntervalIsKeptWithinItsBounds() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=86400";
    Keyring capped = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofSeconds(30), Duration.ofMinutes(10)).build());
    assertEquals(Duration.ofMinutes(10), http(capped).nextCheckDelay(), "a day of max-age, capped at the maximum");
    JwksEndpoint plain = endpoint(es256("k2"));
    Keyring byDefault = keep(Keyring.builder().jwksUrl(plain.uri()).httpAllowInsecurePlainHttp(true).build());
    assertBetween(Duration.ofSeconds(225), Duration.ofSeconds(270), http(byDefault).nextCheckDelay());
  }

  @Test
  void noStoreAndNoCacheMeanTheMinimumInterval() throws IOException {
    for (String directive : List.of("no-store", "private, no-cache", "no-cache, max-age=600")) {
      JwksEndpoint e = endpoint(es256("k1"));
      e.cacheControl = directive;
      Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
          .httpRefreshBounds(Duration.ofSeconds(40), Duration.ofHours(1)).build());
      assertEquals(Duration.ofSeconds(40), http(keyring).nextCheckDelay(), directive);
    }
  }

  @Test
  void longMaxAgeMeansNoRefetchEvenWithAShortMinimum() throws Exception {
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(2)).build());
    // Compare with a no-cache endpoint, which refreshes at the (10 ms) minimum.
    JwksEndpoint busy = endpoint(es256("k9"));
    busy.cacheControl = "no-cache";
    Keyring eager = keep(Keyring.builder().jwksUrl(busy.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(2)).build());
    Await.until(() -> busy.requests.get() >= 10, () -> "the no-cache endpoint polled often");
    assertEquals(1, e.requests.get(), "max-age=3600 was honoured: " + keyring.status());
    assertEquals(List.of("k9"), kids(eager));
  }

  @Test
  void etagMakesRefreshesConditionalAndA304KeepsTheSnapshot() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.etag = "\"v1\"";
    e.cacheControl = "no-cache";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(1)).build());
    KeySet first = keyring.current();
    Await.until(() -> e.ifNoneMatch.size() >= 3, () -> "conditional requests");
    assertEquals("\"v1\"", e.ifNoneMatch.get(0));
    assertSame(first, keyring.current(), "304: the same snapshot, so the codec keeps its cache");
    e.publish(es256("k1", "k2"));
    e.etag = "\"v2\"";
    Await.until(() -> kids(keyring).contains("k2"), () -> "new ETag, new keys");
  }

  @Test
  void a304ExtendsTheFreshnessByItsOwnMaxAge() throws IOException {
    JwksEndpoint e = endpoint(es256("k1"));
    e.etag = "\"v1\"";
    e.cacheControl = "max-age=1";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true)
        .httpRefreshBounds(Duration.ofMillis(10), Duration.ofHours(2)).build());
    KeySet first = keyring.current();
    e.cacheControl = "max-age=3600"; // what the 304 will say
    Await.until(() -> http(keyring).checks() >= 2, () -> "the conditional refresh");
    assertEquals(List.of("\"v1\""), e.ifNoneMatch);
    assertSame(first, keyring.current());
    assertEquals(0, http(keyring).failures());
    assertBetween(Duration.ofMinutes(45), Duration.ofMinutes(54), http(keyring).nextCheckDelay());
  }

  /** A token that names {@code kid}, with a signature of the right length that verifies under nothing. */
  static String forged(String kid, Random random) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    byte[] sig = new byte[64];
    random.nextBytes(sig);
    return b64.encodeToString(("{\"alg\":\"ES256\",\"kid\":\"" + kid + "\"}").getBytes(StandardCharsets.UTF_8))
        + "." + b64.encodeToString("{\"iss\":\"i\"}".getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString(sig);
  }

  @Test
  void thousandForgedKidsCauseOneEarlyFetch() throws IOException {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).clock(clock)
        .unknownKeyRefreshInterval(Duration.ofSeconds(30)).build());
    TokenCodec codec = es256Codec(keyring);
    Random random = new Random(3);
    for (int i = 0; i < 1000; i++) {
      String token = forged("kid-" + random.nextLong(), random);
      TokenException x = assertThrows(TokenException.class, () -> codec.decode(token));
      assertEquals(TokenException.Reason.UNKNOWN_KEY, x.reason());
    }
    // A marker: one interval later, one more unknown kid makes one more fetch. The refresh thread
    // runs its work in order, so any further fetch the flood had asked for would come before it.
    clock.advance(Duration.ofSeconds(30));
    keyring.unknownKeyId("marker");
    Await.until(() -> e.requests.get() >= 3, () -> "the marker fetch");
    assertEquals(3, e.requests.get(), "start + one early fetch for 1,000 unknown kids + the marker");
  }

  @Test
  void unknownKidsOverTimeFetchAtMostOncePerInterval() throws IOException {
    FakeClock clock = new FakeClock(Instant.parse("2026-11-23T10:00:00Z"));
    JwksEndpoint e = endpoint(es256("k1"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).clock(clock)
        .unknownKeyRefreshInterval(Duration.ofSeconds(100)).build());
    for (int i = 0; i < 1000; i++) {
      keyring.unknownKeyId("kid-" + i);
      clock.advance(Duration.ofSeconds(1)); // 1,000 s in all: ten intervals
    }
    clock.advance(Duration.ofSeconds(100));
    keyring.unknownKeyId("marker");
    int expected = 1 + 10 + 1; // start, one per interval, the marker
    Await.until(() -> e.requests.get() >= expected, () -> "the marker fetch");
    assertEquals(expected, e.requests.get());
  }

  @Test
  void unknownKidSeenByTheCodecFetchesANewlyPublishedKey() throws IOException {
    KeySet signer = es256("k1", "k2");
    JwksEndpoint e = endpoint(signer.without("k2"));
    e.cacheControl = "max-age=3600";
    Keyring keyring = keep(Keyring.builder().jwksUrl(e.uri()).httpAllowInsecurePlainHttp(true).build());
    TokenCodec verifier = es256Codec(keyring);
    String token = es256Codec(signer.without("k1")).encode(Claims.builder().build());
    e.publish(signer); // k2 is published after this node's last fetch
    TokenException first = assertThrows(TokenException.class, () -> verifier.decode(token));
    assertEquals(TokenException.Reason.UNKNOWN_KEY, first.reason());
    Await.until(() -> kids(keyring).contains("k2"), () -> "k2 fetched early");
    assertEquals("k2", verifier.decode(token).keyId());
  }

  @Test
  void urlMustBeHttpOrHttps() {
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().jwksUrl(java.net.URI.create("file:///etc/jwks")));
    assertThrows(IllegalArgumentException.class, () -> Keyring.builder().jwksUrl(java.net.URI.create("ftp://h/jwks")));
  }
}
