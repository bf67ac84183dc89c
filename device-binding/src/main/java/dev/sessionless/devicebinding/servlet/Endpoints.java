package dev.sessionless.devicebinding.servlet;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.Challenges;
import dev.sessionless.devicebinding.DbscHeaders;
import dev.sessionless.devicebinding.DbscNames;
import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.DeviceProof;
import dev.sessionless.devicebinding.SessionBinding;
import dev.sessionless.devicebinding.SessionConfiguration;
import dev.sessionless.devicebinding.VerifiedProof;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * The registration and refresh endpoints. Neither calls the rest of the chain: the application
 * (and any CSRF filter after this one) never sees them. Every answer carries the draft's
 * refresh-endpoint hygiene: no caching, no framing, not readable cross-origin, and never {@code
 * Access-Control-Allow-Credentials}.
 */
final class Endpoints {
  /** Refusals the browser answers by signing the fresh challenge (403); every other 4xx ends its session. */
  private static final Set<Reason> RETRY = EnumSet.of(Reason.EXPIRED, Reason.REPLAYED, Reason.STALE,
      Reason.WRONG_CHALLENGE, Reason.MALFORMED);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final DeviceBindingFilter filter;
  private final Challenges challenges;
  private final DeviceProof proofs;
  private final BindingTokens tokens;
  private final Duration nextChallengeWindow;

  Endpoints(DeviceBindingFilter filter, Challenges challenges, DeviceProof proofs, BindingTokens tokens) {
    this.filter = filter;
    this.challenges = challenges;
    this.proofs = proofs;
    this.tokens = tokens;
    // The next refresh's challenge must outlive the bound cookie, or every refresh costs a 403.
    Duration w = tokens.boundLifetime.plusMinutes(2);
    this.nextChallengeWindow = w.compareTo(Duration.ofDays(1)) > 0 ? Duration.ofDays(1) : w;
  }

  /** The registration endpoint: verify the proof, bind the session, set both cookies, answer the instructions. */
  void register(HttpServletRequest req, HttpServletResponse res) throws IOException {
    hygiene(res);
    if (!"POST".equals(req.getMethod())) {
      notPost(res);
      return;
    }
    try {
      String header = req.getHeader(DbscNames.RESPONSE_HEADER);
      if (header == null) {
        throw new DeviceBindingException(Reason.MALFORMED, "no " + DbscNames.RESPONSE_HEADER + " header: post the"
            + " registration proof");
      }
      HttpSession session = req.getSession(false);
      if (session == null) {
        throw new DeviceBindingException(Reason.NO_SESSION, "no session to bind: register from the response that"
            + " offered it, with its cookies");
      }
      VerifiedProof proof = proofs.verifyRegistration(DbscHeaders.readProof(header), session.getId(), null, null);
      byte[] raw = new byte[16];
      RANDOM.nextBytes(raw);
      String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      session.setAttribute(DeviceBindingFilter.SESSION_ATTRIBUTE, id);
      tokens.write(req, res, id, SessionBinding.of(proof.key(), Instant.EPOCH));
      res.setHeader(DbscNames.CHALLENGE_HEADER,
          DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, id, nextChallengeWindow), id));
      String json = SessionConfiguration.builder(id)
          .refreshUrl(req.getContextPath() + filter.refreshPath)
          .scope(null, false)
          .cookie(tokens.boundName, BindingTokens.boundAttributes(req.getContextPath()))
          .toJson();
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      res.setStatus(200);
      res.setContentType("application/json");
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    } catch (DeviceBindingException e) {
      fail(req, res, e, e.reason() == Reason.NO_SESSION ? 401 : 400, null);
    } catch (TokenException e) {
      filter.outage(req, res, e);
    }
  }

  /** The refresh endpoint: 403 with a challenge, or verify the proof against the long-lived token and renew. */
  void refresh(HttpServletRequest req, HttpServletResponse res) throws IOException {
    hygiene(res);
    if (!"POST".equals(req.getMethod())) {
      notPost(res);
      return;
    }
    String id = null;
    try {
      String cookie = BindingTokens.cookie(req, tokens.longLivedName);
      if (cookie == null) {
        throw new DeviceBindingException(Reason.NO_SESSION, "no long-lived DBSC cookie: register again");
      }
      SessionToken token;
      try {
        token = tokens.longLived.decode(cookie);
      } catch (TokenException e) {
        if (!e.reason().isRejection()) {
          throw e;
        }
        throw new DeviceBindingException(Reason.NO_SESSION, "the long-lived DBSC cookie is not valid ("
            + e.reason() + "): register again");
      }
      id = token.id();
      String named = req.getHeader(DbscNames.SESSION_ID_HEADER);
      if (named == null) {
        throw new DeviceBindingException(Reason.WRONG_SESSION, "no " + DbscNames.SESSION_ID_HEADER + " header: only"
            + " the browser's DBSC refresh is answered here");
      }
      if (!MessageDigest.isEqual(DbscHeaders.readSessionId(named).getBytes(StandardCharsets.UTF_8),
          id.getBytes(StandardCharsets.UTF_8))) {
        throw new DeviceBindingException(Reason.WRONG_SESSION, "the " + DbscNames.SESSION_ID_HEADER + " header"
            + " names another session than the long-lived cookie");
      }
      SessionBinding binding = SessionBinding.read(token).orElseThrow(() -> new DeviceBindingException(
          Reason.INTERNAL, "a long-lived DBSC token without a binding: check what else signs tokens with these keys"));
      String proofHeader = req.getHeader(DbscNames.RESPONSE_HEADER);
      if (proofHeader == null) {
        challenge(res, id, 403);
        return;
      }
      VerifiedProof proof = proofs.verifyRefresh(DbscHeaders.readProof(proofHeader), id, binding.key(),
          binding.lastRefresh(), null);
      tokens.write(req, res, id, binding.refreshedWith(proof));
      res.setHeader(DbscNames.CHALLENGE_HEADER,
          DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, id, nextChallengeWindow), id));
      res.setStatus(200);
      res.setContentLength(0);
    } catch (DeviceBindingException e) {
      boolean retry = id != null && RETRY.contains(e.reason());
      fail(req, res, e, retry ? 403 : 401, retry ? id : null);
    } catch (TokenException e) {
      filter.outage(req, res, e);
    }
  }

  private void challenge(HttpServletResponse res, String id, int status) {
    res.setHeader(DbscNames.CHALLENGE_HEADER, DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, id), id));
    res.setStatus(status);
    res.setContentLength(0);
  }

  private void fail(HttpServletRequest req, HttpServletResponse res, DeviceBindingException e, int status,
      String challengeFor) throws IOException {
    if (!e.reason().isRejection()) {
      filter.outage(req, res, e);
      return;
    }
    if (challengeFor != null) {
      try {
        res.setHeader(DbscNames.CHALLENGE_HEADER, DbscHeaders.challenge(
            challenges.issue(Purpose.REFRESH, challengeFor), challengeFor));
      } catch (DeviceBindingException outage) {
        filter.outage(req, res, outage);
        return;
      }
    }
    filter.refuse(req, res, status, e);
  }

  private static void notPost(HttpServletResponse res) {
    res.setStatus(405);
    res.setHeader("Allow", "POST");
    res.setContentLength(0);
  }

  /** The draft's refresh-endpoint considerations: no caching, no framing, no cross-origin reads. */
  static void hygiene(HttpServletResponse res) {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    res.setHeader("X-Content-Type-Options", "nosniff");
  }
}
