package dev.sessionless.core;

import java.time.Instant;
import java.util.Optional;

/**
 * Answers, from a local in-memory copy, whether a session was revoked and since when a
 * subject's earlier logins no longer count: the read side of "logout that holds" and "log out
 * everywhere". Given to {@link TokenCodec.Builder#revocation(RevocationSource)}, it is asked on
 * every decode, after the signature and claims were checked (and also on a verification-cache
 * hit), and a token it revokes is rejected with {@link TokenException.Reason#SESSION_REVOKED}
 * or {@link TokenException.Reason#SUBJECT_REVOKED}.
 *
 * <p><b>What is checked.</b> A token is revoked if its session id ({@code jti}) is revoked, or
 * if it carries a string {@code sid} claim (the session an internal or derived token was made
 * for, as OpenID Connect uses it) and that id is revoked. A token with a subject ({@code sub})
 * whose subject has a {@linkplain #notBefore(String) not-before instant} is revoked if it was
 * authenticated ({@code auth_time}, see {@link SessionToken#authTime()}) before that instant,
 * or carries no {@code auth_time} at all (it cannot show it is newer). Instants are whole
 * seconds: a login in the very second of a "log out everywhere" survives it.
 *
 * <p><b>Implementations</b> answer from memory and must never block or do I/O: they are on
 * every request's path. A source that cannot vouch for its copy any more (a published list too
 * stale, configured to fail closed) throws {@link TokenException} with {@link
 * TokenException.Reason#REVOCATION_UNAVAILABLE}, which is no rejection: a server error, never a
 * silent logout. Any other exception is reported by the codec as {@code INTERNAL}. Entries
 * expire by themselves (a revoked session once its last token has expired), so the copy stays
 * bounded. {@link RevocationStore#inMemory} is one for a single node and tests; the servlet
 * filter writes to a {@link RevocationStore} on {@code invalidate()}; modules such as {@code
 * sessionless-redis} share one between nodes.
 *
 * <p><b>Other token readers</b> (a service receiving propagated tokens, say) get the same check
 * by building their codec with the same source: there is no other hook to call.
 *
 * <p>Implementations must be thread-safe.
 */
public interface RevocationSource {
  /**
   * Whether this session id is revoked now.
   *
   * @param sessionId a token's {@code jti} or {@code sid}
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the source cannot answer and is
   *     configured to fail closed
   */
  boolean isRevoked(String sessionId);

  /**
   * The instant before which the subject's logins no longer count ("log out everywhere"), if
   * one is in force.
   *
   * @throws TokenException {@code REVOCATION_UNAVAILABLE} if the source cannot answer and is
   *     configured to fail closed
   */
  Optional<Instant> notBefore(String subject);
}
