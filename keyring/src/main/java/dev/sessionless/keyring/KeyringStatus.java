package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The state of a keyring: per source, and the keys in force. Immutable; never key material. */
public final class KeyringStatus {
  private final List<SourceStatus> sources;
  private final List<String> keyIds;
  private final Map<Algorithm, String> signingKeyIds;
  private final Set<String> conflictingKeyIds;
  private final long refreshErrors;
  private final boolean closed;
  private final List<KeyStatus> keys;

  KeyringStatus(List<SourceStatus> sources, List<String> keyIds, Map<Algorithm, String> signingKeyIds,
      Set<String> conflictingKeyIds, long refreshErrors, boolean closed, List<KeyStatus> keys) {
    this.keys = List.copyOf(keys);
    this.sources = List.copyOf(sources);
    this.keyIds = List.copyOf(keyIds);
    Map<Algorithm, String> copy = new EnumMap<>(Algorithm.class);
    copy.putAll(signingKeyIds);
    this.signingKeyIds = Collections.unmodifiableMap(copy);
    this.conflictingKeyIds = Collections.unmodifiableSet(new TreeSet<>(conflictingKeyIds));
    this.refreshErrors = refreshErrors;
    this.closed = closed;
  }

  /** One entry per source, in configuration order. */
  public List<SourceStatus> sources() {
    return sources;
  }

  /** The kids of the snapshot in force. */
  public List<String> keyIds() {
    return keyIds;
  }

  /** Per key in force: lifecycle, this node's traffic, and whether it is safe to retire or delete. */
  public List<KeyStatus> keys() {
    return keys;
  }

  /** For each algorithm that has one, the kid that signs now (by the keyring's clock). */
  public Map<Algorithm, String> signingKeyIds() {
    return signingKeyIds;
  }

  /** Kids that two sources hold with different keys (the first source's key is used); normally empty. */
  public Set<String> conflictingKeyIds() {
    return conflictingKeyIds;
  }

  /**
   * Unexpected failures of the refresh itself, outside any one source's check: a bug, or a
   * logging back end that throws. Each is logged at {@code ERROR} the first time per kind (when
   * logging works), and never stops the refresh; normally 0. A source's own unexpected failures
   * are counted in its {@link SourceStatus#failures()} with the reason {@code INTERNAL}.
   */
  public long refreshErrors() {
    return refreshErrors;
  }

  /** Whether the keyring was closed, so its keys no longer change. */
  public boolean closed() {
    return closed;
  }

  @Override
  public String toString() {
    return "KeyringStatus[keys=" + keyIds + ", signing=" + signingKeyIds
        + (conflictingKeyIds.isEmpty() ? "" : ", conflicts=" + conflictingKeyIds)
        + (refreshErrors == 0 ? "" : ", refreshErrors=" + refreshErrors)
        + (closed ? ", closed" : "") + ", sources=" + sources + "]";
  }
}
