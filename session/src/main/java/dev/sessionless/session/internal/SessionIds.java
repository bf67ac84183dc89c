package dev.sessionless.session.internal;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * New session ids: 128 random bits, base64url, from the JDK's DRBG (SP 800-90A Hash_DRBG with
 * SHA-256, no prediction resistance), seeded once from the platform's entropy when this class
 * loads ({@link #seed()}, when settings are built) and then reading no file, so an id made on an
 * event loop does no I/O. The platform default (NativePRNG on Linux) refills its buffer from
 * {@code /dev/urandom} whenever that buffer is over 100 ms old. Falls back to that default only
 * where the JDK's providers offer no DRBG.
 */
final class SessionIds {
  private static final SecureRandom RANDOM = seeded();

  private SessionIds() {}

  private static SecureRandom seeded() {
    SecureRandom r;
    try {
      r = SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      r = new SecureRandom();
    }
    r.nextBytes(new byte[1]); // a DRBG seeds on first use: now, not on the first request
    return r;
  }

  /** Seeds the source if it is not yet (loading this class does it): its one entropy read. */
  static void seed() {
    // nothing more: the class initialiser seeded it
  }

  /** A new random session id: 128 bits, base64url. */
  static String next() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
