package dev.sessionless.core.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The checks every Sessionless builder makes on its options, in one place so that the builders
 * (codec, filter, keyring, revocation stores) refuse the same mistakes with the same words.
 */
public final class BuilderChecks {
  private BuilderChecks() {}

  /**
   * Refuses an option given a second time.
   *
   * @param current the option's value so far, {@code null} when unset
   * @throws IllegalStateException when {@code current} is not {@code null}
   */
  public static void once(Object current, String option) {
    if (current != null) {
      throw new IllegalStateException(option + " was already set");
    }
  }

  /**
   * Refuses an option given a second time, for builders that record the names of the options set.
   *
   * @throws IllegalStateException when {@code set} already holds {@code option}
   */
  public static void once(Set<String> set, String option) {
    if (!set.add(option)) {
      throw new IllegalStateException(option + " was already set");
    }
  }

  /**
   * The duration, if it is above zero.
   *
   * @throws NullPointerException naming {@code name} when {@code d} is null
   * @throws IllegalArgumentException naming {@code name} when {@code d} is zero or negative
   */
  public static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
    return d;
  }
}
