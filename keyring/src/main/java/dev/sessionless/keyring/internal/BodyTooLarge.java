package dev.sessionless.keyring.internal;

import java.io.IOException;

/** Thrown into the exchange when the body outgrows the cap. */
final class BodyTooLarge extends IOException {
  private static final long serialVersionUID = 1L;

  BodyTooLarge() {
    super("response body over the limit");
  }
}
