package dev.sessionless.devicebinding;

import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.internal.Base64Url;
import dev.sessionless.devicebinding.internal.Json;
import dev.sessionless.devicebinding.internal.JwsSignatures;
import dev.sessionless.devicebinding.internal.ProofAlgorithms;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Verifies the browser's DBSC proofs ({@code dbsc+jwt} JWS in compact form, the draft's "DBSC
 * proof"): at registration, signed by the public key in its own {@code jwk} header; at refresh,
 * signed by the session's key. Thread-safe; build one and share it.
 *
 * <p>In this order, each failure its own {@link DeviceBindingException.Reason}: the length
 * (before any parsing), the compact form and base64url, the header ({@code typ} is {@code
 * dbsc+jwt}, {@code alg} one of those accepted, no {@code crit}), the key ({@code jwk} at
 * registration, public members only; at refresh the session's key, and a {@code jwk} the proof
 * carries anyway must have its thumbprint), {@code alg} bound to the key's type (ES256 only with
 * P-256, RS256 only with RSA of 2048 bits or more), the signature, then the payload: {@code jti}
 * is a challenge {@link Challenges} issued for this purpose and session, in its window, after the
 * last refresh; {@code authorization} as sent; {@code aud} and {@code iat} when present (neither
 * the draft nor Chromium's current client sends them; older drafts' clients did).
 */
public final class DeviceProof {
  private final Challenges challenges;
  private final int maxLength;
  private final Set<String> algorithms;
  private final boolean requireAudience;
  private final Duration maxAge;
  private final Clock clock;

  private DeviceProof(Builder b) {
    this.challenges = b.challenges;
    this.maxLength = b.maxLength;
    this.algorithms = Set.copyOf(b.algorithms);
    this.requireAudience = b.requireAudience;
    this.maxAge = b.challenges.window().plus(Duration.ofMinutes(1));
    this.clock = b.clock;
  }

  /**
   * A builder of a verifier whose proofs must answer challenges issued by {@code challenges}.
   */
  public static Builder verifier(Challenges challenges) {
    return new Builder(challenges);
  }

  /**
   * Verifies a registration proof.
   *
   * @param proof the JWS (the {@code Secure-Session-Response} header's string, see {@link
   *     DbscHeaders#readProof})
   * @param context the registration context the challenge was issued for ({@link
   *     Challenges#issue})
   * @param audience the registration endpoint's URL, checked against {@code aud}; {@code null}
   *     to skip that check
   * @param authorization the {@code authorization} the registration header sent, which the proof
   *     must copy; {@code null} if none was sent
   * @return the verified proof, with the key to bind the session to
   * @throws DeviceBindingException for every refusal, with its reason
   */
  public VerifiedProof verifyRegistration(String proof, String context, String audience, String authorization) {
    Objects.requireNonNull(context, "context");
    return verify(proof, Purpose.REGISTRATION, context, null, Instant.EPOCH, audience, authorization);
  }

  /**
   * Verifies a refresh proof.
   *
   * @param proof the JWS from the {@code Secure-Session-Response} header
   * @param sessionId the session identifier (from the long-lived token, which the caller has
   *     checked equals {@code Sec-Secure-Session-Id})
   * @param sessionKey the session's device key, from the long-lived token
   * @param lastRefresh the session's last refresh time from the long-lived token ({@link
   *     Challenge#issuedAt()} of the challenge its last refresh used)
   * @param audience the refresh endpoint's URL, checked against {@code aud}; {@code null} to skip
   * @return the verified proof; store its challenge's issue time as the new last refresh time
   * @throws DeviceBindingException for every refusal, with its reason
   */
  public VerifiedProof verifyRefresh(String proof, String sessionId, DeviceKey sessionKey, Instant lastRefresh,
      String audience) {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(sessionKey, "sessionKey");
    Objects.requireNonNull(lastRefresh, "lastRefresh");
    return verify(proof, Purpose.REFRESH, sessionId, sessionKey, lastRefresh, audience, null);
  }

