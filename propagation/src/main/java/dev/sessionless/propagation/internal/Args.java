package dev.sessionless.propagation.internal;

import java.util.Objects;

/** The argument checks the builders of several packages share, so each rule and message exists once. Not exported. */
public final class Args {
  private Args() {}

  /**
   * The name of the header an internal token travels in (the sender's and the receiver's).
   *
   * @throws NullPointerException if it is null
   * @throws IllegalArgumentException if it is blank
   */
  public static String headerName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("header name must not be blank");
    }
    return name;
  }
}
