package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class VerificationCacheTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final FakeClock clock = new FakeClock(NOW);
  final TokenKey key = TokenKey.generate("k", Algorithm.ES256);
  final AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(key));

  TokenCodec codec(int cacheSize) {
    return TokenCodec.builder().keys(live::get).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofMinutes(10)).clockSkew(Duration.ofSeconds(5)).clock(clock)
        .verificationCache(cacheSize).build();
  }

  @Test
  void sameTokenArrivingAsNewStringIsServedFromCache() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().subject("s").build());
    SessionToken first = codec.decode(token);
    SessionToken second = codec.decode(new String(token.toCharArray()));
    assertSame(first, second, "a cookie is a new String each request and must still hit");
  }

  @Test
  void aTokenPresentedTwiceOutlivesAnyNumberOfTokensPresentedOnce() {
    TokenCodec codec = codec(10_000);
    String token = codec.encode(Claims.builder().subject("reader").build());
    SessionToken first = codec.decode(token);
    assertSame(first, codec.decode(token), "the second presentation is served and promoted");
    // A write-heavy session elsewhere: every request a new token, each seen once, filling every
    // slot of the recent table many times over.
    for (int i = 0; i < 3 * VerificationCache.MAX_RECENT; i++) {
      codec.decode(codec.encode(Claims.builder().subject("writer-" + i).build()));
    }
    assertSame(first, codec.decode(token), "promoted into the cache, not left in the recent table");
  }

  @Test
  void aRecentSlotTakenByAnotherTokenOnlyCostsAFreshVerify() {
    TokenCodec codec = codec(1); // one slot in the recent table, one entry in the cache
    String a = codec.encode(Claims.builder().subject("a").build());
    String b = codec.encode(Claims.builder().subject("b").build());
    SessionToken a1 = codec.decode(a);
    codec.decode(b); // takes the only recent slot
    SessionToken a2 = codec.decode(a);
    assertNotSame(a1, a2, "a was no longer remembered: verified again");
    assertEquals("a", a2.subject().orElseThrow());
    assertSame(a2, codec.decode(a), "and remembered again from that verify");
  }

  @Test
  void switchedOffCacheVerifiesEveryTime() {
    TokenCodec codec = codec(0);
    String token = codec.encode(Claims.builder().build());
    assertNotSame(codec.decode(token), codec.decode(token));
  }

  @Test
  void cacheNeverServesATokenPastItsExpiry() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    clock.advance(Duration.ofMinutes(10).plusSeconds(5));
    assertEquals(TokenException.Reason.EXPIRED,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheIsEmptiedWhenTheKeyLeavesTheKeySet() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    live.set(KeySet.of(TokenKey.generate("other", Algorithm.ES256)));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheRespectsTheKeysOwnExpiry() {
    live.set(KeySet.of(key.withLifecycle(null, null, NOW.plusSeconds(30), NOW.plusSeconds(60))));
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    clock.advance(Duration.ofSeconds(61));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void tamperedCopyOfACachedTokenIsStillRejected() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    // The same last segment (what the cache key hashes), a different payload.
    int i = token.indexOf('.') + 3;
    char[] c = token.toCharArray();
    c[i] = c[i] == 'A' ? 'B' : 'A';
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(new String(c))).reason());
  }

  @Test
  void cacheHitIsRefusedWhenTheClockStepsBackBeforeNbf() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().notBefore(NOW).build());
    codec.decode(token);
    clock.advance(Duration.ofMinutes(-1));
    assertEquals(TokenException.Reason.NOT_YET_VALID,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheHitIsRefusedWhenTheClockStepsBackBeforeIat() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    codec.decode(token);
    clock.advance(Duration.ofMinutes(-1));
    assertEquals(TokenException.Reason.ISSUED_IN_FUTURE,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
  }

  @Test
  void cacheHitIsServedAgainOnceTheClockIsBackInsideTheWindow() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().notBefore(NOW).build());
    SessionToken first = codec.decode(token);
    clock.advance(Duration.ofMinutes(-1));
    assertThrows(TokenException.class, () -> codec.decode(token));
    clock.advance(Duration.ofMinutes(2));
    assertEquals(first.id(), codec.decode(token).id());
  }

  @Test
  void cacheSurvivesAnEqualKeySetReturnedAsANewObject() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    SessionToken first = codec.decode(token);
    // A live source that rebuilds its snapshot (re-reads a file, re-fetches a JWKS) on refresh.
    live.set(KeySet.fromJwks(live.get().toJwksWithSecrets()));
    assertSame(first, codec.decode(token), "equal content is the same key set");
    live.set(KeySet.of(key));
    assertSame(first, codec.decode(token));
  }

  @Test
  void cacheIsEmptiedWhenAKidKeepsItsNameButChangesMaterial() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    SessionToken first = codec.decode(token);
    live.set(KeySet.of(TokenKey.generate("k", Algorithm.ES256)));
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(token)).reason());
    live.set(KeySet.of(key));
    assertNotSame(first, codec.decode(token), "the cache was emptied in between");
  }

  @Test
  void cacheIsEmptiedWhenOnlyALifecycleChanges() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().build());
    SessionToken first = codec.decode(token);
    live.set(KeySet.of(key.withLifecycle(null, null, NOW.plusSeconds(3600), null)));
    assertNotSame(first, codec.decode(token));
  }

  @Test
  void aForgedTokenThatReusesACachedTokensLastSegmentIsAMissAndIsVerifiedInFull() {
    TokenCodec codec = codec(100);
    String token = codec.encode(Claims.builder().subject("victim").build());
    SessionToken cached = codec.decode(token);
    assertSame(cached, codec.decode(token), "cached and promoted");
    // Another token's header and payload with the cached token's signature: the same cache slot
    // and bucket (the last segment is what is hashed), but not the same text.
    String other = codec.encode(Claims.builder().subject("attacker").build());
    String forged = other.substring(0, other.lastIndexOf('.')) + token.substring(token.lastIndexOf('.'));
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(forged)).reason(), "verified in full, not served");
    assertEquals(TokenException.Reason.BAD_SIGNATURE,
        assertThrows(TokenException.class, () -> codec.decode(forged)).reason(), "and never cached");
    assertSame(cached, codec.decode(new String(token.toCharArray())), "the cached token is still served");
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void tokensWithDifferentLastSegmentsSpreadOverTheSlots() {
    // The hash covers the last segment under a key the presenter does not know: random segments
    // land on random slots, and what comes before the last dot does not move a token.
    VerificationCache cache = new VerificationCache(10_000, null, clock);
    java.util.Random random = new java.util.Random(35);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int texts = 64;
    java.util.Set<Integer> hashes = new java.util.HashSet<>();
    int sameSlotAsFirst = 0;
    int first = -1;
    for (int t = 0; t < texts; t++) {
      StringBuilder b = new StringBuilder("eyJhbGciOiJFUzI1NiJ9.e30.");
      for (int i = 0; i < 86; i++) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text = b.toString();
      VerificationCache.CacheKey key = cache.key(text, 0, text.length());
      hashes.add(key.hashCode());
      assertEquals(key.hashCode(), cache.key("x." + text, 2, text.length() + 2).hashCode(), "a region hashes as its text");
      int slot = cache.slotOf(text, 0, text.length());
      if (t == 0) {
        first = slot;
      } else if (slot == first) {
        sameSlotAsFirst++;
      }
    }
    assertEquals(texts, hashes.size(), "different last segments share a hash");
    // 1,024 slots: about one in 16 of the 63 others would share the first's slot by chance.
    org.junit.jupiter.api.Assertions.assertTrue(sameSlotAsFirst < 8, sameSlotAsFirst + " of 63 in the first one's slot");
  }
}
