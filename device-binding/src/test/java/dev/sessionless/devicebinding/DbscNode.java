package dev.sessionless.devicebinding;

import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.devicebinding.Challenge.Purpose;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * One stateless application node speaking DBSC with this module, as the servlet filter will:
 * it keeps nothing between calls. The long-lived token carries the session identifier, the
 * device key ({@code cnf.jkt} and {@code cnf.jwk}) and the last refresh time; the short-lived
 * bound cookie carries the session identifier. Two nodes built on one key set answer for each
 * other.
 */
final class DbscNode {
  static final String ORIGIN = "https://shop.example";
  static final String REGISTER_URL = ORIGIN + "/dbsc/register";
  static final String REFRESH_URL = ORIGIN + "/dbsc/refresh";
  static final Duration BOUND_TTL = Duration.ofMinutes(5);

  final Challenges challenges;
  final DeviceProof proofs;
  final TokenCodec longLived;
  final TokenCodec bound;

  DbscNode(KeySet keys, Clock clock) {
    challenges = Challenges.builder().keys(keys).issuer(ORIGIN).clock(clock).build();
    proofs = DeviceProof.verifier(challenges).clock(clock).build();
    longLived = TokenCodec.builder().keys(keys).issuer(ORIGIN).audience("dbsc-session").tokenType("dbsc-session+jwt")
        .timeToLive(Duration.ofDays(30)).clock(clock).build();
    bound = TokenCodec.builder().keys(keys).issuer(ORIGIN).audience("shop").timeToLive(BOUND_TTL)
        .clock(clock).build();
  }

  /** What a node answers: a status and the headers and cookies that matter here. */
  record Answer(int status, String challengeHeader, String instructions, String longLivedToken, String boundCookie,
      DeviceBindingException refusal) {}

  /** The registration header a login response carries; the login session's id is the registration context. */
  String registrationHeader(String loginSessionId, String authorization) {
    DbscHeaders.Registration r = DbscHeaders.registration().path("/dbsc/register")
        .challenge(challenges.issue(Purpose.REGISTRATION, loginSessionId));
    return (authorization == null ? r : r.authorization(authorization)).build();
  }

  /** The registration endpoint. */
  Answer register(String responseHeader, String loginSessionId, String authorization) {
    VerifiedProof proof;
    try {
      proof = proofs.verifyRegistration(DbscHeaders.readProof(responseHeader), loginSessionId, REGISTER_URL,
          authorization);
    } catch (DeviceBindingException e) {
      return new Answer(e.reason().isRejection() ? 400 : 503, null, null, null, null, e);
    }
    String sessionId = "dbsc-" + loginSessionId;
    String instructions = SessionConfiguration.builder(sessionId).refreshUrl("/dbsc/refresh").scope(ORIGIN, false)
        .cookie("sl_bound", "Path=/; Secure; HttpOnly; SameSite=Lax").toJson();
    return new Answer(200, null, instructions, longLivedToken(sessionId, SessionBinding.of(proof.key(), Instant.EPOCH)),
        boundCookie(sessionId), null);
  }

  /** The refresh endpoint: the long-lived token arrives as a cookie, the proof (if any) as a header. */
  Answer refresh(String sessionIdHeader, String longLivedToken, String responseHeader) {
    SessionToken token;
    try {
      token = longLived.decode(longLivedToken);
    } catch (TokenException e) {
      return new Answer(401, null, null, null, null, null);
    }
    String sessionId = token.id();
    if (sessionIdHeader == null || !DbscHeaders.readSessionId(sessionIdHeader).equals(sessionId)) {
      return new Answer(401, null, null, null, null, null);
    }
    SessionBinding binding = SessionBinding.read(token).orElseThrow();
    DeviceKey key = binding.key();
    Instant lastRefresh = binding.lastRefresh();
    String challengeHeader = DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, sessionId), sessionId);
    if (responseHeader == null) {
      return new Answer(403, challengeHeader, null, null, null, null);
    }
    VerifiedProof proof;
    try {
      proof = proofs.verifyRefresh(DbscHeaders.readProof(responseHeader), sessionId, key, lastRefresh, REFRESH_URL);
    } catch (DeviceBindingException e) {
      return new Answer(e.reason().isRejection() ? 403 : 503, challengeHeader, null, null, null, e);
    }
    // The next refresh's challenge outlives the bound cookie, so that refresh needs no 403.
    String next = challenges.issue(Purpose.REFRESH, sessionId, BOUND_TTL.plusMinutes(2));
    return new Answer(200, DbscHeaders.challenge(next, sessionId), null,
        longLivedToken(sessionId, binding.refreshedWith(proof)), boundCookie(sessionId), null);
  }

  /** Whether an application request with this bound cookie gets through. */
  boolean accepts(String boundCookie) {
    try {
      bound.decode(boundCookie);
      return true;
    } catch (TokenException e) {
      return false;
    }
  }

  private String longLivedToken(String sessionId, SessionBinding binding) {
    return longLived.encode(binding.writeTo(Claims.builder().sessionId(sessionId)).build());
  }

  private String boundCookie(String sessionId) {
    return bound.encode(Claims.builder().sessionId(sessionId).build());
  }
}
