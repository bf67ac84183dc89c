package dev.sessionless.devicebinding;

import java.time.Instant;
import java.util.Objects;

/**
 * A challenge that {@link Challenges} issued and has verified: what it was for, for which
 * session, and when it was issued and expires. The challenge text itself is not kept.
 */
public final class Challenge {
  /** What a challenge may be answered for; one purpose's challenge is refused for the other. */
  public enum Purpose {
    /** Answered by the registration proof (the {@code challenge} of {@code Secure-Session-Registration}). */
    REGISTRATION("reg"),
    /** Answered by a refresh proof (the {@code Secure-Session-Challenge} of a refresh). */
    REFRESH("ref");

    private final String code;

    Purpose(String code) {
      this.code = code;
    }

    /** The short code written into the challenge. */
    String code() {
      return code;
    }

    static Purpose ofCode(String code) {
      for (Purpose p : values()) {
        if (p.code.equals(code)) {
          return p;
        }
      }
      return null;
    }
  }

  private final Purpose purpose;
  private final String subject;
  private final Instant issuedAt;
  private final Instant expiresAt;

  Challenge(Purpose purpose, String subject, Instant issuedAt, Instant expiresAt) {
    this.purpose = Objects.requireNonNull(purpose, "purpose");
    this.subject = Objects.requireNonNull(subject, "subject");
    this.issuedAt = Objects.requireNonNull(issuedAt, "issuedAt");
    this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** What the challenge was issued for. */
  public Purpose purpose() {
    return purpose;
  }

  /**
   * The session identifier (for {@link Purpose#REFRESH}) or the registration context the
   * application chose (for {@link Purpose#REGISTRATION}) the challenge was issued for.
   */
  public String subject() {
    return subject;
  }

  /**
   * When it was issued, to the millisecond. After a successful refresh, store this as the
   * session's last refresh time: every challenge issued up to it is then refused ({@code
   * REPLAYED}), every later one still accepted.
   */
  public Instant issuedAt() {
    return issuedAt;
  }

  /** When it stops being accepted (the codec's clock skew aside). */
  public Instant expiresAt() {
    return expiresAt;
  }

  /** Purpose and times; the subject is left out (it may be a session identifier). */
  @Override
  public String toString() {
    return "Challenge[" + purpose + ", issued " + issuedAt + ", expires " + expiresAt + "]";
  }
}
