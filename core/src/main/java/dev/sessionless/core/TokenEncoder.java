package dev.sessionless.core;

import dev.sessionless.core.TokenException.Reason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The write path of a {@link TokenCodec}: picks the signing key, works out the token's times,
 * has {@link CompactWriter} write it and tells the key source and the listener. Thread-safe.
 */
final class TokenEncoder {
  private final KeySource keys;
  private final Algorithm algorithm;
  private final long ttlSeconds;
  private final Clock clock;
  private final CompactWriter writer;
  private final SessionlessListener listener;

  // Assignments only, of the same shape as TokenDecoder's: the two share parts, not logic.
  TokenEncoder(KeySource keys, Algorithm algorithm, long ttlSeconds, Clock clock, CompactWriter writer,
      SessionlessListener listener) {
    this.keys = keys;
    this.algorithm = algorithm;
    this.ttlSeconds = ttlSeconds;
    this.clock = clock;
    this.writer = writer;
    this.listener = listener;
  }

  /** {@link TokenCodec#encode(Claims, String, String)}: its contract, its exceptions. */
  String encode(Claims claims, String prefix, String suffix) {
    Objects.requireNonNull(claims, "claims");
    return encode(claims, Math.floorDiv(clock.millis(), 1000), prefix, suffix);
  }

  /**
   * {@link TokenCodec#encode(Claims, Instant)}: the caller read the time, so a second that
   * ticks over between its reading and this stamping cannot move the token's {@code iat} and
   * {@code exp}.
   *
   * @throws IllegalArgumentException if {@code issuedAt} lies before 1970 or after 9999
   */
  String encode(Claims claims, Instant issuedAt, String prefix, String suffix) {
    Objects.requireNonNull(claims, "claims");
    Objects.requireNonNull(issuedAt, "issuedAt");
    long now = issuedAt.getEpochSecond();
    if (now < 0 || now > Claims.MAX_EPOCH_SECOND) {
      throw new IllegalArgumentException("issuedAt must lie between 1970 and 9999, got " + issuedAt);
    }
    return encode(claims, now, prefix, suffix);
  }

  /** Encodes {@code claims} issued at the epoch second {@code now}, however it was read. */
  private String encode(Claims claims, long now, String prefix, String suffix) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(suffix, "suffix");
    KeySet set = keys.current();
    TokenKey key = set.signingKeyOrNull(algorithm, now);
    if (key == null) {
      throw new TokenException(Reason.NO_SIGNING_KEY,
          "no key in the key set can sign with " + algorithm.joseName() + " now: add an active "
              + algorithm.joseName() + " key with its private part, or check the lifecycle instants");
    }
    Duration own = claims.timeToLiveOrNull();
    long ttl = own != null ? own.getSeconds() : ttlSeconds;
    long exp = now + ttl;
    if (now < 0 || exp > Claims.MAX_EPOCH_SECOND) {
      throw new TokenException(Reason.INTERNAL, "the token would be issued at " + Instant.ofEpochSecond(now)
          + " (by the clock, or as given), where no token this codec could read can be made: check the clock");
    }
    Instant nbf = claims.notBeforeOrNull();
    if (nbf != null && nbf.getEpochSecond() >= exp) {
      throw new IllegalArgumentException("the claims' notBefore " + nbf
          + " is not before the token's expiry " + Instant.ofEpochSecond(exp)
          + ": such a token would never be valid; move notBefore earlier or the time-to-live later");
    }
    String text = writer.write(key, claims, now, exp, prefix, suffix);
    keys.signedWith(key);
    listener.tokenEncoded(key.kid(), algorithm, text.length() - prefix.length() - suffix.length());
    return text;
  }
}
