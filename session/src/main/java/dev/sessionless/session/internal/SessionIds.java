package dev.sessionless.session.internal;

import dev.sessionless.core.internal.SeededRandom;

/**
 * New session ids: 128 random bits, base64url, from core's {@link SeededRandom} (the JDK's DRBG,
 * seeded once from the platform's entropy and then reading no file), so an id made on an event
 * loop does no I/O. The platform default (NativePRNG on Linux) refills its buffer from {@code
 * /dev/urandom} whenever that buffer is over 100 ms old.
 */
final class SessionIds {
  private SessionIds() {}

  /** Seeds the source if it is not yet: its one entropy read, at build. */
  static void seed() {
    SeededRandom.seed();
  }

  /** A new random session id: 128 bits, base64url. */
  static String next() {
    return SeededRandom.newId();
  }
}
