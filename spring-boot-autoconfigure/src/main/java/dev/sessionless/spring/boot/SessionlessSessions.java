package dev.sessionless.spring.boot;

import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.servlet.SessionlessFilter;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Ends sessions from application code: {@link #logOutEverywhere(String)} after a password
 * change, or for an administrator ending a user's sessions. Inject it as a bean; it works
 * outside a request too (a scheduled job, a message listener).
 *
 * <p>It writes to the application's {@link RevocationStore} ({@code
 * sessionless.revocation.type=memory} or {@code redis}, or a {@code RevocationStore} bean): every
 * instance reading that store rejects the subject's older sessions within the store's lag. A
 * published list ({@code published}) is read-only here; the publisher revokes.
 *
 * <p>Thread-safe.
 */
public final class SessionlessSessions {
  private final Supplier<RevocationSource> source;
  private final Duration absoluteLifetime;
  private final Clock clock;

  SessionlessSessions(Supplier<RevocationSource> source, Duration absoluteLifetime, Clock clock) {
    this.source = Objects.requireNonNull(source, "source");
    this.absoluteLifetime = Objects.requireNonNull(absoluteLifetime, "absoluteLifetime");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Logs {@code subject} out everywhere: every session of theirs authenticated before now is
   * rejected (reason {@code SUBJECT_REVOKED}; the user is anonymous again) on every instance
   * reading the store; other subjects' sessions are untouched. A login in a later second is
   * valid again. The subject is the name Spring Security's login gave ({@code
   * Authentication.getName()}), which the session token carries as its {@code sub}. The entry is
   * kept for the sessions' absolute lifetime, after which none of them can be valid anyway.
   *
   * @throws IllegalArgumentException if the subject is empty
   * @throws IllegalStateException if no {@link RevocationStore} is configured (set {@code
   *     sessionless.revocation.type} to {@code memory} or {@code redis})
   * @throws RuntimeException the store's exception if it cannot write (Redis down): the subject
   *     is then logged out on this instance only
   */
  public void logOutEverywhere(String subject) {
    Objects.requireNonNull(subject, "subject");
    if (subject.isEmpty()) {
      throw new IllegalArgumentException("subject must not be empty");
    }
    RevocationSource s = source.get();
    if (!(s instanceof RevocationStore)) {
      throw new IllegalStateException("logOutEverywhere needs a revocation store: set sessionless.revocation.type"
          + " to redis (every instance) or memory (one instance)" + (s == null ? "" : "; " + s + " is read-only"));
    }
    // The filter's own rule (and margin past the sessions' life), so both paths keep it equally long.
    SessionlessFilter.logOutEverywhere((RevocationStore) s, subject, clock.instant(), absoluteLifetime);
  }

  @Override
  public String toString() {
    return "SessionlessSessions[" + source.get() + "]";
  }
}
