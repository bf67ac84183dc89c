package dev.sessionless.core.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 helpers for content fingerprints (every JVM has SHA-256). */
public final class Sha256 {
  private Sha256() {}

  /** A new SHA-256 digest. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  /** Feeds {@code b} prefixed with its length, so adjacent fields cannot run into each other. */
  public static void updateField(MessageDigest md, byte[] b) {
    updateLong(md, b.length);
    md.update(b);
  }

  /** Feeds {@code v} as 8 big-endian bytes. */
  public static void updateLong(MessageDigest md, long v) {
    for (int i = 56; i >= 0; i -= 8) {
      md.update((byte) (v >>> i));
    }
  }
}