  private VerifiedProof verify(String proof, Purpose purpose, String subject, DeviceKey sessionKey,
      Instant lastRefresh, String audience, String authorization) {
    if (proof == null || proof.isEmpty()) {
      throw new DeviceBindingException(Reason.MALFORMED, "no DBSC proof: send it in the Secure-Session-Response"
          + " header");
    }
    if (proof.length() > maxLength) {
      throw new DeviceBindingException(Reason.TOO_LARGE, "the DBSC proof is longer than " + maxLength
          + " characters: a proof with a P-256 or RSA key is far shorter");
    }
    int dot1 = proof.indexOf('.');
    int dot2 = dot1 < 0 ? -1 : proof.indexOf('.', dot1 + 1);
    if (dot1 <= 0 || dot2 < 0 || proof.indexOf('.', dot2 + 1) >= 0) {
      throw new DeviceBindingException(Reason.MALFORMED, "the DBSC proof is not a compact JWS (three base64url"
          + " parts separated by dots)");
    }
    JsonNode header = Json.object(Base64Url.decode(proof.substring(0, dot1), "the proof's header"),
        "the proof's header");
    byte[] payloadBytes = Base64Url.decode(proof.substring(dot1 + 1, dot2), "the proof's payload");
    byte[] signature = Base64Url.decode(proof.substring(dot2 + 1), "the proof's signature");

    String typ = Json.optionalString(header, DbscNames.JWT_TYP, "the proof's header");
    if (!DbscNames.PROOF_TYPE.equals(typ)) {
      throw new DeviceBindingException(Reason.WRONG_TYPE, "the proof's typ must be " + DbscNames.PROOF_TYPE
          + ": only DBSC proofs are accepted here");
    }
    String alg = Json.requiredString(header, DbscNames.JWT_ALG, "the proof's header");
    if (!algorithms.contains(alg)) {
      throw new DeviceBindingException(Reason.UNSUPPORTED_ALGORITHM, "the proof's alg is not one of "
          + new java.util.TreeSet<>(algorithms) + " (none and HMAC never are): sign with one of those");
    }
    if (header.has(DbscNames.JWT_CRIT)) {
      throw new DeviceBindingException(Reason.MALFORMED, "the proof's header has crit: no JWS extension is"
          + " understood here, so none may be critical");
    }
    DeviceKey key = key(header, purpose, sessionKey);
    if (!key.algorithm().equals(alg)) {
      throw new DeviceBindingException(Reason.WRONG_KEY, "the proof's alg " + alg + " does not fit its "
          + key.algorithm() + " key: ES256 signs with P-256 keys, RS256 with RSA keys");
    }
    byte[] input = proof.substring(0, dot2).getBytes(StandardCharsets.US_ASCII);
    if (!JwsSignatures.verify(alg, key.publicKey(), input, signature)) {
      throw new DeviceBindingException(Reason.BAD_SIGNATURE, "the proof's signature does not verify with "
          + (purpose == Purpose.REFRESH ? "the session's device key" : "its jwk") + ": sign with that key");
    }

    JsonNode payload = Json.object(payloadBytes, "the proof's payload");
    String jti = Json.requiredString(payload, DbscNames.CLAIM_JTI, "the proof's payload");
    Challenge challenge = challenges.verify(jti, purpose, subject, lastRefresh);
    String proofAuthorization = Json.optionalString(payload, DbscNames.CLAIM_AUTHORIZATION, "the proof's payload");
    if (authorization != null && (proofAuthorization == null || !MessageDigest.isEqual(
        authorization.getBytes(StandardCharsets.UTF_8), proofAuthorization.getBytes(StandardCharsets.UTF_8)))) {
      throw new DeviceBindingException(Reason.WRONG_AUTHORIZATION, "the proof's authorization is missing or not the"
          + " one the registration header sent: copy it unchanged");
    }
    checkAudience(payload, audience);
    checkIssuedAt(payload);
    return new VerifiedProof(key, challenge, proofAuthorization);
  }

