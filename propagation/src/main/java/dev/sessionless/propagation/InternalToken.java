package dev.sessionless.propagation;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

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
  /** The Transaction Token profile's claims; null in the internal profile. */
  private final Txn txn;

  /** The claims only a Transaction Token has: {@code txn}, {@code scope}, {@code rctx}, {@code tctx}. */
  record Txn(String id, List<String> scope, Map<String, Object> requestContext, Map<String, Object> context) {
    Txn {
      scope = List.copyOf(scope);
      requestContext = Collections.unmodifiableMap(new LinkedHashMap<>(requestContext));
      context = Collections.unmodifiableMap(new LinkedHashMap<>(context));
    }
  }

  private static final ObjectMapper VALUES = JsonMapper.builder().build();

  InternalToken(SessionToken token, String sessionId, List<String> actors, Instant parentExpiresAt,
      Set<String> parentStateNames, Optional<Instant> authTime) {
    this(token, sessionId, actors, parentExpiresAt, parentStateNames, authTime, null);
  }

  InternalToken(SessionToken token, String sessionId, List<String> actors, Instant parentExpiresAt,
      Set<String> parentStateNames, Optional<Instant> authTime, Txn txn) {
    this.txn = txn;
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

  /** The profile this token was verified as. */
  public TokenProfile profile() {
    return txn == null ? TokenProfile.INTERNAL : TokenProfile.TXN_TOKEN;
  }

  /** The Transaction Token's transaction id ({@code txn}), the same in every re-mint; empty in the internal profile. */
  public Optional<String> transactionId() {
    return txn == null ? Optional.empty() : Optional.of(txn.id());
  }

  /** The Transaction Token's {@code scope} values, in token order; empty in the internal profile. */
  public Set<String> scope() {
    return txn == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(txn.scope()));
  }

  /** The Transaction Token's request context ({@code rctx}), e.g. {@code trace_id}; empty in the internal profile. */
  public Map<String, Object> requestContext() {
    return txn == null ? Map.of() : txn.requestContext();
  }

  /** The state values this token carries, by name: {@code st}, or a Transaction Token's {@code tctx}. */
  Map<String, Object> stateValues() {
    return txn == null ? token.toClaims().build().state() : txn.context();
  }

  /**
   * The audience ({@code aud}): this service, or in the Transaction Token profile the trust
   * domain.
   */
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

  /** The names of the state values this token carries ({@code st}, or a Transaction Token's {@code tctx}). */
  public Set<String> stateNames() {
    return txn == null ? token.stateNames() : txn.context().keySet();
  }

  /**
   * A state value read as {@code type}.
   *
   * @throws dev.sessionless.core.TokenException {@code STATE_MAPPING} if it cannot be read as {@code type}
   */
  public <T> Optional<T> get(String name, Class<T> type) {
    if (txn == null) {
      return token.get(name, type);
    }
    Object v = txn.context().get(name);
    if (v == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(type.isInstance(v) ? type.cast(v) : VALUES.convertValue(v, type));
    } catch (RuntimeException e) {
      throw new TokenException(TokenException.Reason.STATE_MAPPING,
          "tctx value '" + name + "' cannot be read as " + type.getName() + ": check the type", e);
    }
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
    return "InternalToken[" + (txn == null ? "" : "txn-token, ") + "iss=" + issuer() + ", actors=" + actors + ", state=" + stateNames()
        + ", exp=" + expiresAt() + "]";
  }
}
