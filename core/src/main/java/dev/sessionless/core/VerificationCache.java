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
 */
final class VerificationCache {
  private final Cache<CacheKey, SessionToken> cache;
  private final Verifier verifier;
  private final Clock clock;
  private volatile KeySet cachedUnder;

  VerificationCache(int maxEntries, Verifier verifier, Clock clock) {
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
    this.verifier = verifier;
    this.clock = clock;
  }

  /** Remembers a token that verified under {@code set}. */
  void put(String token, SessionToken verified) {
    cache.put(new CacheKey(token), verified);
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
      }
      cachedUnder = set;
    }
    SessionToken hit = cache.getIfPresent(new CacheKey(text, start, end));
    if (hit == null || (hit.keySet != set && !hit.keySet.sameContentAs(set))) {
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
