package dev.sessionless.session.internal;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import java.time.Instant;
import java.util.Optional;

/**
 * What a login (or an id change) in this request set, for the next token: the subject, and when
 * the session authenticated. Part of {@link ExchangeSession}, under its lock.
 */
final class Login {
  /** The subject of a login in this request, or {@code null}. */
  String subject;
  /** When the session authenticated in this request, millis; negative if it did not. */
  long authTimeMillis = -1;

  /** The session ended: nothing of a login in this request carries over. */
  void clear() {
    subject = null;
    authTimeMillis = -1;
  }

  /**
   * The {@code auth_time} the next token will say: now if this request logged in, else {@code
   * carried}'s (the incoming token, or {@code null} if none or its session ended), else none.
   */
  Optional<Instant> authTime(SessionToken carried) {
    if (authTimeMillis >= 0) {
      return Optional.of(Instant.ofEpochSecond(Math.floorDiv(authTimeMillis, 1000L)));
    }
    if (carried != null) {
      try {
        return carried.authTime();
      } catch (TokenException e) {
        return Optional.empty(); // not a plain NumericDate: the token's claim counts as absent
      }
    }
    return Optional.empty();
  }
}
