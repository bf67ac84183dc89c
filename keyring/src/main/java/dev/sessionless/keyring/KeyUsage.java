package dev.sessionless.keyring;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.KeyUsageHook;
import dev.sessionless.keyring.internal.Retirement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per kid, what this node saw the key do: verifications served within the traffic window (a
 * rolling window of buckets), and the last time it verified and signed. Written on the request
 * path with a map look-up, one clock read, a volatile read of the current bucket and a striped
 * counter ({@link LongAdder}: no contended CAS, no allocation); only the first verification in
 * a new bucket (every window/60, at least 1 s) takes the kid's lock to reset the bucket it
 * reuses, and at most once per second per kid a volatile write records the last verification.
 * Read by {@link Keyring#status()}. Kids leave with the key set.
 *
 * <p>Also each AES-GCM key's encryptions on this node, against the {@linkplain
 * KeyringBuilder#encryptionBudgetPerKey(long) budget}: one compare-and-set per encryption (encodes
 * are rare next to decodes), a warning once a key passes half of it, and past it the key no longer
 * encrypts: another A256GCM key that may sign now takes over, or the encode fails as an outage.
 * The codec reaches this class through {@link KeyUsageHook} only, never through public API.
 */
final class KeyUsage implements KeyUsageHook {
  private static final System.Logger LOG = System.getLogger(Keyring.class.getName());
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
    /** Tokens encrypted with the key on this node, never above the budget. */
    final AtomicLong encryptions = new AtomicLong();
    /** Whether another key taking over, and the outage, were logged (once each per kid). */
    final AtomicBoolean takeOverLogged = new AtomicBoolean();
    final AtomicBoolean outageLogged = new AtomicBoolean();

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
  private final long encryptionBudget;

  KeyUsage(Clock clock, Duration window, long encryptionBudget) {
    this.clock = clock;
    this.encryptionBudget = encryptionBudget;
    long ms = window.toMillis();
    this.width = Math.max(1000, ms / BUCKETS);
    this.windowBuckets = (int) ((ms + width - 1) / width);
  }

  private Counts counts(TokenKey key) {
    Counts c = byKid.get(key.kid());
    return c != null ? c : byKid.computeIfAbsent(key.kid(), k -> new Counts(windowBuckets));
  }

  @Override
  public void verified(TokenKey key) {
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

  private void signed(TokenKey key) {
    Counts c = counts(key);
    long now = clock.millis();
    if (now - c.lastSignedMillis >= 1000 || c.lastSignedMillis == NEVER) {
      c.lastSignedMillis = now;
    }
  }

  @Override
  public TokenKey signing(KeySet set, TokenKey chosen, long nowSeconds) {
    TokenKey key = chosen;
    if (chosen.algorithm().isEncrypting() && !spend(chosen)) {
      key = takeOver(set, chosen, nowSeconds);
    }
    signed(key);
    return key;
  }

  /** Counts one encryption with {@code key}, unless that would pass the budget. */
  private boolean spend(TokenKey key) {
    AtomicLong n = counts(key).encryptions;
    long before;
    do {
      before = n.get();
      if (before >= encryptionBudget) {
        return false;
      }
    } while (!n.compareAndSet(before, before + 1));
    if (before == encryptionBudget / 2) { // passes half: each count is reached once, so this logs once
      LOG.log(System.Logger.Level.WARNING, "AES-GCM key {0} has encrypted {1} tokens on this node, half of its "
          + "budget of {2} (random 96-bit IVs: NIST SP 800-38D): rotate it soon (keyring rotate); past the "
          + "budget it no longer encrypts", key.kid(), before + 1, encryptionBudget);
    }
    return true;
  }

  /**
   * Another key of {@code spent}'s algorithm that may sign now and has budget left (the latest
   * activated first, as the key set chooses), or the outage that says to rotate.
   */
  private TokenKey takeOver(KeySet set, TokenKey spent, long nowSeconds) {
    Instant now = Instant.ofEpochSecond(nowSeconds);
    List<TokenKey> others = new ArrayList<>();
    for (TokenKey k : set.keys()) {
      if (k != spent && k.algorithm() == spent.algorithm() && k.signsAt(now)) {
        others.add(k);
      }
    }
    others.sort(Comparator.comparing((TokenKey k) -> k.activates().orElse(Instant.MIN))
        .thenComparing(TokenKey::kid).reversed());
    for (TokenKey k : others) {
      if (spend(k)) {
        if (counts(spent).takeOverLogged.compareAndSet(false, true)) {
          LOG.log(System.Logger.Level.ERROR, "AES-GCM key {0} has spent its budget of {1} encryptions on this "
              + "node; key {2} encrypts in its place. Rotate now (keyring rotate)", spent.kid(), encryptionBudget,
              k.kid());
        }
        return k;
      }
    }
    if (counts(spent).outageLogged.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.ERROR, "AES-GCM key {0} has spent its budget of {1} encryptions on this node "
          + "and no other A256GCM key may encrypt now: new tokens cannot be made (503) until a key is rotated in "
          + "(keyring rotate)", spent.kid(), encryptionBudget);
    }
    throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "the AES-GCM key " + spent.kid()
        + " has encrypted its budget of " + encryptionBudget + " tokens on this node (random 96-bit IVs allow "
        + "2^32 per key: NIST SP 800-38D) and no other A256GCM key may encrypt now: rotate the key (keyring "
        + "rotate, with a short --activate-in), then retry");
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
          c.recent(nowIndex, windowBuckets), c.encryptions.get(), lastVerified, Retirement.safeToRetire(k, keys, now), deleteFrom, quiet,
          lifecycleAllows && quiet));
    }
    return list;
  }

  private static Instant instant(long millis) {
    return millis == NEVER ? null : Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS);
  }
}
