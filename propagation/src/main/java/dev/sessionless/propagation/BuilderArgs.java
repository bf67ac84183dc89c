package dev.sessionless.propagation;

import java.util.Objects;

/** The argument checks this package's builders share, so that each rule and its message exist once. */
final class BuilderArgs {
  private BuilderArgs() {}

  /**
   * {@code value}, checked to be present and not empty.
   *
   * @throws NullPointerException if it is null
   * @throws IllegalArgumentException if it is empty
   */
  static String notEmpty(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return value;
  }

  /**
   * The name of the header an internal token travels in (the sender's and the receiver's).
   *
   * @throws NullPointerException if it is null
   * @throws IllegalArgumentException if it is blank
   */
  static String headerName(String name) {
    return dev.sessionless.propagation.internal.Args.headerName(name);
  }
}
