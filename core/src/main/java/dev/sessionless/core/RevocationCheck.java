package dev.sessionless.core;

import dev.sessionless.core.TokenException.Reason;
import java.time.Instant;
import java.util.Optional;

/** The codec's revocation check of a verified token; see {@link RevocationSource}. */
final class RevocationCheck {
  private RevocationCheck() {}

  static void check(RevocationSource source, SessionToken token) {
    if (source.isRevoked(token.id())) {
      throw new TokenException(Reason.SESSION_REVOKED,
          "the session was revoked (logged out): start a new session");
    }
    String sid = token.sessionIdClaimOrNull();
    if (sid != null && source.isRevoked(sid)) {
      throw new TokenException(Reason.SESSION_REVOKED,
          "the session this token was made for (sid) was revoked: start a new session");
    }
    String subject = token.subjectOrNull();
    if (subject != null) {
      Optional<Instant> notBefore = source.notBefore(subject);
      if (notBefore.isPresent()) {
        long authTime = token.authTimeSecond();
        if (authTime < notBefore.get().getEpochSecond()) {
          throw new TokenException(Reason.SUBJECT_REVOKED, authTime == Long.MIN_VALUE
              ? "the subject was logged out everywhere and this token carries no auth_time: log in again"
              : "the subject was logged out everywhere after this session was authenticated: log in again");
        }
      }
    }
  }
}
