package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Keys read once, at start: a key set given in code, an environment variable (the environment of
 * a running process does not change) or an ephemeral development key.
 */
public final class FixedSource extends Source {
  private static final Duration NEVER = Duration.ofDays(365);
  private final String description;
  private final Supplier<KeySet> keys;
  private boolean loaded;

  /** Keys from {@code keys}, called once. */
  public FixedSource(String description, Supplier<KeySet> keys) {
    this.description = description;
    this.keys = keys;
  }

  // Plain overrides of Source; their likeness to other classes' accessors is shape only.
  @Override
  public String describe() {
    return description;
  }

  @Override
  protected KeySet load(Instant now) {
    if (loaded) {
      return null;
    }
    KeySet k = keys.get();
    loaded = true;
    return k;
  }

  @Override
  protected boolean rechecks() {
    return false;
  }

  @Override
  protected Duration nextCheckAfterSuccess() {
    return NEVER;
  }
}
