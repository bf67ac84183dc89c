package dev.sessionless.keyring;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.internal.Retirement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per kid, what this node saw the key do: verifications served (since the keyring started) and
 * the last time it verified and signed. Written on the request path with a map look-up, an
 * uncontended counter and, at most once per second per kid, a volatile write; read by {@link
 * Keyring#status()}. Kids leave with the key set.
 */
final class KeyUsage {
  static final long NEVER = Long.MIN_VALUE;

  static final class Counts {
    final LongAdder verifications = new LongAdder();
    volatile long lastVerifiedMillis = NEVER;
    volatile long lastSignedMillis = NEVER;
  }

  private final ConcurrentHashMap<String, Counts> byKid = new ConcurrentHashMap<>();
  private final Clock clock;

  KeyUsage(Clock clock) {
    this.clock = clock;
  }

  private Counts counts(TokenKey key) {
    Counts c = byKid.get(key.kid());
    return c != null ? c : byKid.computeIfAbsent(key.kid(), k -> new Counts());
  }

  void verified(TokenKey key) {
    Counts c = counts(key);
    c.verifications.increment();
    long now = clock.millis();
    if (now - c.lastVerifiedMillis >= 1000 || c.lastVerifiedMillis == NEVER) {
      c.lastVerifiedMillis = now;
    }
  }

  void signed(TokenKey key) {
    Counts c = counts(key);
    long now = clock.millis();
    if (now - c.lastSignedMillis >= 1000 || c.lastSignedMillis == NEVER) {
      c.lastSignedMillis = now;
    }
  }

  /** The counts for {@code kid}, or an empty record if it was never used. */
  Counts of(String kid) {
    Counts c = byKid.get(kid);
    return c == null ? new Counts() : c;
  }

  /** Forgets kids no longer in the key set, so the map stays as small as the key set. */
  void retain(Set<String> kids) {
    byKid.keySet().retainAll(kids);
  }

  /** Every key of {@code keys} as the status view shows it, at {@code now}. */
  List<KeyStatus> statuses(KeySet keys, Instant now, Duration maxTokenLifetime, Duration window, Instant started) {
    List<KeyStatus> list = new ArrayList<>();
    for (TokenKey k : keys.keys()) {
      Counts c = of(k.kid());
      Instant lastVerified = instant(c.lastVerifiedMillis);
      Instant lastSigned = instant(c.lastSignedMillis);
      Instant deleteFrom = Retirement.safeToDeleteFrom(k, maxTokenLifetime).orElse(null);
      Instant watchedSince = lastVerified != null && lastVerified.isAfter(started) ? lastVerified : started;
      boolean quiet = !now.isBefore(watchedSince.plus(window));
      boolean lifecycleAllows = deleteFrom != null && !now.isBefore(deleteFrom);
      boolean signing = keys.signingKey(k.algorithm(), now).map(s -> s == k).orElse(false);
      list.add(new KeyStatus(k.kid(), k.algorithm(), signing, Retirement.signingEnds(k).orElse(null), lastSigned,
          c.verifications.sum(), lastVerified, Retirement.safeToRetire(k, keys, now), deleteFrom, quiet,
          lifecycleAllows && quiet));
    }
    return list;
  }

  private static Instant instant(long millis) {
    return millis == NEVER ? null : Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS);
  }
}
