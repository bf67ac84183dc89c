package dev.sessionless.core;

/**
 * Hands out the current key-set snapshot. Every encode and decode asks once, so an
 * implementation must answer quickly and without blocking: typically a volatile read of a
 * snapshot that a background task replaces when keys change. {@link KeySet} itself is the
 * simplest source: a fixed set.
 *
 * <p>Implementations must be thread-safe. The keyring module provides live sources (files,
 * environment, HTTP JWKS) with background refresh.
 */
@FunctionalInterface
public interface KeySource {
  /** The key set in force now; never {@code null}. */
  KeySet current();
}
