package dev.sessionless.core;

/**
 * Hands out the current key-set snapshot. Every encode and decode asks once, so an
 * implementation must answer quickly and without blocking: typically a volatile read of a
 * snapshot that a background task replaces when keys change. {@link KeySet} itself is the
 * simplest source: a fixed set.
 *
 * <p><b>Snapshots and the verification cache.</b> The codec keeps its verification cache while
 * {@link #current()} returns the same keys: the same instance, or a new {@link KeySet} with the
 * same content ({@link KeySet#sameContentAs(KeySet)}: same kids, algorithms, lifecycles and
 * material). A set with any difference empties the cache. Return the same instance while nothing
 * changed (the cheapest case); a source that rebuilds an equal set on every refresh costs one
 * content digest per new instance, not a cold cache.
 *
 * <p>Implementations must be thread-safe. The keyring module provides live sources (files,
 * environment, HTTP JWKS) with background refresh; the keyring also counts how its keys are used
 * (verifications, encryptions), through a line to the codec that is not public API, so that no
 * other code can skew those counts.
 */
@FunctionalInterface
public interface KeySource {
  /** The key set in force now; never {@code null}. */
  KeySet current();

  /**
   * Told by the codec that a token named a key id the current snapshot does not hold.
   *
   * <p>A live source may use this to fetch keys early (a peer may have published a key this
   * node has not seen yet). The id comes from an unverified token, so it is attacker-controlled:
   * an implementation must return at once, never block or do I/O on the caller's thread, and
   * rate-limit whatever it does. The token is rejected ({@code UNKNOWN_KEY}) whatever happens
   * here, with one exception: a source that knows {@code kid} as one of its own keys that it can
   * no longer vouch for (its origin has been unreachable past a stale bound) may throw a {@link
   * TokenException} whose reason is no rejection ({@link TokenException.Reason#KEY_SOURCE_UNAVAILABLE});
   * the decode then fails with that exception, an outage of this side rather than a logout of
   * the client. Anything else thrown here travels as the cause of the {@code UNKNOWN_KEY}. The
   * default does nothing.
   *
   * @param kid the key id the token named, as it appeared in the header
   * @throws TokenException {@code KEY_SOURCE_UNAVAILABLE} (or another reason that is no
   *     rejection) if the key was dropped because its source cannot vouch for it
   */
  default void unknownKeyId(String kid) {}
}
