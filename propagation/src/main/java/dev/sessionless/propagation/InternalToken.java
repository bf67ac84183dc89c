package dev.sessionless.propagation;

import dev.sessionless.core.SessionToken;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A verified internal token, as a downstream service sees it: who it is for (subject, session
 * id), what it carries (the narrowed state), who issued it, and the chain of services that acted
 * on the user's behalf. Only {@link InternalTokenVerifier#verify(String)} makes one.
 *
 * <p>The actor chain follows RFC 8693 section 4.1 ({@code act}): {@link #actors()} lists the
 * current actor first (the issuer of this token), then each earlier one, back to the edge.
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows the issuer, actors and state names,
 * never the session id, the token or the values.
 */
public final class InternalToken {
  private final SessionToken token;
  private final String sessionId;
  private final List<String> actors;
  private final Instant parentExpiresAt;
  private final Set<String> parentStateNames;
  private final Optional<Instant> authTime;

  InternalToken(SessionToken token, String sessionId, List<String> actors, Instant parentExpiresAt,
      Set<String> parentStateNames, Optional<Instant> authTime) {
    this.token = token;
    this.authTime = authTime;
    this.sessionId = sessionId;
    this.actors = List.copyOf(actors);
    this.parentExpiresAt = parentExpiresAt;
    this.parentStateNames = Set.copyOf(parentStateNames);
  }

  /** The issuer ({@code iss}): the service that minted this token, one the verifier accepts. */
  public String issuer() {
    return token.issuer();
  }

  /** The audience ({@code aud}): this service. */
  public String audience() {
    return token.audience();
  }

  /** The user ({@code sub}), if the session has one. */
  public Optional<String> subject() {
    return token.subject();
  }

  /**
   * When the user authenticated at the edge ({@code auth_time}), if the token carries it; the
   * same in every token of one login.
   */
  public Optional<Instant> authTime() {
    return authTime;
  }

  /** The browser session's id ({@code sid}), the same in every token of one session. */
  public String sessionId() {
    return sessionId;
  }

  /** The service chain, current actor (this token's issuer) first, the edge last. */
  public List<String> actors() {
    return actors;
  }

  /** When this token expires. */
  public Instant expiresAt() {
    return token.expiresAt();
  }

  /** The expiry of the token (or session) this one was minted from; never before {@link #expiresAt()}. */
  public Instant parentExpiresAt() {
    return parentExpiresAt;
  }

  /** The state names the parent token (or session) carried; a superset of {@link #stateNames()}. */
  Set<String> parentStateNames() {
    return parentStateNames;
  }

  /** The names of the state values this token carries. */
  public Set<String> stateNames() {
    return token.stateNames();
  }

  /**
   * A state value read as {@code type}.
   *
   * @throws dev.sessionless.core.TokenException {@code STATE_MAPPING} if it cannot be read as {@code type}
   */
  public <T> Optional<T> get(String name, Class<T> type) {
    return token.get(name, type);
  }

  /**
   * Another claim (an issuer's private claim, say) read as {@code type}.
   *
   * @throws dev.sessionless.core.TokenException {@code STATE_MAPPING} if it cannot be read as {@code type}
   */
  public <T> Optional<T> claim(String name, Class<T> type) {
    return token.claim(name, type);
  }

  /** The verified token underneath, for everything else ({@code keyId()}, {@code claimJson}). */
  public SessionToken token() {
    return token;
  }

  /** Issuer, actors and state names; never the session id, the token or the values. */
  @Override
  public String toString() {
    return "InternalToken[iss=" + issuer() + ", actors=" + actors + ", state=" + stateNames()
        + ", exp=" + expiresAt() + "]";
  }
}
