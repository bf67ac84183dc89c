package dev.sessionless.devicebinding;
// Over 400 lines on purpose: the one engine both adapters share (the class comment says why).

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * DBSC's server side without I/O: what the registration and refresh endpoints answer, whether an
 * ordinary request of a session may go on, and the registration offer. The servlet {@code
 * DeviceBindingFilter} and the WebFlux {@code DeviceBindingWebFilter} are thin wrappers that read
 * the request's method, headers, cookies and session into these methods and write the {@link
 * Answer} back; everything they decide is decided here, once. Made by an adapter's builder
 * ({@link DeviceBindingBuilder#engine}).
 *
 * <p>Everything here is CPU work (token codecs, one proof signature check per refresh, random
 * session ids from a DRBG seeded when the engine is built): no call blocks, so a reactive adapter
 * may call it on its event loop. The one exception is the optional used-challenge store ({@link
 * DeviceBindingBuilder#usedChallenges}): {@link #register} and {@link #refresh} then write to it
 * (Redis: a network call), so a reactive adapter runs those two off its event loop when {@link
 * #recordsUsedChallenges} (the look-up is the store's in-memory copy; {@link #check}, the
 * per-request path, never touches the store). Thread-safe.
 *
 * <p>Somewhat over 400 lines on purpose: the endpoints' decisions, their answers and the outage
 * rule they share are one protocol's state machine, read together.
 */
public final class DeviceBindingEngine {
  /** The session attribute holding the DBSC session id (a String) once the session is bound; both adapters use it. */
  public static final String SESSION_ATTRIBUTE = "dev.sessionless.devicebinding.session";
  /** Refusals the browser answers by signing the fresh challenge (403); every other 4xx ends its session. */
  private static final Set<Reason> RETRY = EnumSet.of(Reason.EXPIRED, Reason.REPLAYED, Reason.STALE,
      Reason.WRONG_CHALLENGE, Reason.MALFORMED);
  /** The draft's refresh-endpoint considerations: no caching, no framing, no cross-origin reads. */
  private static final List<Map.Entry<String, String>> HYGIENE = List.of(Map.entry("Cache-Control", "no-store"),
      Map.entry("X-Frame-Options", "DENY"), Map.entry("Content-Security-Policy", "frame-ancestors 'none'"),
      Map.entry("Cross-Origin-Resource-Policy", "same-origin"), Map.entry("X-Content-Type-Options", "nosniff"));

  /**
   * What to send: status, headers in order ({@code Set-Cookie} may repeat), a JSON body or null,
   * the refusal's reason (null when none) and, after a registration, the new DBSC session id the
   * adapter stores in the session under {@link #SESSION_ATTRIBUTE} (null otherwise).
   *
   * @param status the HTTP status
   * @param headers the headers to add, in order
   * @param json the {@code application/json} body, or null for none
   * @param reason why the request was refused (also for outages: {@code UNAVAILABLE}, {@code INTERNAL}), or null
   * @param bind the DBSC session id to store in the session, or null
   */
  public record Answer(int status, List<Map.Entry<String, String>> headers, String json, Reason reason, String bind) {
    /** Copies the header list. */
    public Answer {
      headers = List.copyOf(headers);
    }

    /** The body's bytes (UTF-8), empty when there is none. */
    public byte[] body() {
      return json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
    }
  }

  private final System.Logger log;
  private final String registrationPath;
  private final String refreshPath;
  private final Challenges challenges;
  private final DeviceProof proofs;
  private final BindingTokens tokens;
  private final UnboundPolicy policy;
  private final Duration unboundLifetime;
  private final List<String> requireBound;
  private final String[] proofAlgorithms;
  private final Clock clock;
  private final Duration nextChallengeWindow;
  private final SecureRandom random;
  private final boolean recordsUsed;

  DeviceBindingEngine(DeviceBindingBuilder<?> b, Class<?> adapter) {
    log = System.getLogger(adapter.getName());
    registrationPath = b.registrationPath;
    refreshPath = b.refreshPath;
    challenges = Challenges.builder().keys(b.keys).algorithm(b.algorithm).issuer(b.issuer)
        .window(b.challengeWindow).clock(b.clock).usedChallenges(b.usedChallenges).build();
    String[] more = Arrays.copyOfRange(b.proofAlgorithms, 1, b.proofAlgorithms.length);
    proofs = DeviceProof.verifier(challenges).algorithms(b.proofAlgorithms[0], more).clock(b.clock).build();
    tokens = new BindingTokens(b);
    policy = b.unboundPolicy;
    unboundLifetime = b.unboundLifetime;
    requireBound = List.copyOf(b.requireBound);
    proofAlgorithms = b.proofAlgorithms.clone();
    clock = b.clock;
    recordsUsed = b.usedChallenges != null;
    // The next refresh's challenge must outlive the bound cookie, or every refresh costs a 403.
    Duration w = b.boundLifetime.plusMinutes(2);
    nextChallengeWindow = w.compareTo(Duration.ofDays(1)) > 0 ? Duration.ofDays(1) : w;
    try {
      // A DRBG seeded here, at build time: the platform default (NativePRNG) reads /dev/urandom
      // again whenever its buffer is old, a file read on a reactive adapter's event loop.
      random = SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no DRBG SecureRandom (JDK 9+ always has)", e);
    }
    random.nextBytes(new byte[16]);
  }

  /**
   * Whether {@link #register} and {@link #refresh} record used challenges in a revocation store
   * (a write that may block on the network): a reactive adapter then runs them off its event loop.
   */
  public boolean recordsUsedChallenges() {
    return recordsUsed;
  }

  /** The registration endpoint's path, within the context path. */
  public String registrationPath() {
    return registrationPath;
  }

  /** The refresh endpoint's path, within the context path. */
  public String refreshPath() {
    return refreshPath;
  }

  /** The bound cookie's name. */
  public String boundCookieName() {
    return tokens.boundName;
  }

  /** The long-lived cookie's name (sent to the refresh endpoint only). */
  public String longLivedCookieName() {
    return tokens.longLivedName;
  }

  /**
   * Whether an ordinary request (not one of the two endpoints) may go on: null if so, else the
   * refusal to send. The request's session is bound when {@code dbscSession} (its {@link
   * #SESSION_ATTRIBUTE}) is a String; it then needs a valid {@code boundCookie} for that id.
   *
   * @param path the request's path within the context path
   * @param hasSession whether the request has a session (a cookie it came with, or one started)
   * @param dbscSession the session's {@link #SESSION_ATTRIBUTE}, or null
   * @param boundCookie the request's bound cookie, or null
   * @param authTime when the session was authenticated ({@code auth_time}), asked only when the policy needs it
   */
  public Answer check(String path, boolean hasSession, Object dbscSession, String boundCookie,
      Supplier<Optional<Instant>> authTime) {
    Reason refusal;
    try {
      refusal = refusal(path, hasSession, dbscSession, boundCookie, authTime);
    } catch (TokenException e) {
      return outage(e, path);
    }
    if (refusal == null) {
      return null;
    }
    String message = switch (refusal) {
      case NOT_BOUND -> "this session is bound to a device and the request carries no valid bound cookie: the"
          + " browser refreshes it at the refresh endpoint";
      case UNBOUND_REFUSED -> "this application needs a browser that binds its session to the device (DBSC)";
      case UNBOUND_EXPIRED -> "a session not bound to a device lives only a short time here: log in again";
      default -> "this route needs a session bound to the device (DBSC)";
    };
    return refuse(refusal == Reason.NOT_BOUND || refusal == Reason.UNBOUND_EXPIRED ? 401 : 403,
        new DeviceBindingException(refusal, message), List.of(), path);
  }

  private Reason refusal(String path, boolean hasSession, Object dbscSession, String boundCookie,
      Supplier<Optional<Instant>> authTime) {
    if (dbscSession instanceof String dbscId) {
      return boundCookie == null || !tokens.boundTo(boundCookie, dbscId) ? Reason.NOT_BOUND : null;
    }
    for (String pattern : requireBound) {
      if (matches(pattern, path)) {
        return Reason.BINDING_REQUIRED;
      }
    }
    if (!hasSession || policy == UnboundPolicy.ALLOW) {
      return null;
    }
    Optional<Instant> login = authTime.get();
    if (login.isEmpty()) {
      return null;
    }
    if (policy == UnboundPolicy.REFUSE) {
      return Reason.UNBOUND_REFUSED;
    }
    return clock.instant().isAfter(login.get().plus(unboundLifetime)) ? Reason.UNBOUND_EXPIRED : null;
  }

  private static boolean matches(String pattern, String path) {
    if (pattern.endsWith("/**")) {
      String prefix = pattern.substring(0, pattern.length() - 3);
      return path.equals(prefix) || path.startsWith(prefix + "/");
    }
    return path.equals(pattern);
  }

  /**
   * The {@code Secure-Session-Registration} value offering registration to the session {@code
   * sessionId} (its id after login), with the registration path under {@code contextPath}; or
   * null when the keys cannot be read now. The offer is optional (the draft lets a server offer
   * registration on any response it chooses, and a browser that is not offered one keeps an
   * unbound session), so an outage leaves the application's response as it is, without the
   * header, logged at WARNING: never a 500, and the login itself goes on. The session stays
   * unbound (its {@link UnboundPolicy} applies) until a later response offers again.
   *
   * @throws DeviceBindingException {@code INTERNAL} on a fault on this side (the keys hold no key
   *     for the algorithm, say)
   */
  public String registrationOffer(String contextPath, String sessionId) {
    String challenge;
    try {
      challenge = challenges.issue(Purpose.REGISTRATION, sessionId);
    } catch (DeviceBindingException e) {
      if (e.reason() != Reason.UNAVAILABLE) {
        throw e;
      }
      log.log(System.Logger.Level.WARNING, "DBSC: the key source is unavailable (" + e.reason() + "); registration"
          + " not offered on this response, the session stays unbound until a later offer");
      return null;
    }
    String[] more = Arrays.copyOfRange(proofAlgorithms, 1, proofAlgorithms.length);
    return DbscHeaders.registration().algorithms(proofAlgorithms[0], more).path(contextPath + registrationPath)
        .challenge(challenge).build();
  }

  /**
   * The registration endpoint: verify the proof against a challenge for {@code sessionId}, and
   * answer both cookies and the session instructions, with {@link Answer#bind} the new DBSC
   * session id to store in the session.
   *
   * @param method the request's method (only {@code POST} is served)
   * @param contextPath the application's context path ("" for none)
   * @param sessionId the request's session id, or null when it has no session
   * @param proofHeader the {@code Secure-Session-Response} header, or null
   */
  public Answer register(String method, String contextPath, String sessionId, String proofHeader) {
    if (!"POST".equals(method)) {
      return notPost();
    }
    try {
      if (proofHeader == null) {
        throw new DeviceBindingException(Reason.MALFORMED, "no " + DbscNames.RESPONSE_HEADER + " header: post the"
            + " registration proof");
      }
      if (sessionId == null) {
        throw new DeviceBindingException(Reason.NO_SESSION, "no session to bind: register from the response that"
            + " offered it, with its cookies");
      }
      VerifiedProof proof = proofs.verifyRegistration(DbscHeaders.readProof(proofHeader), sessionId, null, null);
      byte[] raw = new byte[16];
      random.nextBytes(raw);
      String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      List<Map.Entry<String, String>> headers = renewed(contextPath, id, SessionBinding.of(proof.key(), Instant.EPOCH));
      String json = SessionConfiguration.builder(id)
          .refreshUrl(contextPath + refreshPath)
          .scope(null, false)
          .cookie(tokens.boundName, BindingTokens.boundAttributes(contextPath))
          .toJson();
      return new Answer(200, headers, json, null, id);
    } catch (DeviceBindingException e) {
      return fail(e, e.reason() == Reason.NO_SESSION ? 401 : 400, null, registrationPath);
    } catch (TokenException e) {
      return outage(e, registrationPath);
    }
  }

  /**
   * The refresh endpoint: a 403 with a challenge when there is no proof, else verify the proof
   * against the key in the long-lived cookie and renew both cookies.
   *
   * @param method the request's method (only {@code POST} is served)
   * @param contextPath the application's context path ("" for none)
   * @param longLivedCookie the long-lived cookie, or null
   * @param sessionIdHeader the {@code Sec-Secure-Session-Id} header, or null
   * @param proofHeader the {@code Secure-Session-Response} header, or null
   */
  public Answer refresh(String method, String contextPath, String longLivedCookie, String sessionIdHeader,
      String proofHeader) {
    if (!"POST".equals(method)) {
      return notPost();
    }
    String id = null;
    try {
      if (longLivedCookie == null) {
        throw new DeviceBindingException(Reason.NO_SESSION, "no long-lived DBSC cookie: register again");
      }
      SessionToken token;
      try {
        token = tokens.longLived.decode(longLivedCookie);
      } catch (TokenException e) {
        if (!e.reason().isRejection()) {
          throw e;
        }
        throw new DeviceBindingException(Reason.NO_SESSION, "the long-lived DBSC cookie is not valid ("
            + e.reason() + "): register again");
      }
      id = token.id();
      if (sessionIdHeader == null) {
        throw new DeviceBindingException(Reason.WRONG_SESSION, "no " + DbscNames.SESSION_ID_HEADER + " header: only"
            + " the browser's DBSC refresh is answered here");
      }
      if (!MessageDigest.isEqual(DbscHeaders.readSessionId(sessionIdHeader).getBytes(StandardCharsets.UTF_8),
          id.getBytes(StandardCharsets.UTF_8))) {
        throw new DeviceBindingException(Reason.WRONG_SESSION, "the " + DbscNames.SESSION_ID_HEADER + " header"
            + " names another session than the long-lived cookie");
      }
      SessionBinding binding = SessionBinding.read(token).orElseThrow(() -> new DeviceBindingException(
          Reason.INTERNAL, "a long-lived DBSC token without a binding: check what else signs tokens with these keys"));
      if (proofHeader == null) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(HYGIENE);
        headers.add(Map.entry(DbscNames.CHALLENGE_HEADER,
            DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, id), id)));
        return new Answer(403, headers, null, null, null);
      }
      VerifiedProof proof = proofs.verifyRefresh(DbscHeaders.readProof(proofHeader), id, binding.key(),
          binding.lastRefresh(), null);
      return new Answer(200, renewed(contextPath, id, binding.refreshedWith(proof)), null, null, null);
    } catch (DeviceBindingException e) {
      boolean retry = id != null && RETRY.contains(e.reason());
      return fail(e, retry ? 403 : 401, retry ? id : null, refreshPath);
    } catch (TokenException e) {
      return outage(e, refreshPath);
    }
  }

  /** The endpoint hygiene, both cookies, and the next refresh's challenge. */
  private List<Map.Entry<String, String>> renewed(String contextPath, String id, SessionBinding binding) {
    List<Map.Entry<String, String>> headers = new ArrayList<>(HYGIENE);
    for (String setCookie : tokens.setCookies(contextPath, id, binding)) {
      headers.add(Map.entry("Set-Cookie", setCookie));
    }
    headers.add(Map.entry(DbscNames.CHALLENGE_HEADER,
        DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, id, nextChallengeWindow), id)));
    return headers;
  }

  private Answer fail(DeviceBindingException e, int status, String challengeFor, String path) {
    if (!e.reason().isRejection()) {
      return outage(e, path);
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>(HYGIENE);
    if (challengeFor != null) {
      try {
        headers.add(Map.entry(DbscNames.CHALLENGE_HEADER, DbscHeaders.challenge(
            challenges.issue(Purpose.REFRESH, challengeFor), challengeFor)));
      } catch (DeviceBindingException outage) {
        return outage(outage, path);
      }
    }
    return refuse(status, e, headers, path);
  }

  private static Answer notPost() {
    List<Map.Entry<String, String>> headers = new ArrayList<>(HYGIENE);
    headers.add(Map.entry("Allow", "POST"));
    return new Answer(405, headers, null, null, null);
  }

  /** A refusal of the client: {@code status}, no caching, JSON naming the reason. */
  private Answer refuse(int status, DeviceBindingException e, List<Map.Entry<String, String>> endpointHeaders,
      String path) {
    log.log(System.Logger.Level.DEBUG, () -> "DBSC refused " + path + ": " + e.reason());
    List<Map.Entry<String, String>> headers = new ArrayList<>(endpointHeaders);
    if (endpointHeaders.isEmpty()) {
      headers.add(Map.entry("Cache-Control", "no-store"));
    }
    return new Answer(status, headers, json(e.reason()), e.reason(), null);
  }

  /**
   * An outage (503, {@code Retry-After}, logged at WARNING) or a fault on this side (500, logged
   * at ERROR); never the client's. At the endpoints, with their hygiene headers.
   */
  private Answer outage(RuntimeException e, String path) {
    String why = e instanceof DeviceBindingException d ? d.reason().toString()
        : e instanceof TokenException t ? t.reason().toString() : e.getClass().getName();
    boolean down = e instanceof DeviceBindingException d ? d.reason() == Reason.UNAVAILABLE
        : e instanceof TokenException t && (t.reason() == TokenException.Reason.KEY_SOURCE_UNAVAILABLE
            || t.reason() == TokenException.Reason.REVOCATION_UNAVAILABLE);
    if (down) {
      log.log(System.Logger.Level.WARNING, "DBSC: the key source or the used-challenge store is"
          + " unavailable (" + why + "); answered 503");
    } else {
      log.log(System.Logger.Level.ERROR, "DBSC: a fault on this side (" + why + ") at " + path, e);
    }
    Reason reason = down ? Reason.UNAVAILABLE : Reason.INTERNAL;
    boolean endpoint = path.equals(registrationPath) || path.equals(refreshPath);
    List<Map.Entry<String, String>> headers = new ArrayList<>(endpoint ? HYGIENE : List.of(Map.entry(
        "Cache-Control", "no-store")));
    if (down) {
      headers.add(Map.entry("Retry-After", "5"));
    }
    return new Answer(down ? 503 : 500, headers, json(reason), reason, null);
  }

  private static String json(Reason reason) {
    return "{\"error\":\"device_binding\",\"reason\":\"" + reason + "\"}";
  }
}
