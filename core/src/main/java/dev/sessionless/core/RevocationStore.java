package dev.sessionless.core;

import java.time.Clock;
import java.time.Instant;

/**
 * A {@link RevocationSource} that also takes revocations: what the servlet filter calls on
 * {@code invalidate()} ("logout that holds") and an application calls to log a subject out
 * everywhere. Every entry carries the instant until which it must be kept (the last instant a
 * token it revokes could still be accepted); after that it is forgotten, so the store stays
 * bounded.
 *
 * <p>Implementations must be thread-safe. A shared store (Redis, say) makes a revocation on one
 * node hold on every node within its documented lag.
 */
public interface RevocationStore extends RevocationSource {
  /**
   * Revokes a session id until {@code until}: any token whose {@code jti} or {@code sid} is this
   * id is rejected with {@link TokenException.Reason#SESSION_REVOKED}. Revoking again keeps the
   * later of the two instants.
   *
   * @param until when the entry may be forgotten: at least the session's last token's {@code
   *     exp} plus the readers' clock skew
   * @throws IllegalArgumentException if the id is empty or longer than 128 characters
   */
  void revokeSession(String sessionId, Instant until);

  /**
   * Logs a subject out everywhere: its tokens authenticated ({@code auth_time}) before {@code
   * notBefore} are rejected with {@link TokenException.Reason#SUBJECT_REVOKED} until {@code
   * until}. A later call keeps the later not-before instant and the later {@code until}.
   *
   * @param notBefore whole seconds count; usually now
   * @param until when the entry may be forgotten: at least {@code notBefore} plus the longest a
   *     session may live (its absolute lifetime) plus the readers' clock skew
   * @throws IllegalArgumentException if the subject is empty, or {@code until} is before {@code
   *     notBefore}
   */
  void revokeSubject(String subject, Instant notBefore, Instant until);

  /**
   * A store in this JVM's memory: for a single node, and for tests. Entries expire by {@code
   * clock}; a look-up that finds no entry reads no clock. About 140 bytes per revoked session with its id
   * (measured by {@code RevocationMemoryTest}).
   */
  static RevocationStore inMemory(Clock clock) {
    return new InMemoryRevocations(clock);
  }
}
