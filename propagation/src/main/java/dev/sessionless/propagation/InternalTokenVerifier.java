package dev.sessionless.propagation;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Verifies internal tokens in a downstream service: only tokens for its own audience, from the
 * issuers it accepts, each checked with that issuer's public keys (typically a {@code Keyring}
 * over the issuer's JWKS URL), and only tokens that stayed within the bounds they were minted
 * in.
 *
 * <pre>{@code
 * InternalTokenVerifier verifier = InternalTokenVerifier.builder().audience("orders")
 *     .issuer("https://edge.example", Keyring.builder().jwksUrl(edgeJwks).build())
 *     .build();
 * InternalToken token = verifier.verify(bearer);   // or TokenException with a reason
 * }</pre>
 *
 * <p>First, a token whose (unverified) header does not say {@code typ} {@value
 * InternalTokens#TOKEN_TYPE} is refused with {@code WRONG_TOKEN_TYPE}, before its issuer is
 * looked at: a browser session token sent as a bearer token is named for what it is. Beyond
 * what the codec checks (signature with the key the {@code kid} names and its own
 * algorithm, {@code typ} = {@value InternalTokens#TOKEN_TYPE}, {@code iss}, {@code aud},
 * {@code exp}), a token must carry {@code sid}, an {@code act} whose current actor is its
 * issuer ({@code MALFORMED} otherwise), and its bounds ({@value InternalTokens#PARENT_CLAIM};
 * {@code MISSING_CLAIM} without): an expiry after the parent's, or a state value the parent did
 * not carry, is refused with {@code WIDENED}. A token from an issuer not configured is refused
 * with {@code WRONG_ISSUER}; with several issuers the unverified {@code iss} only picks which
 * issuer's codec verifies the token, which then checks it exactly. A token's {@code auth_time}
 * may not be later than its parent's ({@code WIDENED}). With a {@linkplain
 * Builder#revocation revocation source}, revoked sessions and subjects logged out everywhere are
 * refused ({@code SESSION_REVOKED}, {@code SUBJECT_REVOKED}).
 *
 * <p>Thread-safe; the codecs keep their verification caches.
 */
public final class InternalTokenVerifier {
  /** Longest token accepted, checked before anything is decoded. */
  static final int MAX_TOKEN_LENGTH = 8192;
  private static final int MAX_ACTORS = 16;
  /** 9999-12-31T23:59:59Z, the last second a NumericDate of this project may name. */
  private static final long MAX_EPOCH_SECOND = 253402300799L;
  private static final System.Logger LOG = System.getLogger(InternalTokenVerifier.class.getName());
  /** Faults on this side, each cause logged once. */
  static final FaultLog FAULTS = new FaultLog(LOG);

  private final String audience;
  private final Clock clock;
  private final Map<String, TokenCodec> byIssuer;
  private final TokenCodec only;
  private final TokenProfile profile;
  /** {@link #check}; another function only in tests that stand in for a bug on this side. */
  private final Function<SessionToken, InternalToken> checker;

  private InternalTokenVerifier(Builder b) {
    this.audience = b.audience;
    this.clock = b.clock;
    Map<String, TokenCodec> m = new LinkedHashMap<>();
    for (Map.Entry<String, KeySource> e : b.issuers.entrySet()) {
      TokenCodec.Builder codec = TokenCodec.builder().keys(e.getValue()).algorithm(Algorithm.ES256)
          .acceptAlgorithms(Algorithm.ES256, Algorithm.EDDSA).issuer(e.getKey()).audience(b.audience)
          .timeToLive(InternalTokenMinter.DEFAULT_TIME_TO_LIVE).clock(b.clock).clockSkew(b.clockSkew)
          .maxTokenLength(MAX_TOKEN_LENGTH).tokenType(b.profile.tokenType());
      if (b.revocation != null) {
        codec.revocation(b.revocation);
      }
      m.put(e.getKey(), codec.build());
    }
    this.byIssuer = Map.copyOf(m);
    this.only = m.size() == 1 ? m.values().iterator().next() : null;
    this.profile = b.profile;
    this.checker = b.checker != null ? b.checker
        : b.profile == TokenProfile.TXN_TOKEN ? TransactionTokenCheck::check : InternalTokenVerifier::check;
  }

  /** A builder; the audience and at least one issuer are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The profile of the tokens this verifier accepts. */
  public TokenProfile profile() {
    return profile;
  }

  /** This service's audience (in the Transaction Token profile, the trust domain). */
  public String audience() {
    return audience;
  }

  /**
   * Verifies a token presented to this service.
   *
   * @return the verified token
   * @throws TokenException for every rejection, with its reason ({@code WIDENED} for a token
   *     that exceeds the bounds it was minted in, {@code SESSION_REVOKED} and {@code
   *     SUBJECT_REVOKED} with a revocation source; {@code WRONG_TOKEN_TYPE}, checked first, for
   *     a token whose header is not of typ {@value InternalTokens#TOKEN_TYPE}, such as a browser
   *     session token; {@code MALFORMED} for claims of the wrong shape); a reason that is no
   *     rejection ({@code INTERNAL}, {@code REVOCATION_UNAVAILABLE}) means a failure on this
   *     side: a fault in the checks after decoding is {@code INTERNAL}, logged at ERROR once per
   *     cause, never blamed on the caller
   */
  public InternalToken verify(String token) {
    if (token == null) {
      throw new TokenException(Reason.MALFORMED, "no token was given");
    }
    if (token.length() > MAX_TOKEN_LENGTH) {
      throw new TokenException(Reason.TOO_LARGE,
          "the token is " + token.length() + " characters, over the limit of " + MAX_TOKEN_LENGTH);
    }
    UnverifiedPeek.requireType(token, profile);
    TokenCodec codec = only != null ? only : byIssuer.get(UnverifiedPeek.issuer(token));
    if (codec == null) {
      throw new TokenException(Reason.WRONG_ISSUER,
          "the token's issuer is not one this service accepts: add it to the verifier's issuers if it should be");
    }
    SessionToken t = codec.decode(token);
    try {
      return checker.apply(t);
    } catch (TokenException e) {
      throw e;
    } catch (RuntimeException e) {
      // Every shape the token's sender controls is checked above and refused as a rejection:
      // what is left is a fault on this side, never the caller's bad token.
      FAULTS.report(e);
      throw new TokenException(Reason.INTERNAL, "checking a verified internal token failed on this side (a bug): "
          + "the token was not accepted; see the error logged once for this cause", e);
    }
  }

  /**
   * Whether {@code token}, by this verifier's clock, has less than the one second left that
   * {@link InternalTokenMinter#remint} needs: accepted within the leeway, or lapsed since. The
   * receiving filters ask this when an application's call on fails with {@code EXPIRED}, to tell
   * the caller's lapsed token from the application's own failure.
   *
   * @param token a token this verifier verified
   * @return whether a re-mint of it would be refused as expired
   */
  public boolean tooLateToRemint(InternalToken token) {
    return token.expiresAt().getEpochSecond() - Math.floorDiv(clock.millis(), 1000) < 1;
  }

  private static InternalToken check(SessionToken t) {
    Object sidClaim = claim(t, InternalTokens.SESSION_ID_CLAIM, Object.class).orElseThrow(() -> new TokenException(
        Reason.MISSING_CLAIM, "an internal token must carry the session id (sid)"));
    if (!(sidClaim instanceof String)) {
      throw new TokenException(Reason.MALFORMED, "the token's sid claim must be a string");
    }
    List<String> actors = actors(t);
    if (!actors.get(0).equals(t.issuer())) {
      throw new TokenException(Reason.MALFORMED,
          "the token's current actor (act.sub) is not its issuer: a service records itself when it mints");
    }
    Map<?, ?> parent = claim(t, InternalTokens.PARENT_CLAIM, Map.class).orElseThrow(() -> new TokenException(
        Reason.MISSING_CLAIM, "an internal token must carry the bounds it was minted in (" + InternalTokens.PARENT_CLAIM
            + "): mint it with InternalTokenMinter"));
    Bounds b = bounds(t, parent, t.stateNames());
    return new InternalToken(t, (String) sidClaim, actors, b.exp(), b.stateNames(), t.authTime());
  }

  /** A token's bounds, checked: its parent's expiry and state names. */
  record Bounds(Instant exp, Set<String> stateNames) {}

  /**
   * The one narrowing rule of both profiles: the token's expiry,
   * state names ({@code names}) and {@code auth_time} stay within the bounds its signer wrote.
   */
  static Bounds bounds(SessionToken t, Map<?, ?> parent, Set<String> names) {
    Object exp = parent.get("exp");
    Object stNames = parent.get("st");
    if (!(exp instanceof Number) || !(stNames instanceof List)) {
      throw new TokenException(Reason.MALFORMED,
          InternalTokens.PARENT_CLAIM + " must hold a numeric exp and a list of state names st");
    }
    Set<String> parentNames = new LinkedHashSet<>();
    for (Object n : (List<?>) stNames) {
      if (!(n instanceof String)) {
        throw new TokenException(Reason.MALFORMED, InternalTokens.PARENT_CLAIM + ".st must list names");
      }
      parentNames.add((String) n);
    }
    long parentExp = ((Number) exp).longValue();
    if (parentExp < 0 || parentExp > MAX_EPOCH_SECOND || parentExp != ((Number) exp).doubleValue()) {
      throw new TokenException(Reason.MALFORMED, InternalTokens.PARENT_CLAIM + ".exp must be whole seconds from 1970 to 9999");
    }
    if (t.expiresAt().getEpochSecond() > parentExp) {
      throw new TokenException(Reason.WIDENED,
          "the token expires after the token it was minted from: a re-mint may only shorten the lifetime");
    }
    for (String name : names) {
      if (!parentNames.contains(name)) {
        throw new TokenException(Reason.WIDENED, "the token carries state value '" + name
            + "', which the token it was minted from did not: a re-mint may only drop state values");
      }
    }
    Optional<Instant> authTime = t.authTime();
    if (authTime.isPresent()) {
      // A later login time would escape a "log out everywhere" the parent falls under.
      Object parentAuth = parent.get(InternalTokens.AUTH_TIME_CLAIM);
      if (parentAuth != null && !(parentAuth instanceof Number)) {
        throw new TokenException(Reason.MALFORMED, InternalTokens.PARENT_CLAIM + ".auth_time must be a number");
      }
      if (parentAuth == null || authTime.get().getEpochSecond() > ((Number) parentAuth).longValue()) {
        throw new TokenException(Reason.WIDENED, "the token's auth_time is later than that of the token it was "
            + "minted from (or that one had none): a re-mint keeps the login time, never moves it later");
      }
    }
    return new Bounds(Instant.ofEpochSecond(parentExp), parentNames);
  }

  /**
   * A claim read as {@code type}; one of another type is the sender's malformed token ({@code
   * MALFORMED}), never a {@code STATE_MAPPING} failure on this side.
   */
  static <T> Optional<T> claim(SessionToken t, String name, Class<T> type) {
    try {
      return t.claim(name, type);
    } catch (TokenException e) {
      if (e.reason() == Reason.STATE_MAPPING) {
        throw new TokenException(Reason.MALFORMED, "the token's " + name + " claim is not of the expected shape ("
            + type.getSimpleName() + ")");
      }
      throw e;
    }
  }

  /** The actor chain, current first, from the nested {@code act} claim. */
  static List<String> actors(SessionToken t) {
    Object act = claim(t, InternalTokens.ACTOR_CLAIM, Map.class).orElseThrow(() -> new TokenException(
        Reason.MISSING_CLAIM, "an internal token must name its actor (act)"));
    List<String> chain = new ArrayList<>();
    while (act != null) {
      if (!(act instanceof Map) || !(((Map<?, ?>) act).get("sub") instanceof String) || chain.size() == MAX_ACTORS) {
        throw new TokenException(Reason.MALFORMED,
            "act must nest objects with a string sub, at most " + MAX_ACTORS + " deep (RFC 8693 section 4.1)");
      }
      Map<?, ?> m = (Map<?, ?>) act;
      chain.add((String) m.get("sub"));
      act = m.get("act");
    }
    return chain;
  }

  /** The audience and issuers. */
  @Override
  public String toString() {
    return "InternalTokenVerifier[aud=" + audience + (profile == TokenProfile.TXN_TOKEN ? ", txn-token" : "") + ", issuers=" + byIssuer.keySet() + "]";
  }

  /** Builds an {@link InternalTokenVerifier}, checking it at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private String audience;
    private final Map<String, KeySource> issuers = new LinkedHashMap<>();
    private Clock clock = Clock.systemUTC();
    private Duration clockSkew = Duration.ofSeconds(30);
    private RevocationSource revocation;
    private Function<SessionToken, InternalToken> checker;
    private TokenProfile profile = TokenProfile.INTERNAL;

    private Builder() {}

    /** Replaces the checks after decoding: for tests that need a fault on this side. */
    Builder checkerForTests(Function<SessionToken, InternalToken> checker) {
      this.checker = Objects.requireNonNull(checker, "checker");
      return this;
    }

    /**
     * Checks every verified token against a revocation source, the same one (or a replica of
     * the one) the edge's session filter writes to, such as the Redis module's {@code
     * RedisRevocations} or the keyring's {@code PublishedRevocations}. Asked from its in-memory
     * copy on every verification, a cache hit included:
     *
     * <ul>
     *   <li>a token whose {@code sid} (the browser session) is revoked is refused with {@code
     *       SESSION_REVOKED};
     *   <li>a token whose subject has a not-before instant ("log out everywhere") later than the
     *       token's {@code auth_time} is refused with {@code SUBJECT_REVOKED};
     *   <li>so is a token of such a subject that carries <em>no</em> {@code auth_time}: it
     *       cannot show that its login came after the logout, and accepting it would let any
     *       session minted without a login time (or a token stripped of it by a buggy re-mint)
     *       outlive "log out everywhere". Edges carry the session's {@code auth_time} ({@link
     *       EdgeSession#authTime()}) for this reason;
     *   <li>a source that cannot vouch for its copy throws {@code REVOCATION_UNAVAILABLE}, and
     *       one that fails in another way counts as {@code INTERNAL}: neither is a rejection,
     *       and {@link InternalTokenFilter} answers both with {@code 503}, never accepting the
     *       token and never blaming the caller.
     * </ul>
     *
     * <p>A revocation reaches this service within the source's lag (the Redis store's publish
     * latency, at most its poll interval; a published list's poll interval). Not set: no
     * revocation check, and internal tokens stay valid for their short lifetime.
     */
    public Builder revocation(RevocationSource source) {
      Objects.requireNonNull(source, "source");
      if (revocation != null) {
        throw new IllegalStateException("revocation was already set");
      }
      this.revocation = source;
      return this;
    }

    /**
     * The tokens accepted: {@link TokenProfile#INTERNAL} (the default) or {@link
     * TokenProfile#TXN_TOKEN}, whose {@link #audience} is the trust domain. A token of the
     * other profile is refused with {@code WRONG_TOKEN_TYPE}.
     */
    public Builder profile(TokenProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    /**
     * This service's own audience: tokens for any other are refused. In the Transaction Token
     * profile, the trust domain (the draft's {@code aud}). Required.
     */
    public Builder audience(String audience) {
      this.audience = BuilderArgs.notEmpty(audience, "audience");
      return this;
    }

    /**
     * An issuer this service accepts and its public keys, typically a {@code Keyring} over the
     * issuer's JWKS URL. At least one.
     *
     * @throws IllegalArgumentException if the issuer was given before
     */
    public Builder issuer(String issuer, KeySource keys) {
      Objects.requireNonNull(issuer, "issuer");
      Objects.requireNonNull(keys, "keys");
      if (issuers.putIfAbsent(issuer, keys) != null) {
        throw new IllegalArgumentException("issuer '" + issuer + "' was given twice");
      }
      return this;
    }

    /** The clock; the system clock if not set. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Leeway for clocks that disagree, 0 to 60 s; 30 s if not set. */
    public Builder clockSkew(Duration skew) {
      Objects.requireNonNull(skew, "skew");
      if (skew.isNegative() || skew.compareTo(Duration.ofSeconds(60)) > 0) {
        throw new IllegalArgumentException("clockSkew must be 0 to 60 s, got " + skew);
      }
      this.clockSkew = skew;
      return this;
    }

    /**
     * The verifier.
     *
     * @throws IllegalStateException if the audience or every issuer is missing
     */
    public InternalTokenVerifier build() {
      if (audience == null) {
        throw new IllegalStateException("audience is required: this service's own name in aud");
      }
      if (issuers.isEmpty()) {
        throw new IllegalStateException("at least one issuer is required: issuer(name, its JWKS keyring)");
      }
      return new InternalTokenVerifier(this);
    }
  }
}
