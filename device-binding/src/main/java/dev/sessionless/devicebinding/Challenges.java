package dev.sessionless.devicebinding;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Stateless DBSC challenges: each one is a small token of core's {@link TokenCodec}, signed (or
 * MACed) with a key the application already holds, carrying its purpose, the session it is for,
 * its issue time to the millisecond and its expiry. Any node holding the keys verifies it; no
 * node stores it.
 *
 * <h2>Single use without a store</h2>
 * A challenge is accepted only if it was issued <em>after</em> the session's last refresh
 * time, which the caller passes in and which the session's long-lived token carries. After a
 * refresh succeeds the caller stores {@link Challenge#issuedAt()} of the challenge just used as
 * the new last refresh time (in the new long-lived token): that challenge, and every one issued
 * before it, is refused from then on ({@code REPLAYED}), while a challenge issued later (the
 * next one, even in the same response) is accepted. So a proof is good for one refresh of the
 * token it was made for.
 *
 * <p>What this does not cover, and why it is accepted: within the challenge's window (two
 * minutes by default), a proof captured in transit could be replayed once against a copy of
 * the long-lived token taken before that refresh, since that older copy still names the older
 * refresh time. The draft's threat is malware that copies cookies and leaves; it would need the
 * proof and the token together, within the window; outside it, nothing replays.
 *
 * <h2>Single use with the revocation store (optional)</h2>
 * An application that must close even that gap gives {@link Builder#usedChallenges} its {@link
 * RevocationStore} (the one its session filter uses, shared by the fleet). Each challenge that
 * verifies is then looked up in the store and recorded there ({@code revokeSession} of {@value
 * #USED_PREFIX} and the challenge token's {@code jti}) until it expires; a second use, on any node
 * the store has told, is {@code REPLAYED}. The cost is one look-up in the store's local copy and
 * one store write per verified challenge (per refresh and registration, not per request). With a
 * shared store the check is as fleet-wide as the store: two uses racing within its propagation lag
 * (Redis: the publish latency; the poll interval while publish/subscribe is down) are not told
 * apart, and neither are two racing on one node between look-up and write.
 *
 * <p><b>When the store is out</b>, its own setting decides: a look-up that throws {@code
 * REVOCATION_UNAVAILABLE} (a Redis store configured {@code FAIL_CLOSED} whose copy is stale) is
 * {@code UNAVAILABLE} (answer 503); a store that answers the look-up but cannot share the write
 * (Redis down, within the stale bound or {@code FAIL_OPEN}) keeps the use in this node's copy and
 * writes it later, and the challenge is accepted, with a warning: meanwhile the other nodes fall
 * back to the stateless rule above.
 */
public final class Challenges {
  /** The challenge tokens' {@code typ}: they are never accepted as anything else, nor anything else as them. */
  public static final String TOKEN_TYPE = "dbsc-challenge+jwt";
  private static final String AUDIENCE = "dbsc-challenge";
  // The session (or registration context) is the token's sub; these two are its own.
  private static final String CLAIM_PURPOSE = "use";
  private static final String CLAIM_ISSUED_MS = "ims";
  /**
   * What a used challenge's id is prefixed with in the revocation store, so it can never be taken
   * for a session id (both are random; the prefix keeps them apart and says what the entry is).
   */
  public static final String USED_PREFIX = "dbsc-challenge:";
  private static final System.Logger LOG = System.getLogger(Challenges.class.getName());

  private final TokenCodec codec;
  private final Clock clock;
  private final Duration window;
  private final Duration clockSkew;
  private final RevocationStore used;

  private Challenges(Builder b) {
    this.clock = b.clock;
    this.window = b.window;
    this.clockSkew = b.clockSkew;
    this.used = b.used;
    this.codec = TokenCodec.builder()
        .keys(b.keys)
        .algorithm(b.algorithm)
        .issuer(b.issuer)
        .audience(AUDIENCE)
        .tokenType(TOKEN_TYPE)
        .timeToLive(b.window)
        .clockSkew(b.clockSkew)
        .clock(b.clock)
        .maxTokenLength(1024)
        .verificationCache(0)
        .build();
  }

  /** A builder; {@link Builder#keys} and {@link Builder#issuer} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** How long a challenge is accepted after it is issued. */
  public Duration window() {
    return window;
  }

  /**
   * Issues a challenge.
   *
   * @param purpose registration or refresh
   * @param subject the session identifier (refresh), or for registration a context of the
   *     application's choosing that it can name again at the registration endpoint (its current
   *     session's id, say); 1 to 256 characters
   * @return the challenge text, base64url and dots only, safe in a structured-field string
   * @throws DeviceBindingException {@code UNAVAILABLE} if no key may sign now
   */
  public String issue(Purpose purpose, String subject) {
    return issue(purpose, subject, window);
  }

  /**
   * Issues a challenge with a window of its own: for the challenge a refresh response hands out
   * for the <em>next</em> refresh ({@code Secure-Session-Challenge} on the 200), which must
   * outlive the bound cookie, or the browser's next refresh signs an expired challenge, gets a
   * 403 and signs again (two key operations instead of one, against Chromium's refresh quota).
   * It is still single-use: once a refresh has used it, the last refresh time refuses it.
   *
   * @param window whole seconds, 10 seconds to 1 day
   * @throws IllegalArgumentException if the window is outside those bounds
   * @throws DeviceBindingException as {@link #issue(Purpose, String)}
   */
  public String issue(Purpose purpose, String subject, Duration window) {
    Objects.requireNonNull(purpose, "purpose");
    checkSubject(subject);
    checkWindow(window, Duration.ofDays(1));
    Instant now = clock.instant();
    Claims claims = Claims.builder()
        .timeToLive(window)
        .claim(CLAIM_PURPOSE, purpose.code())
        .subject(subject)
        .claim(CLAIM_ISSUED_MS, now.toEpochMilli())
        .build();
    try {
      return codec.encode(claims, now);
    } catch (TokenException e) {
      throw new DeviceBindingException(e.reason().isRejection() ? Reason.INTERNAL : Reason.UNAVAILABLE,
          "could not issue a DBSC challenge (" + e.reason() + "): check the challenge key source", e);
    }
  }

  /**
   * Verifies a challenge that came back in a proof.
   *
   * @param challenge the proof's {@code jti}
   * @param purpose what it must have been issued for
   * @param subject the session identifier (or registration context) it must have been issued for
   * @param lastRefresh the session's last refresh time (the {@link Challenge#issuedAt()} of the
   *     challenge its last refresh used); {@link Instant#EPOCH} for none, as at registration
   * @return the verified challenge
   * @throws DeviceBindingException {@code WRONG_CHALLENGE} if not issued by this application for
   *     this purpose (forged, altered, another token), {@code EXPIRED} after its window, {@code
   *     WRONG_SESSION} if for another session, {@code REPLAYED} if issued at or before {@code
   *     lastRefresh} or (with {@link Builder#usedChallenges}) used already, {@code UNAVAILABLE} if
   *     the keys cannot be read now or the used-challenge store refuses to answer
   */
  public Challenge verify(String challenge, Purpose purpose, String subject, Instant lastRefresh) {
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(lastRefresh, "lastRefresh");
    if (challenge == null || challenge.isEmpty()) {
      throw new DeviceBindingException(Reason.MALFORMED, "the proof has no challenge (jti): sign the challenge the"
          + " server sent");
    }
    SessionToken token;
    try {
      token = codec.decode(challenge);
    } catch (TokenException e) {
      if (e.reason() == TokenException.Reason.EXPIRED) {
        throw new DeviceBindingException(Reason.EXPIRED, "the challenge's window has passed: ask for a new one");
      }
      if (e.reason().isRejection()) {
        throw new DeviceBindingException(Reason.WRONG_CHALLENGE, "the challenge was not issued by this application ("
            + e.reason() + "): sign the challenge the server sent");
      }
      throw new DeviceBindingException(Reason.UNAVAILABLE, "could not check the challenge now (" + e.reason()
          + "): answer 503 and retry", e);
    }
    String code = token.claim(CLAIM_PURPOSE, String.class).orElse(null);
    String sub = token.subject().orElse(null);
    Long issuedMs = token.claim(CLAIM_ISSUED_MS, Long.class).orElse(null);
    if (code == null || sub == null || issuedMs == null || Purpose.ofCode(code) != purpose) {
      throw new DeviceBindingException(Reason.WRONG_CHALLENGE, "the challenge was issued for "
          + (Purpose.ofCode(code) == null ? "something else" : "another purpose") + ", not " + purpose
          + ": answer each challenge where it was sent");
    }
    if (!MessageDigest.isEqual(sub.getBytes(StandardCharsets.UTF_8), subject.getBytes(StandardCharsets.UTF_8))) {
      throw new DeviceBindingException(Reason.WRONG_SESSION, "the challenge was issued for another session: sign"
          + " the challenge sent for this one");
    }
    Instant issued = Instant.ofEpochMilli(issuedMs);
    if (!issued.isAfter(lastRefresh)) {
      throw new DeviceBindingException(Reason.REPLAYED, "the challenge was issued before the session's last refresh"
          + " (used already, or superseded): ask for a new one");
    }
    if (used != null) {
      spend(USED_PREFIX + token.id(), token.expiresAt().plus(clockSkew));
    }
    return new Challenge(purpose, sub, issued, token.expiresAt());
  }

  /** Refuses a challenge id the store knows as used, and records it as used until {@code until}. */
  private void spend(String id, Instant until) {
    try {
      if (used.isRevoked(id)) {
        throw new DeviceBindingException(Reason.REPLAYED, "the challenge was used already (on this or another node):"
            + " ask for a new one");
      }
    } catch (TokenException e) {
      throw storeFailure(e);
    }
    try {
      used.revokeSession(id, until);
    } catch (TokenException e) {
      if (e.reason() != TokenException.Reason.REVOCATION_UNAVAILABLE) {
        throw storeFailure(e);
      }
      // The store answered the look-up, so by its own setting it still serves; it keeps the use here and shares it later.
      LOG.log(System.Logger.Level.WARNING, "a used DBSC challenge could not be shared through the revocation store"
          + " ({0}); it is refused on this node, other nodes fall back to the stateless last-refresh rule until the"
          + " store writes it", e.getMessage());
    }
  }

  private static DeviceBindingException storeFailure(TokenException e) {
    if (e.reason() == TokenException.Reason.REVOCATION_UNAVAILABLE) {
      return new DeviceBindingException(Reason.UNAVAILABLE, "the used-challenge store cannot answer now: answer 503"
          + " and retry", e);
    }
    return new DeviceBindingException(Reason.INTERNAL, "the used-challenge store failed (" + e.reason() + ")", e);
  }

  private static Duration checkWindow(Duration window, Duration max) {
    Objects.requireNonNull(window, "window");
    if (window.getNano() != 0 || window.getSeconds() < 10 || window.compareTo(max) > 0) {
      throw new IllegalArgumentException("a challenge window must be whole seconds, 10 s to " + max + "; got " + window);
    }
    return window;
  }

  private static void checkSubject(String subject) {
    Objects.requireNonNull(subject, "subject");
    if (subject.isEmpty() || subject.length() > 256) {
      throw new IllegalArgumentException("a challenge's subject (session identifier or registration context) must"
          + " be 1 to 256 characters");
    }
  }

  /** Builds {@link Challenges}. */
  public static final class Builder {
    private KeySource keys;
    private Algorithm algorithm = Algorithm.HS256;
    private String issuer;
    private Duration window = Duration.ofMinutes(2);
    private Duration clockSkew = Duration.ofSeconds(5);
    private Clock clock = Clock.systemUTC();
    private RevocationStore used;

    private Builder() {}

    /**
     * Records each verified challenge in {@code store} until it expires and refuses a second use
     * of it ({@code REPLAYED}) on every node the store reaches: closes the replay gap the
     * stateless rule leaves (see the class comment). Optional; without it challenges are
     * single-use by the session's last refresh time alone. Give the store the session filter
     * uses (in memory for one node, {@code sessionless-redis} for a fleet); {@code null} for none.
     */
    public Builder usedChallenges(RevocationStore store) {
      this.used = store;
      return this;
    }

    /**
     * The keys that sign and verify challenges: the application's own (a keyring source, or
     * core's {@code KeySet}), shared by every node that may answer a refresh. Required.
     */
    public Builder keys(KeySource keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The algorithm of the challenge tokens; {@code HS256} if not set. Must have a key in the key source. */
    public Builder algorithm(Algorithm algorithm) {
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /** The issuer written into and required of challenges, e.g. the application's URL. Required. */
    public Builder issuer(String issuer) {
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /**
     * How long a challenge is accepted: whole seconds, 10 seconds to 10 minutes; 2 minutes if not
     * set. The draft asks for a short lifetime; long enough for a slow TPM to sign.
     */
    public Builder window(Duration window) {
      this.window = checkWindow(window, Duration.ofMinutes(10));
      return this;
    }

    /** Leeway for clock differences between nodes on a challenge's expiry; 5 seconds if not set, at most 1 minute. */
    public Builder clockSkew(Duration skew) {
      Objects.requireNonNull(skew, "skew");
      if (skew.isNegative() || skew.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException("the clock skew must be 0 to 1 minute; got " + skew);
      }
      this.clockSkew = skew;
      return this;
    }

    /** The clock; {@link Clock#systemUTC()} if not set. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the challenges.
     *
     * @throws IllegalStateException if keys or issuer are missing
     */
    public Challenges build() {
      if (keys == null) {
        throw new IllegalStateException("keys are required: the application's key source that signs challenges");
      }
      if (issuer == null || issuer.isEmpty()) {
        throw new IllegalStateException("issuer is required: e.g. the application's URL");
      }
      return new Challenges(this);
    }
  }
}
