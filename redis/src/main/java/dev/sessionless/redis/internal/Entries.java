package dev.sessionless.redis.internal;

import dev.sessionless.core.RevocationStore;
import java.time.Instant;

/**
 * The text forms of entries, as stored in Redis and published: a member of the expiry and
 * change sets is {@code s<session id>} or {@code u<subject>}, scored by its until second, a
 * subject's not-before second is a hash field's value; a message is {@code "s until id"} or
 * {@code "u notBefore until subject"} (the free text last, so it may hold spaces). Anything
 * else is ignored: Redis is ours, but a malformed value must never break a node.
 */
public final class Entries {
  /** The longest subject accepted from Redis. */
  public static final int MAX_SUBJECT = 1024;

  private Entries() {}

  /** The message announcing a revoked session. */
  public static String sessionMessage(String id, long until) {
    return "s " + until + " " + id;
  }

  /** The message announcing a subject's not-before instant. */
  public static String subjectMessage(String subject, long notBefore, long until) {
    return "u " + notBefore + " " + until + " " + subject;
  }

  /** Applies a published message to the local copy; false if it was not one. */
  public static boolean applyMessage(String message, RevocationStore local) {
    try {
      if (message.startsWith("s ")) {
        int sp = message.indexOf(' ', 2);
        if (sp < 0) {
          return false;
        }
        return session(message.substring(sp + 1), message.substring(2, sp), local);
      }
      if (message.startsWith("u ")) {
        int a = message.indexOf(' ', 2);
        int b = a < 0 ? -1 : message.indexOf(' ', a + 1);
        if (b < 0) {
          return false;
        }
        return subject(message.substring(b + 1), message.substring(2, a) + " " + message.substring(a + 1, b), local);
      }
      return false;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Applies an entry as the read script returns it ({@code member}, its until score, and for a
   * subject its not-before second) to the local copy; false if malformed (or expired in between:
   * an empty until).
   */
  public static boolean stored(String member, String until, String notBefore, RevocationStore local) {
    if (member.startsWith("s")) {
      return session(member.substring(1), until, local);
    }
    if (member.startsWith("u")) {
      return subject(member.substring(1), notBefore + " " + until, local);
    }
    return false;
  }

  /** Applies a stored session value to the local copy; false if malformed. */
  public static boolean session(String id, String value, RevocationStore local) {
    long until = seconds(value);
    if (until < 0 || id.isEmpty() || id.length() > 128) {
      return false;
    }
    local.revokeSession(id, Instant.ofEpochSecond(until));
    return true;
  }

  /** Applies a stored subject value ({@code "notBefore until"}) to the local copy; false if malformed. */
  public static boolean subject(String subject, String value, RevocationStore local) {
    int sp = value.indexOf(' ');
    if (sp < 0 || subject.isEmpty() || subject.length() > MAX_SUBJECT) {
      return false;
    }
    long notBefore = seconds(value.substring(0, sp));
    long until = seconds(value.substring(sp + 1));
    if (notBefore < 0 || until < notBefore) {
      return false;
    }
    local.revokeSubject(subject, Instant.ofEpochSecond(notBefore), Instant.ofEpochSecond(until));
    return true;
  }

  /** A NumericDate of 1 to 12 digits, or -1. */
  public static long seconds(String s) {
    if (s.isEmpty() || s.length() > 12) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
