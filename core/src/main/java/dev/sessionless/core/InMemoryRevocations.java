package dev.sessionless.core;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link RevocationStore#inMemory}: two concurrent maps, session id to the epoch second until
 * which it stays revoked, subject to its not-before and until seconds. A look-up is one hash
 * look-up; only a hit reads the clock (an expired entry counts as absent and is removed). Writes
 * sweep expired entries once as many writes as there are entries (at least 1024) have passed
 * since the last sweep, so a sweep costs amortised O(1) per write and the maps stay bounded by
 * what is live (at most about twice).
 */
final class InMemoryRevocations implements RevocationStore {
  private static final int SWEEP_EVERY = 1024;

  private final Clock clock;
  private final ConcurrentHashMap<String, Long> sessions = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, SubjectEntry> subjects = new ConcurrentHashMap<>();
  private final AtomicInteger writes = new AtomicInteger();

  /** A subject's not-before second, kept until the until second. */
  static final class SubjectEntry {
    final long notBefore;
    final long until;

    SubjectEntry(long notBefore, long until) {
      this.notBefore = notBefore;
      this.until = until;
    }
  }

  InMemoryRevocations(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private long nowSecond() {
    return Math.floorDiv(clock.millis(), 1000);
  }

  @Override
  public boolean isRevoked(String sessionId) {
    Long until = sessions.get(sessionId);
    if (until == null) {
      return false;
    }
    if (until < nowSecond()) {
      sessions.remove(sessionId, until);
      return false;
    }
    return true;
  }

  @Override
  public Optional<Instant> notBefore(String subject) {
    SubjectEntry e = subjects.get(subject);
    if (e == null) {
      return Optional.empty();
    }
    if (e.until < nowSecond()) {
      subjects.remove(subject, e);
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochSecond(e.notBefore));
  }

  @Override
  public void revokeSession(String sessionId, Instant until) {
    checkSessionId(sessionId);
    Objects.requireNonNull(until, "until");
    sessions.merge(sessionId, until.getEpochSecond(), Math::max);
    wrote();
  }

  @Override
  public void revokeSubject(String subject, Instant notBefore, Instant until) {
    checkSubjectEntry(subject, notBefore, until);
    SubjectEntry e = new SubjectEntry(notBefore.getEpochSecond(), until.getEpochSecond());
    subjects.merge(subject, e, (a, b) ->
        new SubjectEntry(Math.max(a.notBefore, b.notBefore), Math.max(a.until, b.until)));
    wrote();
  }

  /** Checks a session id as every store should. */
  static void checkSessionId(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    if (sessionId.isEmpty() || sessionId.length() > 128) {
      throw new IllegalArgumentException("a session id must be 1 to 128 characters");
    }
  }

  /** Checks a subject entry as every store should. */
  static void checkSubjectEntry(String subject, Instant notBefore, Instant until) {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(notBefore, "notBefore");
    Objects.requireNonNull(until, "until");
    if (subject.isEmpty()) {
      throw new IllegalArgumentException("subject must not be empty");
    }
    if (until.isBefore(notBefore)) {
      throw new IllegalArgumentException("until " + until + " is before notBefore " + notBefore
          + ": keep the entry at least as long as a session authenticated before it can live");
    }
  }

  private void wrote() {
    int w = writes.incrementAndGet();
    if (w >= SWEEP_EVERY && w >= size() && writes.compareAndSet(w, 0)) {
      purgeExpired();
    }
  }

  /** Drops every expired entry now. */
  void purgeExpired() {
    long now = nowSecond();
    sessions.values().removeIf(until -> until < now);
    subjects.values().removeIf(e -> e.until < now);
  }

  /** How many entries are held (live or not yet swept). */
  int size() {
    return sessions.size() + subjects.size();
  }

  @Override
  public String toString() {
    return "RevocationStore.inMemory[" + size() + " entries]";
  }
}
