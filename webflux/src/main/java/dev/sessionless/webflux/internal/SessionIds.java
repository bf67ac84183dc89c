package dev.sessionless.webflux.internal;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * New session ids: 128 random bits, base64url. From a DRBG seeded once when the manager is built,
 * not from the platform default ({@code NativePRNG} on Linux), which reads {@code /dev/urandom} on
 * every call: a file read on the event loop for every new session, which BlockHound reports
 * ({@code NonBlockingTest}).
 */
final class SessionIds {
  private static final SecureRandom RANDOM;

  static {
    try {
      RANDOM = SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no DRBG SecureRandom (every JDK since 9 has)", e);
    }
    RANDOM.nextBytes(new byte[16]); // seeds it now, on the thread that builds the manager
  }

  private SessionIds() {}

  /** Seeds the generator (at build, off the event loop) if that has not happened yet. */
  static void warm() {
    // The static initialiser did the work.
  }

  /** A new id. */
  static String next() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
