package dev.sessionless.servlet.it;

import dev.sessionless.core.RevocationStore;
import java.time.Instant;
import java.util.Optional;

/**
 * A {@link RevocationStore} that hands every call to another: a test overrides the one call
 * that stands in for the network (a write that fails, or waits).
 */
class ForwardingRevocationStore implements RevocationStore {
  final RevocationStore to;

  ForwardingRevocationStore(RevocationStore to) {
    this.to = to;
  }

  @Override
  public void revokeSession(String sessionId, Instant until) {
    to.revokeSession(sessionId, until);
  }

  @Override
  public void revokeSubject(String subject, Instant notBefore, Instant until) {
    to.revokeSubject(subject, notBefore, until);
  }

  @Override
  public boolean isRevoked(String sessionId) {
    return to.isRevoked(sessionId);
  }

  @Override
  public Optional<Instant> notBefore(String subject) {
    return to.notBefore(subject);
  }
}
