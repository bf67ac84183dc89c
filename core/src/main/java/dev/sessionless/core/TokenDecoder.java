package dev.sessionless.core;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.KeyUsageHook;
import dev.sessionless.core.internal.RejectionBursts;
import java.time.Clock;
import java.util.Objects;

/**
 * The read path of a {@link TokenCodec}: the length limit, the verification cache, the
 * {@link Verifier}, the revocation check, and the bookkeeping of every outcome (listener, key
 * source, JFR's rejection bursts). Whatever goes wrong comes out as a {@link TokenException}.
 * Thread-safe.
 */
final class TokenDecoder {
  private final KeySource keys;
  private final KeyUsageHook usage;
  private final Clock clock;
  private final int maxTokenLength;
  private final Verifier verifier;
  private final VerificationCache cache;
  private final RevocationSource revocation;
  private final SessionlessListener listener;
  private final RejectionBursts bursts = new RejectionBursts();

  /** {@code cache} and {@code revocation} may be null: none. */
  TokenDecoder(KeySource keys, Clock clock, int maxTokenLength, Verifier verifier, VerificationCache cache,
      RevocationSource revocation, SessionlessListener listener) {
    this.keys = keys;
    this.usage = KeyUsageHook.of(keys);
    this.clock = clock;
    this.maxTokenLength = maxTokenLength;
    this.verifier = verifier;
    this.cache = cache;
    this.revocation = revocation;
    this.listener = listener;
  }

  /** {@link TokenCodec#decode(String, int, int)}: its contract, its exceptions. */
  SessionToken decode(String text, int start, int end) {
    if (text == null) {
      rejected(Reason.MALFORMED);
      throw new TokenException(Reason.MALFORMED, "no token was given");
    }
    Objects.checkFromToIndex(start, end, text.length());
    int n = end - start;
    if (n > maxTokenLength) {
      rejected(Reason.TOO_LARGE);
      throw new TokenException(Reason.TOO_LARGE,
          "the token is " + n + " characters, over the limit of " + maxTokenLength);
    }
    SessionToken result;
    boolean cacheHit = false;
    try {
      KeySet set = keys.current();
      VerificationCache.CacheKey cacheKey = cache == null ? null : cache.key(text, start, end);
      result = cacheKey == null ? null : cache.getOrNull(cacheKey, set);
      if (result != null) {
        cacheHit = true;
      } else {
        String token = start == 0 && end == text.length() ? text : text.substring(start, end);
        result = verifier.verify(token, n, set);
        if (cache != null) {
          cache.put(cacheKey.of(token), result);
        }
      }
      if (revocation != null) {
        RevocationCheck.check(revocation, result);
      }
      usage.verified(result.key);
    } catch (TokenException e) {
      rejected(e.reason());
      throw e;
    } catch (RuntimeException e) {
      // Not the token's fault: a bug, a broken key source or a missing JCA algorithm. Saying
      // MALFORMED here would log every user out without anyone noticing.
      rejected(Reason.INTERNAL);
      throw new TokenException(Reason.INTERNAL,
          "decoding failed on this side, not because of the token (" + e.getClass().getName()
              + "): see the cause; this is a bug or a broken deployment", e);
    }
    listener.tokenVerified(result.key.kid(), result.key.algorithm(), cacheHit);
    return result;
  }

  /** The rejection path's bookkeeping: the listener, and JFR's burst count (never on an accepted token). */
  private void rejected(Reason reason) {
    listener.tokenRejected(reason);
    long now;
    try {
      now = clock.millis();
    } catch (RuntimeException e) {
      return; // a broken clock is reported by the failure itself (INTERNAL); never replace it here
    }
    bursts.rejected(Math.floorDiv(now, 1000));
  }
}
