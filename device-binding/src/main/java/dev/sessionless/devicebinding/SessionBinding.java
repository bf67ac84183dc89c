package dev.sessionless.devicebinding;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.internal.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The binding of a session to a device key, as it lives in a Sessionless token: the RFC 7800
 * confirmation claim {@code cnf} with the key's RFC 7638 thumbprint ({@code jkt}) and the public
 * key itself ({@code jwk}, since the draft's refresh proofs carry none), and the session's last
 * refresh time ({@value #LAST_REFRESH_CLAIM}, epoch milliseconds) that makes challenges single-use
 * without a store (see {@link Challenges}). Immutable.
 */
public final class SessionBinding {
  /** The confirmation claim (RFC 7800 section 3.1). */
  public static final String CONFIRMATION_CLAIM = "cnf";
  /** The claim holding the last refresh time, in epoch milliseconds. */
  public static final String LAST_REFRESH_CLAIM = "dbsc_lr";
  private static final String JKT = "jkt";
  private static final String JWK = "jwk";

  private final DeviceKey key;
  private final Instant lastRefresh;

  private SessionBinding(DeviceKey key, Instant lastRefresh) {
    this.key = key;
    this.lastRefresh = lastRefresh;
  }

  /**
   * A binding to {@code key}, last refreshed at {@code lastRefresh} ({@link Instant#EPOCH} at
   * registration; after a refresh, the used challenge's {@link Challenge#issuedAt()}).
   */
  public static SessionBinding of(DeviceKey key, Instant lastRefresh) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(lastRefresh, "lastRefresh");
    if (lastRefresh.isBefore(Instant.EPOCH)) {
      throw new IllegalArgumentException("the last refresh time cannot lie before 1970");
    }
    return new SessionBinding(key, Instant.ofEpochMilli(lastRefresh.toEpochMilli()));
  }

  /**
   * The binding a verified token carries, or empty if it carries none (an unbound session).
   *
   * @throws DeviceBindingException {@code INTERNAL} if the token carries a binding this module
   *     did not write (the thumbprint is not the key's, a member is missing): the token was
   *     signed by our keys, so that is our fault or our keys', not the client's
   */
  public static Optional<SessionBinding> read(SessionToken token) {
    Objects.requireNonNull(token, "token");
    Optional<String> cnfJson = token.claimJson(CONFIRMATION_CLAIM);
    Optional<String> lastJson = token.claimJson(LAST_REFRESH_CLAIM);
    if (cnfJson.isEmpty() && lastJson.isEmpty()) {
      return Optional.empty();
    }
    try {
      JsonNode cnf = Json.object(cnfJson.orElseThrow().getBytes(StandardCharsets.UTF_8), "the cnf claim");
      DeviceKey key = DeviceKey.fromJwk(cnf.get(JWK));
      if (!key.hasThumbprint(Json.requiredString(cnf, JKT, "the cnf claim"))) {
        throw new DeviceBindingException(Reason.INTERNAL, "the token's cnf.jkt is not its cnf.jwk's thumbprint");
      }
      long last = Long.parseLong(lastJson.orElseThrow());
      return Optional.of(of(key, Instant.ofEpochMilli(last)));
    } catch (DeviceBindingException e) {
      if (e.reason() == Reason.INTERNAL) {
        throw e;
      }
      throw new DeviceBindingException(Reason.INTERNAL, "a signed token carries a device binding this module did"
          + " not write (" + e.reason() + "): check what else signs tokens with these keys", e);
    } catch (RuntimeException e) {
      throw new DeviceBindingException(Reason.INTERNAL, "a signed token carries a device binding this module did"
          + " not write: check what else signs tokens with these keys", e);
    }
  }

  /**
   * Writes this binding into {@code claims}: {@code cnf} ({@code jkt} and {@code jwk}) and the
   * last refresh time, replacing any there.
   *
   * @return {@code claims}
   */
  public Claims.Builder writeTo(Claims.Builder claims) {
    Objects.requireNonNull(claims, "claims");
    Map<String, Object> jwk = new LinkedHashMap<>();
    Json.MAPPER.readTree(key.toJwk()).properties().forEach(e -> jwk.put(e.getKey(), e.getValue().stringValue()));
    Map<String, Object> cnf = new LinkedHashMap<>();
    cnf.put(JKT, key.thumbprint());
    cnf.put(JWK, jwk);
    return claims.claim(CONFIRMATION_CLAIM, cnf).claim(LAST_REFRESH_CLAIM, lastRefresh.toEpochMilli());
  }

  /** The same key, refreshed with {@code verified}: its challenge's issue time is the new last refresh time. */
  public SessionBinding refreshedWith(VerifiedProof verified) {
    Objects.requireNonNull(verified, "verified");
    if (!verified.key().equals(key)) {
      throw new IllegalArgumentException("the proof was verified with another key than this session's");
    }
    return of(key, verified.challenge().issuedAt());
  }

  /** The device key the session is bound to. */
  public DeviceKey key() {
    return key;
  }

  /** The last refresh time (epoch at registration). */
  public Instant lastRefresh() {
    return lastRefresh;
  }

  /** The key and time (public values). */
  @Override
  public String toString() {
    return "SessionBinding[" + key + ", last refresh " + lastRefresh + "]";
  }
}
