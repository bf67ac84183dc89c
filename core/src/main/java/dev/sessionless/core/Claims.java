package dev.sessionless.core;

import dev.sessionless.core.internal.ClaimRules;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The content of a token to be made: session id, subject, and the application's state as named
 * values. The codec adds {@code iss}, {@code aud}, {@code iat} and {@code exp} when it encodes.
 *
 * <p>State values are any objects the codec's Jackson {@code ObjectMapper} can write as JSON
 * (records, maps, lists, strings, numbers); they are written when the token is encoded. Keep
 * state small: it travels with every request.
 *
 * <p>Immutable (the state values themselves are held by reference: don't mutate them after
 * {@code put}); thread-safe. Start from {@link #builder()}, or from {@link
 * SessionToken#toClaims()} to carry a verified session forward.
 */
public final class Claims {
  private final String sessionId;
  private final String subject;
  private final Instant notBefore;
  private final Duration timeToLive;
  private final Map<String, Object> state;
  private final Map<String, Object> claims;

  private Claims(Builder b) {
    // The builder's own maps, not copies: build() marks them shared, and the builder copies
    // them before it changes anything again (so a built Claims never changes).
    this.claims = b.claims.isEmpty() ? Map.of() : Collections.unmodifiableMap(b.claims);
    this.sessionId = b.sessionId;
    this.subject = b.subject;
    this.notBefore = b.notBefore;
    this.timeToLive = b.timeToLive;
    this.state = b.state.isEmpty() ? Map.of() : Collections.unmodifiableMap(b.state);
  }

  /** The latest NumericDate a decoder accepts: 9999-12-31T23:59:59Z. */
  static final long MAX_EPOCH_SECOND = ClaimRules.MAX_NUMERIC_DATE;

  /** The one rule for a token lifetime, for the codec's and for one token's. */
  static Duration checkTimeToLive(Duration ttl, String option) {
    Objects.requireNonNull(ttl, option);
    if (ttl.isNegative() || ttl.getSeconds() < 1) {
      throw new IllegalArgumentException(option + " must be at least one second, got " + ttl);
    }
    if (ttl.getNano() != 0) {
      throw new IllegalArgumentException(option + " must be a whole number of seconds (tokens carry seconds), got "
          + ttl + ": round it to seconds");
    }
    if (ttl.compareTo(TokenCodec.MAX_TIME_TO_LIVE) > 0) {
      throw new IllegalArgumentException(option + " must be at most " + TokenCodec.MAX_TIME_TO_LIVE.toDays()
          + " days (no browser keeps a cookie longer), got " + ttl);
    }
    return ttl;
  }

  /** An empty builder: a new session id is chosen at encode time. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this content. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.sessionId = sessionId;
    b.subject = subject;
    b.notBefore = notBefore;
    b.timeToLive = timeToLive;
    b.state.putAll(state);
    if (!claims.isEmpty()) {
      b.ownClaims().putAll(claims);
    }
    return b;
  }

  /** The session id ({@code jti}) to keep; empty means a new random one at encode time. */
  public Optional<String> sessionId() {
    return Optional.ofNullable(sessionId);
  }

  /** The subject ({@code sub}), if any. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }

  /** The not-before instant ({@code nbf}), if any. */
  public Optional<Instant> notBefore() {
    return Optional.ofNullable(notBefore);
  }

  /** {@link #sessionId()}, {@link #subject()}, {@link #notBefore()} and {@link #timeToLive()} without an {@code Optional}: the encoder's hot path. */
  String sessionIdOrNull() {
    return sessionId;
  }

  String subjectOrNull() {
    return subject;
  }

  Instant notBeforeOrNull() {
    return notBefore;
  }

  Duration timeToLiveOrNull() {
    return timeToLive;
  }

  /** A lifetime for this token instead of the codec's, if set. */
  public Optional<Duration> timeToLive() {
    return Optional.ofNullable(timeToLive);
  }

  /** The state values by name, in insertion order; unmodifiable. */
  public Map<String, Object> state() {
    return state;
  }

  /** The other claims (besides the registered ones and the state) by name, in insertion order; unmodifiable. */
  public Map<String, Object> claims() {
    return claims;
  }

  /** Names and counts only; never values. */
  @Override
  public String toString() {
    return "Claims[subject=" + (subject == null ? "-" : "present") + ", state=" + state.keySet()
        + (claims.isEmpty() ? "" : ", claims=" + claims.keySet()) + "]";
  }

  /** Builds {@link Claims}. Not thread-safe. */
  public static final class Builder {
    private String sessionId;
    private String subject;
    private Instant notBefore;
    private Duration timeToLive;
    private Map<String, Object> state = new LinkedHashMap<>();
    /** {@link #NONE} until a claim is set: most tokens (every session's) carry none. */
    private Map<String, Object> claims = NONE;
    /** The maps went into a built Claims: copy them before the next change. */
    private boolean shared;

    private static final Map<String, Object> NONE = Map.of();

    /** Makes the maps this builder's own again after a {@link #build()}. */
    private void own() {
      if (shared) {
        state = new LinkedHashMap<>(state);
        claims = claims.isEmpty() ? NONE : new LinkedHashMap<>(claims);
        shared = false;
      }
    }

    /** The claims map, this builder's own and changeable. */
    private Map<String, Object> ownClaims() {
      own();
      if (claims == NONE) {
        claims = new LinkedHashMap<>();
      }
      return claims;
    }

    private Builder() {}

    /**
     * Keeps this session id ({@code jti}) instead of choosing a new one.
     *
     * @throws IllegalArgumentException if it is empty or longer than 128 characters
     */
    public Builder sessionId(String id) {
      Objects.requireNonNull(id, "id");
      if (id.isEmpty() || id.length() > 128) {
        throw new IllegalArgumentException("a session id must be 1 to 128 characters");
      }
      this.sessionId = id;
      return this;
    }

    /** Chooses a new random session id at encode time (after a login, say). */
    public Builder newSessionId() {
      this.sessionId = null;
      return this;
    }

    /** Sets the subject ({@code sub}), e.g. the user id. */
    public Builder subject(String subject) {
      this.subject = Objects.requireNonNull(subject, "subject");
      return this;
    }

    /** Removes the subject. */
    public Builder clearSubject() {
      this.subject = null;
      return this;
    }

    /**
     * Sets a not-before instant ({@code nbf}). Tokens carry whole seconds, so the instant must
     * be a whole second (use {@code truncatedTo(ChronoUnit.SECONDS)}); it must also come before
     * the token's {@code exp}, which {@link TokenCodec#encode(Claims)} checks.
     *
     * @throws IllegalArgumentException if it has a fraction of a second, or lies before 1970 or
     *     after 9999
     */
    public Builder notBefore(Instant notBefore) {
      Objects.requireNonNull(notBefore, "notBefore");
      if (notBefore.getNano() != 0) {
        throw new IllegalArgumentException("notBefore must be a whole second (tokens carry seconds), got "
            + notBefore + ": truncate it to seconds");
      }
      if (notBefore.getEpochSecond() < 0 || notBefore.getEpochSecond() > MAX_EPOCH_SECOND) {
        throw new IllegalArgumentException("notBefore must lie between 1970 and 9999, got " + notBefore);
      }
      this.notBefore = notBefore;
      return this;
    }

    /**
     * Gives this token its own lifetime instead of the codec's: whole seconds, from one second
     * to {@link TokenCodec#MAX_TIME_TO_LIVE}.
     *
     * @throws IllegalArgumentException if shorter than a second, not a whole number of seconds,
     *     or longer than the maximum
     */
    public Builder timeToLive(Duration ttl) {
      this.timeToLive = checkTimeToLive(ttl, "timeToLive");
      return this;
    }

    /**
     * Sets a state value; replaces one of the same name.
     *
     * @param name 1 to 256 characters
     * @param value any value the codec's ObjectMapper can write; not {@code null} (use {@link #remove})
     */
    public Builder put(String name, Object value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, () -> "value of state '" + name + "' (use remove() to drop it)");
      if (name.isEmpty() || name.length() > ClaimRules.MAX_NAME) {
        throw new IllegalArgumentException("a state name must be 1 to " + ClaimRules.MAX_NAME + " characters");
      }
      own();
      state.put(name, value);
      return this;
    }

    /**
     * Sets another claim of the token beside the state, e.g. {@code sid} or RFC 8693's {@code
     * act}; replaces one of the same name. For claims other services read; application data
     * belongs in the state ({@link #put}).
     *
     * @param name 1 to 256 characters; never a registered claim the codec writes itself ({@code
     *     iss sub aud exp nbf iat jti}) nor the state claim {@code st}
     * @param value any value the codec's ObjectMapper can write; not {@code null} (use {@link #removeClaim})
     * @throws IllegalArgumentException if the name is reserved or of the wrong length
     */
    public Builder claim(String name, Object value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, () -> "value of claim '" + name + "' (use removeClaim() to drop it)");
      if (name.isEmpty() || name.length() > ClaimRules.MAX_NAME) {
        throw new IllegalArgumentException("a claim name must be 1 to " + ClaimRules.MAX_NAME + " characters");
      }
      if (ClaimRules.isReserved(name)) {
        throw new IllegalArgumentException("'" + name + "' is a claim the codec writes itself (iss, sub, aud, exp, "
            + "nbf, iat, jti) or the state claim (st): use subject(), notBefore(), put() and the codec's "
            + "options instead, or choose another name");
      }
      ownClaims().put(name, value);
      return this;
    }

    /**
     * Records when the session was authenticated ({@code auth_time}): call it at login (the
     * servlet filter does on {@code changeSessionId()} and on {@code SessionlessFilter.loggedIn}).
     * A token made from {@link SessionToken#toClaims()} keeps it, so renewal never moves it; a
     * {@link RevocationSource} compares it with a subject's "log out everywhere" instant.
     *
     * @param authTime whole seconds count; the fraction is dropped
     * @throws IllegalArgumentException if it lies before 1970 or after 9999
     */
    public Builder authTime(Instant authTime) {
      Objects.requireNonNull(authTime, "authTime");
      long s = authTime.getEpochSecond();
      if (s < 0 || s > MAX_EPOCH_SECOND) {
        throw new IllegalArgumentException("authTime must lie between 1970 and 9999, got " + authTime);
      }
      ownClaims().put(SessionToken.AUTH_TIME, s);
      return this;
    }

    /** Removes another claim, if present. */
    public Builder removeClaim(String name) {
      own();
      if (claims != NONE) {
        claims.remove(name);
      }
      return this;
    }

    /** Removes a state value, if present. */
    public Builder remove(String name) {
      own();
      state.remove(name);
      return this;
    }

    /** Removes all state values. */
    public Builder clearState() {
      own();
      state.clear();
      return this;
    }

    /** The content. */
    public Claims build() {
      Claims c = new Claims(this);
      shared = true;
      return c;
    }
  }
}
