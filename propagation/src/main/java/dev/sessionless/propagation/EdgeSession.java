package dev.sessionless.propagation;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A verified browser session as the edge sees it, the source of internal tokens: its id, its
 * subject, its expiry, when the user authenticated, and its state values by name. Make one from
 * a decoded {@link SessionToken} ({@link #of(SessionToken)}), from the servlet filter's {@code
 * HttpSession} ({@link EdgeContextFilter#session}), or with {@link #builder()} when the session
 * lives elsewhere.
 *
 * <p><b>Security.</b> Build one only from a session this service verified: the minter signs
 * whatever it says. {@link #toString()} shows the state names, never the id, the login time or
 * the values.
 *
 * <p>Immutable and thread-safe (state values are held by reference: don't mutate them).
 */
public final class EdgeSession {
  private final String sessionId;
  private final String subject;
  private final Instant expiresAt;
  private final Instant authTime;
  private final Set<String> names;
  private final Function<String, Object> values;

  private EdgeSession(String sessionId, String subject, Instant expiresAt, Instant authTime, Set<String> names,
      Function<String, Object> values) {
    this.sessionId = sessionId;
    this.subject = subject;
    this.expiresAt = expiresAt;
    this.authTime = authTime == null ? null : Instant.ofEpochSecond(authTime.getEpochSecond());
    this.names = Collections.unmodifiableSet(new LinkedHashSet<>(names));
    this.values = values;
  }

  /** A session whose values are read only for the names a token carries. */
  static EdgeSession lazy(String sessionId, String subject, Instant expiresAt, Instant authTime, Set<String> names,
      Function<String, Object> values) {
    return new EdgeSession(sessionId, subject, expiresAt, authTime, names, values);
  }

  /**
   * The session of a verified token: its {@code jti} as the session id, its subject, its
   * {@code exp}, its {@code auth_time}, and its state values, carried over as the JSON they
   * arrived in.
   *
   * @throws dev.sessionless.core.TokenException {@code MALFORMED} if the token's {@code
   *     auth_time} is not a whole number of seconds
   */
  public static EdgeSession of(SessionToken token) {
    Objects.requireNonNull(token, "token");
    Map<String, Object> state = token.toClaims().build().state();
    return new EdgeSession(token.id(), token.subject().orElse(null), token.expiresAt(),
        token.authTime().orElse(null), state.keySet(), state::get);
  }

  /** A builder, for sessions that are not a {@link SessionToken}; the session id is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The session id, carried as {@code sid}. */
  public String sessionId() {
    return sessionId;
  }

  /** The subject (user), carried as {@code sub}, if the session has one. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }

  /** When the session ends; no internal token minted from it lives longer. Empty if unknown. */
  public Optional<Instant> expiresAt() {
    return Optional.ofNullable(expiresAt);
  }

  /**
   * When the user authenticated ({@code auth_time}, whole seconds), carried into every internal
   * token minted from this session so that a receiving service can honour "log out everywhere"
   * (a subject's not-before instant). Empty if unknown: such tokens are refused by a receiver
   * whose revocation source holds a not-before for the subject.
   */
  public Optional<Instant> authTime() {
    return Optional.ofNullable(authTime);
  }

  /** The names of the state values, in order. */
  public Set<String> stateNames() {
    return names;
  }

  /** A state value by name, or null. */
  Object value(String name) {
    return names.contains(name) ? values.apply(name) : null;
  }

  /** State names and whether there is a subject; never the id or the values. */
  @Override
  public String toString() {
    return "EdgeSession[subject=" + (subject == null ? "-" : "present") + ", state=" + names
        + ", exp=" + (expiresAt == null ? "-" : expiresAt)
        + ", auth_time=" + (authTime == null ? "-" : "present") + "]";
  }

  /**
   * Builds an {@link EdgeSession}. Its id, subject, login time and state follow the rules of a
   * token's ({@link Claims.Builder}, which holds them here), since the minter writes them into
   * one. Not thread-safe.
   */
  public static final class Builder {
    private final Claims.Builder claims = Claims.builder();
    private Instant expiresAt;
    private Instant authTime;

    private Builder() {}

    /** The session id, 1 to 128 characters. Required. */
    public Builder sessionId(String id) {
      claims.sessionId(id);
      return this;
    }

    /** The subject (user id). */
    public Builder subject(String subject) {
      claims.subject(subject);
      return this;
    }

    /** When the session ends. Without it, internal tokens live their minter's lifetime. */
    public Builder expiresAt(Instant expiresAt) {
      this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
      return this;
    }

    /**
     * When the user authenticated (the session's {@code auth_time}); the fraction of a second
     * is dropped. Without it, a receiver that knows a "log out everywhere" for the subject
     * refuses the session's internal tokens.
     *
     * @throws IllegalArgumentException if it lies before 1970 or after 9999
     */
    public Builder authTime(Instant authTime) {
      claims.authTime(authTime);
      this.authTime = authTime;
      return this;
    }

    /**
     * A state value, written as JSON by the minter's codec when a token carries it.
     *
     * @throws IllegalArgumentException if the name is not 1 to 256 characters
     */
    public Builder put(String name, Object value) {
      claims.put(name, value);
      return this;
    }

    /**
     * The session.
     *
     * @throws IllegalStateException if no session id was given
     */
    public EdgeSession build() {
      Claims c = claims.build();
      String id = c.sessionId().orElseThrow(() -> new IllegalStateException(
          "sessionId is required: internal tokens carry it as sid"));
      Map<String, Object> state = c.state();
      return new EdgeSession(id, c.subject().orElse(null), expiresAt, authTime, state.keySet(), state::get);
    }
  }
}
