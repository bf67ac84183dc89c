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
 * Per kid, what this node saw the key do: verifications served within the traffic window (a
 * rolling window of buckets), and the last time it verified and signed. Written on the request
 * path with a map look-up, one clock read, a volatile read of the current bucket and a striped
 * counter ({@link LongAdder}: no contended CAS, no allocation); only the first verification in
 * a new bucket (every window/60, at least 1 s) takes the kid's lock to reset the bucket it
 * reuses, and at most once per second per kid a volatile write records the last verification.
 * Read by {@link Keyring#status()}. Kids leave with the key set.
 */
final class KeyUsage {
  static final long NEVER = Long.MIN_VALUE;
  /** How many buckets make a window (fewer for windows under a minute: a bucket is at least 1 s). */
  static final int BUCKETS = 60;

  /** Verifications within one bucket of time: {@code [index * width, (index + 1) * width)} ms. */
  static final class Bucket {
    final LongAdder count = new LongAdder();
    volatile long index = NEVER;
    /** The first millisecond after this bucket; the request path compares with it only. */
    volatile long endMillis = NEVER;
  }

  static final class Counts {
    /** {@code windowBuckets + 1} buckets, reused in turn (bucket {@code i} in slot {@code i mod length}). */
    final Bucket[] ring;
    volatile Bucket current;
    volatile long lastVerifiedMillis = NEVER;
    volatile long lastSignedMillis = NEVER;

    Counts(int windowBuckets) {
      ring = new Bucket[windowBuckets + 1];
      for (int i = 0; i < ring.length; i++) {
        ring[i] = new Bucket();
      }
      current = ring[0];
    }

    /** Moves to the bucket of {@code now}, resetting the slot it reuses; once per bucket per kid. */
    synchronized Bucket advance(long now, long width) {
      Bucket b = current;
      if (now < b.endMillis) {
        return b; // another thread advanced already
      }
      long index = Math.floorDiv(now, width);
      Bucket next = ring[(int) Math.floorMod(index, (long) ring.length)];
      if (next.index != index) {
        next.count.reset();
        next.endMillis = Math.multiplyExact(index + 1, width);
        next.index = index;
      }
      current = next;
      return next;
    }

    /** Verifications in the buckets {@code [nowIndex - windowBuckets, nowIndex]}. */
    long recent(long nowIndex, int windowBuckets) {
      long sum = 0;
      for (Bucket b : ring) {
        long i = b.index;
        if (i != NEVER && i <= nowIndex && i >= nowIndex - windowBuckets) {
          sum += b.count.sum();
        }
      }
      return sum;
    }
  }

  private final ConcurrentHashMap<String, Counts> byKid = new ConcurrentHashMap<>();
  private final Clock clock;
  /** The width of one bucket in milliseconds. */
  private final long width;
  /** How many buckets cover the window (rounded up). */
  private final int windowBuckets;

  KeyUsage(Clock clock, Duration window) {
    this.clock = clock;
    long ms = window.toMillis();
    this.width = Math.max(1000, ms / BUCKETS);
    this.windowBuckets = (int) ((ms + width - 1) / width);
  }

  private Counts counts(TokenKey key) {
    Counts c = byKid.get(key.kid());
    return c != null ? c : byKid.computeIfAbsent(key.kid(), k -> new Counts(windowBuckets));
  }

  void verified(TokenKey key) {
    Counts c = counts(key);
    long now = clock.millis();
    Bucket b = c.current;
    if (now >= b.endMillis) {
      b = c.advance(now, width);
    }
    b.count.increment();
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
    return c == null ? new Counts(0) : c;
  }

  /** Forgets kids no longer in the key set, so the map stays as small as the key set. */
  void retain(Set<String> kids) {
    byKid.keySet().retainAll(kids);
  }

  /** Every key of {@code keys} as the status view shows it, at {@code now}. */
  List<KeyStatus> statuses(KeySet keys, Instant now, Duration maxTokenLifetime, Duration window, Instant started) {
    List<KeyStatus> list = new ArrayList<>();
    long nowIndex = Math.floorDiv(now.toEpochMilli(), width);
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
          c.recent(nowIndex, windowBuckets), lastVerified, Retirement.safeToRetire(k, keys, now), deleteFrom, quiet,
          lifecycleAllows && quiet));
    }
    return list;
  }

  private static Instant instant(long millis) {
    return millis == NEVER ? null : Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS);
  }
}
