package dev.sessionless.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sessionless.core.internal.KeyedHash;
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
 *
 * <p>Both tiers place a token by a keyed hash ({@link KeyedHash}, SipHash-1-3 under a random key
 * of this cache's own) of its last segment only: the JWS signature or the JWE authentication tag,
 * 22 to 86 characters instead of the whole token's several hundred. A hit still needs the whole
 * text equal, compared after the hashes match. Why hashing that segment alone keeps the cache safe:
 * only tokens that verified are ever put in, and their last segment is a MAC, signature or tag
 * that no one without the key can produce for other content. A presenter who copies the last
 * segment of a token they hold reaches only that token's slot and bucket, where the whole-text
 * compare fails and the text is verified in full like any miss; one who holds no token cannot
 * produce a last segment that is in the cache. And under the random hash key, no one can choose
 * segments that share a slot with a token they do not know.
 */
final class VerificationCache {
  /** Slots of the recent table at most (fewer when the cache itself is smaller). */
  static final int MAX_RECENT = 1024;

  private final Cache<CacheKey, SessionToken> cache;
  private final Recent[] recent;
  private final Verifier verifier;
  private final Clock clock;
  private final KeyedHash hasher = new KeyedHash();
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
   * The key under which {@code text[start, end)} is looked up and, once it verified and was
   * copied out, remembered ({@link CacheKey#of(String)}): its last segment hashed, once per decode.
   */
  CacheKey key(String text, int start, int end) {
    int dot = text.lastIndexOf('.', end - 1);
    return new CacheKey(text, start, end, hasher.hash(text, dot < start ? start : dot + 1, end));
  }

  /**
   * Remembers a token that verified: in the recent table, from which a second presentation
   * promotes it into the cache. {@code key} is the whole token's (see {@link CacheKey#of}).
   */
  void put(CacheKey key, SessionToken verified) {
    // A plain array store: a racing store to the same slot leaves one of the two, and a reader
    // sees either a whole Recent (final fields) or the slot's previous value.
    recent[slot(key)] = new Recent(key, verified);
  }

  private int slot(CacheKey key) {
    return key.hashCode() & (recent.length - 1);
  }

  /** The recent-table slot {@code text[start, end)} goes to (for tests). */
  int slotOf(String text, int start, int end) {
    return slot(key(text, start, end));
  }

  /**
   * The remembered token whose text is exactly {@code key}'s if it may be served now, else {@code
   * null}. Copies nothing: the region is hashed and compared where it lies.
   */
  SessionToken getOrNull(CacheKey key, KeySet set) {
    KeySet under = cachedUnder;
    if (set != under) {
      if (under == null || !set.sameContentAs(under)) {
        // The keys changed: drop everything verified under other keys.
        cache.invalidateAll();
        java.util.Arrays.fill(recent, null);
      }
      cachedUnder = set;
    }
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
   * Cache key: the keyed hash of a text's last segment (see the class comment) and the text,
   * compared whole when the hashes match. A stored key is a whole token; a lookup key may be a region of a longer text (a
   * header), so that a hit copies nothing.
   */
  static final class CacheKey {
    private final String text;
    private final int start;
    private final int length;
    private final long hash;

    CacheKey(String text, int start, int end, long hash) {
      this.text = text;
      this.start = start;
      this.length = end - start;
      this.hash = hash;
    }

    /** The same key for {@code token}, the region copied out: the key the cache may keep. */
    CacheKey of(String token) {
      return token == text && start == 0 ? this : new CacheKey(token, 0, token.length(), hash);
    }

    @Override
    public int hashCode() {
      return (int) (hash ^ (hash >>> 32));
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof CacheKey k) || k.hash != hash || k.length != length) {
        return false;
      }
      // Reached only when the 64-bit keyed hashes of the last segments match: for two different
      // segments by chance alone, else for a text carrying the last segment of a token its
      // presenter holds. How long the compare takes tells nothing about a token one does not have.
      if (start == 0 && k.start == 0 && text.length() == length && k.text.length() == length) {
        return text.equals(k.text); // two whole tokens: the JDK's intrinsic
      }
      return Scratch.sameChars(text, start, k.text, k.start, length);
    }
  }
}
