package dev.sessionless.propagation;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Mints short-lived internal tokens for calls to other services: at the edge from a browser
 * session ({@link #mint}), and in an internal service from the token it was called with
 * ({@link #remint}), which can only narrow.
 *
 * <pre>{@code
 * InternalTokenMinter edge = InternalTokenMinter.builder()
 *     .keys(edgeKeys).algorithm(Algorithm.ES256).issuer("https://edge.example").build();
 * String token = edge.mint(EdgeSession.of(session), "orders", Set.of("cart"));
 * }</pre>
 *
 * <p>Every token carries {@code typ} {@value InternalTokens#TOKEN_TYPE}, {@code aud} = the
 * callee, {@code sub} and {@code sid} carried over, only the named state values the source has,
 * the source's {@code auth_time} (when the user authenticated) unchanged, the minter's identity
 * as the current actor in RFC 8693's {@code act} shape (earlier actors nested), and the bounds
 * it was minted within ({@value InternalTokens#PARENT_CLAIM}: the source's expiry, state names
 * and {@code auth_time}) so that the receiver can refuse a widened token with {@code WIDENED}.
 * Its lifetime is the minter's (60 s unless set), cut to the source's expiry.
 *
 * <p><b>Security.</b> Only {@code ES256} and {@code EdDSA}: the callee verifies with the
 * public key from the issuer's JWKS and never holds the power to mint. Thread-safe; one codec is
 * kept per audience.
 */
public final class InternalTokenMinter {
  /** The default lifetime of an internal token. */
  public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofSeconds(60);
  private static final int MAX_AUDIENCES = 1024;

  private final KeySource keys;
  private final Algorithm algorithm;
  private final String issuer;
  private final long ttlSeconds;
  private final Clock clock;
  private final Map<String, TokenCodec> codecs = new ConcurrentHashMap<>();
  private final TokenProfile profile;
  private final String trustDomain;
  private final List<String> scope;

  private InternalTokenMinter(Builder b) {
    this.keys = b.keys;
    this.algorithm = b.algorithm;
    this.issuer = b.issuer;
    this.ttlSeconds = b.timeToLive.getSeconds();
    this.clock = b.clock;
    this.profile = b.profile;
    this.trustDomain = b.trustDomain;
    this.scope = b.scope;
  }

  /** A builder; {@code keys} and {@code issuer} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The profile of the tokens this minter makes. */
  public TokenProfile profile() {
    return profile;
  }

  /** This minter's identity: the {@code iss} of its tokens and the actor it records. */
  public String issuer() {
    return issuer;
  }

  /**
   * A token for a call to {@code audience} on behalf of a browser session, carrying the named
   * state values the session has (names it lacks are skipped).
   *
   * @throws TokenException {@code EXPIRED} if the session has ended; {@code NO_SIGNING_KEY},
   *     {@code STATE_MAPPING}, {@code TOO_LARGE} as {@link TokenCodec#encode} does
   */
  public String mint(EdgeSession session, String audience, Collection<String> stateNames) {
    return mint(session, audience, stateNames, null);
  }

  /**
   * As {@link #mint(EdgeSession, String, Collection)}, for a call made while serving the
   * request of {@code trace}: in the {@linkplain TokenProfile#TXN_TOKEN Transaction Token
   * profile} its trace id goes into the request context ({@code rctx.trace_id}), and the token
   * starts a new transaction ({@code txn}, a random UUID); the internal profile ignores it (its
   * {@code traceparent} travels beside the token).
   *
   * @param trace the request's trace, or null
   * @throws NoSessionException in the Transaction Token profile, if the session has no subject:
   *     the draft requires {@code sub}
   * @throws IllegalStateException in the Transaction Token profile, if this minter has no
   *     {@linkplain Builder#scope scope}
   */
  public String mint(EdgeSession session, String audience, Collection<String> stateNames, TraceContext trace) {
    Objects.requireNonNull(session, "session");
    Map<String, Object> actor = new LinkedHashMap<>();
    actor.put("sub", issuer);
    long sessionExp = session.expiresAt().map(Instant::getEpochSecond).orElse(Long.MAX_VALUE);
    Transaction txn = null;
    if (profile == TokenProfile.TXN_TOKEN) {
      if (scope.isEmpty()) {
        throw new IllegalStateException("a Transaction Token minted at the edge needs its scope: set "
            + "InternalTokenMinter.Builder.scope(...) (e.g. trade.stocks)");
      }
      if (session.subject().isEmpty()) {
        throw new NoSessionException("the session has no subject, and a Transaction Token names the user it acts "
            + "for (sub): sign the user in first, or set EdgeContextFilter's subjectAttribute");
      }
      Map<String, Object> rctx = new LinkedHashMap<>();
      if (trace != null) {
        rctx.put(TransactionTokens.TRACE_ID, trace.traceId());
      }
      txn = new Transaction(UUID.randomUUID().toString(), rctx, scope, scope);
    }
    return encode(audience, session.sessionId(), session.subject().orElse(null), session.authTime().orElse(null),
        actor, sessionExp, session.stateNames(), session::value, stateNames, txn);
  }

  /**
   * A token for a call to {@code audience} made while serving {@code parent}: the same user
   * and session, the parent's {@code auth_time} (none if it has none), the named state values
   * the parent carries (never others), a lifetime no longer than the parent's, and this service
   * recorded as the current actor with the parent's actors nested inside.
   *
   * @throws TokenException {@code EXPIRED} if the parent has expired or ends within a second by
   *     this minter's clock, as a token the verifier accepted within its clock leeway does (no
   *     token is minted that only the next hop's leeway would keep alive); {@link
   *     InternalTokenFilter} answers the caller {@code 401} for it. As {@link #mint} otherwise
   */
  public String remint(InternalToken parent, String audience, Collection<String> stateNames) {
    Objects.requireNonNull(parent, "parent");
    return remint(parent, audience, stateNames, parent.scope());
  }

  /**
   * As {@link #remint(InternalToken, String, Collection)}, with the scope of the new token: in
   * the {@linkplain TokenProfile#TXN_TOKEN Transaction Token profile}, a subset of the parent's
   * (the same {@code txn}, {@code sub}, {@code aud} and {@code rctx}, as the draft's
   * replacement rules ask). The internal profile carries no scope: there it must be empty.
   *
   * @throws IllegalArgumentException if {@code scope} holds a value the parent's lacks (a
   *     re-mint only narrows), or the parent is of the other profile
   */
  public String remint(InternalToken parent, String audience, Collection<String> stateNames, Collection<String> scope) {
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(scope, "scope");
    if (parent.profile() != profile) {
      throw new IllegalArgumentException("the token this service was called with is of the " + parent.profile()
          + " profile and this minter mints " + profile + ": configure one profile for the whole deployment");
    }
    if (!parent.scope().containsAll(scope)) {
      throw new IllegalArgumentException("a re-mint may only narrow the scope: " + scope + " is not within the "
          + "parent's " + parent.scope());
    }
    Map<String, Object> actor = new LinkedHashMap<>();
    actor.put("sub", issuer);
    parent.claim(InternalTokens.ACTOR_CLAIM, Map.class).ifPresent(a -> actor.put("act", a));
    Map<String, Object> values = parent.stateValues();
    Transaction txn = null;
    if (profile == TokenProfile.TXN_TOKEN) {
      if (!trustDomain.equals(parent.audience())) {
        throw new IllegalArgumentException("the token this service was called with is for the trust domain '"
            + parent.audience() + "' and this minter mints for '" + trustDomain + "': a re-mint keeps aud");
      }
      txn = new Transaction(parent.transactionId().orElseThrow(), parent.requestContext(), List.copyOf(
          new LinkedHashSet<>(scope)), List.copyOf(parent.scope()));
    }
    return encode(audience, parent.sessionId(), parent.subject().orElse(null), parent.authTime().orElse(null),
        actor, parent.expiresAt().getEpochSecond(), parent.stateNames(), values::get, stateNames, txn);
  }

  /** The Transaction Token profile's claims of one token: {@code txn}, {@code rctx}, scope and its bound. */
  private record Transaction(String id, Map<String, Object> requestContext, List<String> scope,
      List<String> parentScope) {}

  private String encode(String audience, String sid, String subject, Instant authTime, Map<String, Object> actor,
      long parentExp, Set<String> parentNames, Function<String, Object> values, Collection<String> wanted,
      Transaction txn) {
    Objects.requireNonNull(wanted, "stateNames");
    TokenCodec codec = codec(audience);
    // The one reading of the clock: the lifetime is capped against it, and the codec stamps
    // iat/exp from it too, so a second ticking over in between cannot outlive the parent.
    Instant issuedAt = Instant.ofEpochSecond(Math.floorDiv(clock.millis(), 1000));
    long now = issuedAt.getEpochSecond();
    long ttl = Math.min(ttlSeconds, parentExp - now);
    if (ttl < 1) {
      throw new TokenException(TokenException.Reason.EXPIRED,
          "the session (or the token it was called with) has expired or ends within a second: "
              + "no internal token can be minted from it; the user has to sign in again");
    }
    Claims.Builder c = Claims.builder().timeToLive(Duration.ofSeconds(ttl));
    if (subject != null) {
      c.subject(subject);
    }
    if (authTime != null) {
      c.authTime(authTime);
    }
    if (sid != null && !sid.isEmpty()) {
      c.claim(InternalTokens.SESSION_ID_CLAIM, sid);
    }
    c.claim(InternalTokens.ACTOR_CLAIM, actor);
    Map<String, Object> bounds = new LinkedHashMap<>();
    bounds.put("exp", parentExp == Long.MAX_VALUE ? now + ttl : parentExp);
    bounds.put("st", List.copyOf(parentNames));
    if (authTime != null) {
      bounds.put(InternalTokens.AUTH_TIME_CLAIM, authTime.getEpochSecond());
    }
    Map<String, Object> granted = new LinkedHashMap<>();
    for (String name : wanted) {
      Object v = values.apply(name);
      if (v != null) {
        granted.put(name, v);
      }
    }
    if (txn == null) {
      c.claim(InternalTokens.PARENT_CLAIM, bounds);
      granted.forEach(c::put);
    } else {
      // The same rule, the draft's names: state values in tctx, the purpose in scope.
      bounds.put(TransactionTokens.PARENT_SCOPE, txn.parentScope());
      c.claim(InternalTokens.PARENT_CLAIM, bounds);
      c.claim(TransactionTokens.TRANSACTION_ID_CLAIM, txn.id());
      c.claim(TransactionTokens.SCOPE_CLAIM, String.join(" ", txn.scope()));
      c.claim(TransactionTokens.REQUESTING_WORKLOAD_CLAIM, issuer);
      c.claim(TransactionTokens.REQUEST_CONTEXT_CLAIM, txn.requestContext());
      c.claim(TransactionTokens.TRANSACTION_CONTEXT_CLAIM, granted);
    }
    return codec.encode(c.build(), issuedAt);
  }

  private TokenCodec codec(String callee) {
    Objects.requireNonNull(callee, "audience");
    // A Transaction Token is for the whole trust domain (the draft's aud), whichever service it goes to.
    String audience = profile == TokenProfile.TXN_TOKEN ? trustDomain : callee;
    TokenCodec codec = codecs.get(audience);
    if (codec != null) {
      return codec;
    }
    if (codecs.size() >= MAX_AUDIENCES) {
      throw new IllegalStateException("over " + MAX_AUDIENCES + " audiences: audiences name services, "
          + "not requests; use one audience per callee service");
    }
    return codecs.computeIfAbsent(audience, a -> TokenCodec.builder().keys(keys).algorithm(algorithm)
        .issuer(issuer).audience(a).timeToLive(Duration.ofSeconds(ttlSeconds)).clock(clock)
        .tokenType(profile.tokenType()).verificationCache(0).build());
  }

  /** The issuer, algorithm and lifetime; never keys. */
  @Override
  public String toString() {
    return "InternalTokenMinter[iss=" + issuer + (profile == TokenProfile.TXN_TOKEN ? ", txn-token aud=" + trustDomain : "")
        + ", alg=" + algorithm.joseName() + ", ttl=" + ttlSeconds + "s]";
  }

  /** Builds an {@link InternalTokenMinter}, checking it at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private KeySource keys;
    private Algorithm algorithm = Algorithm.ES256;
    private String issuer;
    private Duration timeToLive = DEFAULT_TIME_TO_LIVE;
    private Clock clock = Clock.systemUTC();
    private TokenProfile profile = TokenProfile.INTERNAL;
    private String trustDomain;
    private List<String> scope = List.of();

    private Builder() {}

    /**
     * The claims and header of the tokens: {@link TokenProfile#INTERNAL} (the default) or
     * {@link TokenProfile#TXN_TOKEN}, which needs {@link #trustDomain} and {@link #scope} too.
     * The callees' verifiers must be of the same profile.
     */
    public Builder profile(TokenProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    /**
     * The Transaction Token profile's {@code aud}: the trust domain, the same for every token
     * and every service, e.g. {@code trust-domain.example}. Required with that profile, refused
     * with the other.
     */
    public Builder trustDomain(String trustDomain) {
      this.trustDomain = BuilderArgs.notEmpty(trustDomain, "trustDomain");
      return this;
    }

    /**
     * The Transaction Token profile's {@code scope} of the tokens minted at the edge, as
     * narrowly as the deployment can say it (e.g. {@code trade.stocks}); a re-mint keeps the
     * parent's or narrows it. Required to {@link #mint} with that profile (a service that only
     * re-mints needs none), refused with the other.
     *
     * @throws IllegalArgumentException if a value is empty or holds a space or a quote
     */
    public Builder scope(String... values) {
      LinkedHashSet<String> s = new LinkedHashSet<>();
      for (String v : values) {
        if (v == null || v.isEmpty() || !v.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f && ch != '"' && ch != '\\')) {
          throw new IllegalArgumentException("a scope value is printable ASCII without spaces, quotes or "
              + "backslashes (RFC 6749 section 3.3), got '" + v + "'");
        }
        s.add(v);
      }
      this.scope = List.copyOf(s);
      return this;
    }

    /** This service's signing keys (with private parts); their public keys go to its JWKS. Required. */
    public Builder keys(KeySource keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** {@code ES256} (the default) or {@code EdDSA}. */
    public Builder algorithm(Algorithm algorithm) {
      Objects.requireNonNull(algorithm, "algorithm");
      if (algorithm != Algorithm.ES256 && algorithm != Algorithm.EDDSA) {
        throw new IllegalArgumentException("internal tokens are signed with ES256 or EdDSA, got "
            + algorithm.joseName() + ": with a shared secret every callee could mint");
      }
      this.algorithm = algorithm;
      return this;
    }

    /** This service's identity: its tokens' {@code iss} and the actor it records. Required. */
    public Builder issuer(String issuer) {
      this.issuer = BuilderArgs.notEmpty(issuer, "issuer");
      return this;
    }

    /** The lifetime of a token, whole seconds from 1 s to 1 h; 60 s if not set. */
    public Builder timeToLive(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.getSeconds() < 1 || ttl.getNano() != 0 || ttl.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException("timeToLive must be whole seconds from 1 s to 1 h, got " + ttl
            + ": internal tokens are short-lived");
      }
      this.timeToLive = ttl;
      return this;
    }

    /** The clock; the system clock if not set. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The minter.
     *
     * @throws IllegalStateException if keys or issuer are missing, or the trust domain and
     *     scope do not fit the profile
     */
    public InternalTokenMinter build() {
      if (keys == null) {
        throw new IllegalStateException("keys are required: this service's ES256 or EdDSA signing keys");
      }
      if (issuer == null) {
        throw new IllegalStateException("issuer is required: this service's identity, e.g. https://edge.example");
      }
      boolean txn = profile == TokenProfile.TXN_TOKEN;
      if (txn && trustDomain == null) {
        throw new IllegalStateException("the txn-token profile needs trustDomain(...): the tokens' aud, e.g. "
            + "trust-domain.example");
      }
      if (!txn && (trustDomain != null || !scope.isEmpty())) {
        throw new IllegalStateException("trustDomain and scope belong to the txn-token profile: set "
            + "profile(TokenProfile.TXN_TOKEN), or leave them out");
      }
      return new InternalTokenMinter(this);
    }
  }
}