  private static DeviceKey key(JsonNode header, Purpose purpose, DeviceKey sessionKey) {
    JsonNode jwk = header.get(DbscNames.JWT_JWK);
    if (purpose == Purpose.REGISTRATION) {
      if (jwk == null) {
        throw new DeviceBindingException(Reason.MALFORMED, "the registration proof has no jwk header: the draft"
            + " requires the public key there for ES256 and RS256");
      }
      return DeviceKey.fromJwk(jwk);
    }
    // The draft says a refresh proof carries no jwk; one that does must at least be the session's.
    if (jwk != null && !sessionKey.hasThumbprint(DeviceKey.fromJwk(jwk).thumbprint())) {
      throw new DeviceBindingException(Reason.WRONG_KEY, "the refresh proof's jwk is not the session's device key"
          + " (thumbprint mismatch): sign with the key the session was registered with");
    }
    return sessionKey;
  }

  private void checkAudience(JsonNode payload, String audience) {
    String aud = Json.optionalString(payload, DbscNames.CLAIM_AUD, "the proof's payload");
    if (audience == null) {
      return;
    }
    if (aud == null ? requireAudience : !aud.equals(audience)) {
      throw new DeviceBindingException(Reason.WRONG_AUDIENCE, "the proof's aud is "
          + (aud == null ? "missing" : "another endpoint") + ": sign a proof for " + audience);
    }
  }

  private void checkIssuedAt(JsonNode payload) {
    JsonNode iat = payload.get(DbscNames.CLAIM_IAT);
    if (iat == null) {
      return;
    }
    long seconds;
    if (iat.isIntegralNumber() && iat.canConvertToLong()) {
      seconds = iat.longValue();
    } else if (iat.isString() && iat.stringValue().matches("[0-9]{1,12}")) {
      // The draft's own Secure-Session-Response example sends iat as a string of digits.
      seconds = Long.parseLong(iat.stringValue());
    } else {
      throw new DeviceBindingException(Reason.MALFORMED, "the proof's iat is not a number of seconds");
    }
    long now = clock.instant().getEpochSecond();
    if (seconds < now - maxAge.getSeconds() || seconds > now + 60) {
      throw new DeviceBindingException(Reason.STALE, "the proof's iat is too far from now: sign a fresh proof"
          + " (and check the device's clock)");
    }
  }

  /** Builds a {@link DeviceProof} verifier. */
  public static final class Builder {
    private final Challenges challenges;
    private int maxLength = 8192;
    private final Set<String> algorithms = new LinkedHashSet<>(List.of(DbscNames.ES256, DbscNames.RS256));
    private boolean requireAudience;
    private Clock clock = Clock.systemUTC();

    private Builder(Challenges challenges) {
      this.challenges = Objects.requireNonNull(challenges, "challenges");
    }

    /**
     * The longest proof read, in characters, checked before any parsing; 8192 if not set (an RSA
     * 4096 registration proof is about 2,000), 512 to 65536.
     */
    public Builder maxLength(int chars) {
      if (chars < 512 || chars > 65536) {
        throw new IllegalArgumentException("maxLength must be 512 to 65536 characters; got " + chars);
      }
      this.maxLength = chars;
      return this;
    }

    /**
     * The algorithms accepted, a non-empty subset of {@code ES256} and {@code RS256} (both if not
     * set); the registration header should offer the same.
     *
     * @throws IllegalArgumentException for any other name ({@code none} and HMAC included)
     */
    public Builder algorithms(String first, String... more) {
      Set<String> chosen = ProofAlgorithms.checked(first, more);
      algorithms.clear();
      algorithms.addAll(chosen);
      return this;
    }

    /**
     * Whether a proof without {@code aud} is refused when an audience is expected; false if not
     * set, since the draft does not require {@code aud} (an {@code aud} that is present must
     * always match).
     */
    public Builder requireAudience(boolean require) {
      this.requireAudience = require;
      return this;
    }

    /** The clock for the {@code iat} check; {@link Clock#systemUTC()} if not set. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Builds the verifier. */
    public DeviceProof build() {
      return new DeviceProof(this);
    }
  }
}
