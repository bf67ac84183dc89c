package dev.sessionless.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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

  /** The remembered token for exactly this text if it may be served now, else {@code null}. */
  SessionToken getOrNull(String token, KeySet set) {
    KeySet under = cachedUnder;
    if (set != under) {
      if (under == null || !set.sameContentAs(under)) {
        // The keys changed: drop everything verified under other keys.
        cache.invalidateAll();
      }
      cachedUnder = set;
    }
    SessionToken hit = cache.getIfPresent(new CacheKey(token));
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

  /** Cache key: hashes only the last segment (signature or tag, which no one can forge), compares the whole token. */
  static final class CacheKey {
    private final String token;
    private final int hash;

    CacheKey(String token) {
      this.token = token;
      int n = token.length();
      int h = 0;
      for (int i = Math.max(0, n - 16); i < n; i++) {
        h = 31 * h + token.charAt(i);
      }
      this.hash = h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CacheKey && ((CacheKey) o).token.equals(token);
    }
  }
}
