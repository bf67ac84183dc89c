package dev.sessionless.keyring;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.internal.KeyringEvents;
import dev.sessionless.keyring.internal.Source;
import dev.sessionless.keyring.internal.VerifyOnly;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The key-set snapshot a {@link Keyring} hands out, and how it is made: the union of the sources'
 * keys, kid conflicts between sources found and logged, and the very same snapshot object kept
 * when nothing changed. Separate from {@link Keyring} so that the public class holds its API and
 * the rules for merging sources stand in one place.
 */
final class SnapshotPublisher {
  private final List<Source> sources;
  private final System.Logger log;
  private final KeyUsage usage;
  private final KeyringEvents events;
  private volatile KeySet snapshot = KeySet.empty();
  // Written only on the refresh thread (or in build() before it gets work); read by status().
  private volatile Set<String> conflicts = Set.of();

  SnapshotPublisher(List<Source> sources, System.Logger log, KeyUsage usage, KeyringEvents events) {
    this.sources = sources;
    this.log = log;
    this.usage = usage;
    this.events = events;
  }

  /** The snapshot in force: a volatile read, never blocking. */
  KeySet current() {
    return snapshot;
  }

  /** The kids two sources hold with different keys, as of the last {@link #publish()}. */
  Set<String> conflicts() {
    return conflicts;
  }

  /**
   * Publishes the union of the sources' keys, keeping the old snapshot object when nothing
   * changed. Local sources come first, in configuration order, then verify-only ones: a
   * verify-only source never overrides a local key, whatever the order sources were added in.
   */
  void publish() {
    Map<String, TokenKey> union = new LinkedHashMap<>();
    Map<String, Source> firstSource = new HashMap<>();
    Set<String> conflicting = new TreeSet<>();
    for (boolean verifyOnlyPass : new boolean[] {false, true}) {
      for (Source s : sources) {
        if (s.isVerifyOnly() != verifyOnlyPass) {
          continue;
        }
        for (TokenKey k : s.keys().keys()) {
          TokenKey first = union.putIfAbsent(k.kid(), k);
          if (first == null) {
            firstSource.put(k.kid(), s);
            continue;
          }
          Source holder = firstSource.get(k.kid());
          boolean overLocal = s.isVerifyOnly() && !holder.isVerifyOnly();
          // A verify-only source holding the public part of a local key (its own JWKS, say) is no clash.
          if (overLocal ? VerifyOnly.view(first).sameAs(k) : first.sameAs(k)) {
            continue;
          }
          conflicting.add(k.kid());
          if (conflicts.contains(k.kid())) {
            continue;
          }
          if (overLocal) {
            log.log(Level.ERROR, "kid {0} is held by the verify-only {2} and by {1} with different keys; the "
                + "local key ({1}) is kept: a verify-only source never overrides a local key. Give every key a "
                + "unique kid.", k.kid(), holder.describe(), s.describe());
          } else {
            log.log(Level.ERROR, "kid {0} is held by {1} and by {2} with different keys; the source configured "
                + "first ({1}) wins. Give every key a unique kid.", k.kid(), holder.describe(), s.describe());
          }
        }
      }
    }
    for (String kid : conflicts) {
      if (!conflicting.contains(kid)) {
        log.log(Level.INFO, "kid {0} no longer conflicts between sources", kid);
      }
    }
    if (!conflicting.equals(conflicts)) {
      conflicts = Collections.unmodifiableSet(conflicting);
    }
    KeySet current = snapshot;
    if (sameKeys(current, union)) {
      return;
    }
    snapshot = KeySet.of(new ArrayList<>(union.values()));
    usage.retain(union.keySet());
    events.changed(current, snapshot);
    if (!current.keys().isEmpty()) {
      List<String> added = new ArrayList<>();
      List<String> changed = new ArrayList<>();
      for (TokenKey k : union.values()) {
        Optional<TokenKey> old = current.key(k.kid());
        if (old.isEmpty()) {
          added.add(k.kid());
        } else if (!old.get().sameAs(k)) {
          changed.add(k.kid());
        }
      }
      List<String> removed = new ArrayList<>();
      for (TokenKey k : current.keys()) {
        if (!union.containsKey(k.kid())) {
          removed.add(k.kid());
        }
      }
      log.log(Level.INFO, "keys changed: added {0}, changed {1}, removed {2}; now {3}",
          added, changed, removed, union.keySet());
    }
  }

  private static boolean sameKeys(KeySet current, Map<String, TokenKey> next) {
    if (current.keys().size() != next.size()) {
      return false;
    }
    for (TokenKey k : current.keys()) {
      if (!k.sameAs(next.get(k.kid()))) {
        return false;
      }
    }
    return true;
  }

  /** The kids of {@code keys}, in their order. */
  static List<String> kids(KeySet keys) {
    List<String> kids = new ArrayList<>();
    for (TokenKey k : keys.keys()) {
      kids.add(k.kid());
    }
    return kids;
  }
}
