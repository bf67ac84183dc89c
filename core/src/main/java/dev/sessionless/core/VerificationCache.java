package dev.sessionless.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sessionless.core.internal.Scratch;
import java.time.Clock;

/**
 * The verification cache of a {@link TokenCodec}: tokens that verified, by their whole text. A
 * hit is served only for the very same text, under the same keys (the same {@link KeySet} or
 * one of the same content), and after the same time checks a fresh decode makes; otherwise the
 * token is verified again, which rejects it with the precise reason. Emptied when the keys change.
 *
 * <p>Two tiers. A token that just verified goes into a small direct-mapped table of recent tokens
 * (one array slot chosen by its hash: writing it costs a store, and a later token with the same
 * slot simply replaces it). Only when it is presented again, and found there, is it promoted into
 * the bounded Caffeine cache. So a session that changes on every request, whose tokens are each
 * presented once, never pays for a Caffeine write and its eviction work (about 5% of a node's
 * CPU in the load test), nor pushes out the tokens of sessions that are read again and again.
 */
final class VerificationCache {
  /** Slots of the recent table at most (fewer when the cache itself is smaller). */
  static final int MAX_RECENT = 1024;

  private final Cache<CacheKey, SessionToken> cache;
  private final Recent[] recent;
  private final Verifier verifier;
  private final Clock clock;
  private volatile KeySet cachedUnder;

  /** A token in the recent table: its key (for the whole-text compare) and what it verified to. */
  private record Recent(CacheKey key, SessionToken token) {}

  VerificationCache(int maxEntries, Verifier verifier, Clock clock) {
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
    // A power of two no larger than the cache itself, so a small cache stays small.
    this.recent = new Recent[Integer.highestOneBit(Math.min(MAX_RECENT, maxEntries))];
    this.verifier = verifier;
    this.clock = clock;
  }

  /**
   * Remembers a token that verified under {@code set}: in the recent table, from which a second
   * presentation promotes it into the cache.
   */
  void put(String token, SessionToken verified) {
    CacheKey key = new CacheKey(token);
    // A plain array store: a racing store to the same slot leaves one of the two, and a reader
    // sees either a whole Recent (final fields) or the slot's previous value.
    recent[slot(key)] = new Recent(key, verified);
  }

  private int slot(CacheKey key) {
    return key.hash & (recent.length - 1);
  }

  /**
   * The remembered token whose text is exactly {@code text[start, end)} if it may be served now,
   * else {@code null}. Copies nothing: the region is hashed and compared where it lies.
   */
  SessionToken getOrNull(String text, int start, int end, KeySet set) {
    KeySet under = cachedUnder;
    if (set != under) {
      if (under == null || !set.sameContentAs(under)) {
        // The keys changed: drop everything verified under other keys.
        cache.invalidateAll();
        java.util.Arrays.fill(recent, null);
      }
      cachedUnder = set;
    }
    CacheKey key = new CacheKey(text, start, end);
    SessionToken hit = cache.getIfPresent(key);
    if (hit == null) {
      Recent r = recent[slot(key)];
      if (r == null || !r.key().equals(key)) {
        return null;
      }
      hit = r.token();
      // Presented a second time: worth a place in the cache. The stored key holds the whole
      // token, never the text around the region looked up.
      cache.put(r.key(), hit);
    }
    if (hit.keySet != set && !hit.keySet.sameContentAs(set)) {
      return null;
    }
    long now = Math.floorDiv(clock.millis(), 1000);
    if (!hit.key.verifiesAt(now)
        || verifier.timeClaimsFail(hit.expiresAtSecond(), hit.notBeforeSecond(), hit.issuedAtSecond(), now)) {
      return null; // verify again, which rejects with the precise reason
    }
    return hit;
  }

  /**
   * Cache key: hashes only the last segment (signature or tag, which no one can forge), compares
   * the whole token. A stored key is a whole token; a lookup key may be a region of a longer text
   * (a header), so that a hit copies nothing.
   */
  static final class CacheKey {
    private final String text;
    private final int start;
    private final int length;
    private final int hash;

    CacheKey(String token) {
      this(token, 0, token.length());
    }

    CacheKey(String text, int start, int end) {
      this.text = text;
      this.start = start;
      this.length = end - start;
      int h = 0;
      for (int i = Math.max(start, end - 16); i < end; i++) {
        h = 31 * h + text.charAt(i);
      }
      this.hash = h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof CacheKey k) || k.hash != hash || k.length != length) {
        return false;
      }
      if (start == 0 && k.start == 0 && text.length() == length && k.text.length() == length) {
        return text.equals(k.text); // two whole tokens: the JDK's intrinsic
      }
      return Scratch.sameChars(text, start, k.text, k.start, length);
    }
  }
}
