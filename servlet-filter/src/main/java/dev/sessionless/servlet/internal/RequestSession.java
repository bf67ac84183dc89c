package dev.sessionless.servlet.internal;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.session.internal.StoredState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The session state of one request and all its dispatches: decodes the incoming token on first
 * use, tracks changes, and writes the token (at most once per change) before the response
 * commits. Stored as a request attribute, so forwards, includes, error and async dispatches see
 * the same session. Reading the incoming token is {@link IncomingSession}'s, the next token's
 * claims {@link NextClaims}', and what a logout writes to the revocation store {@link
 * LogoutRevocation}'s: this class holds the request's state and its lock.
 */
public final class RequestSession {
  /** The state name holding the session's own metadata; refused as an attribute name. */
  public static final String META = StoredState.META;
  /** The request attribute holding this object. */
  public static final String ATTRIBUTE = RequestSession.class.getName();
  /**
   * The request attribute holding the session's {@code auth_time} as an {@link Instant} while it
   * has one (see {@code SessionlessFilter.AUTH_TIME_ATTRIBUTE}).
   */
  public static final String AUTH_TIME_ATTRIBUTE = "dev.sessionless.servlet.authTime";
  /** What {@code getRequestedSessionId()} answers for a token that was rejected. */
  static final String REJECTED_ID = "rejected";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Settings settings;
  private final HttpServletRequest request;
  private final String rejectionAttribute;
  /** How many filter invocations are on the stack for this request. */
  int depth;
  private boolean loaded;
  /** Decoding failed on this side: no session for this request, and nothing is written. */
  private boolean failed;
  private Carrier.Incoming incoming = Carrier.Incoming.NONE;
  private SessionToken token;
  private TokenException.Reason rejection;
  private TokenHttpSession session;
  /** The requested session was invalidated (or rejected) and no new one replaced it yet. */
  private boolean clearPending;
  private boolean renewalPending;
  private boolean checkedInPlace;
  private List<String> written = List.of();
  /** A change made after the response committed was reported for this request (once). */
  private boolean droppedReported;
  /** The incoming token's claims no longer apply: the session it carried was invalidated. */
  private boolean tokenEnded;
  /** Set at login in this request: the subject to write, and when it authenticated (millis). */
  private String loginSubject;
  private long authTimeMillis = -1;

  /** State for {@code request}; nothing is decoded yet. */
  public RequestSession(Settings settings, HttpServletRequest request, String rejectionAttribute) {
    this.settings = settings;
    this.request = request;
    this.rejectionAttribute = rejectionAttribute;
  }

  Settings settings() {
    return settings;
  }

  HttpServletRequest request() {
    return request;
  }

  /**
   * Decodes the incoming token, once. Rejections start a fresh (absent) session. A failure on
   * this side (a key source that throws, a reason that is no rejection, any other exception
   * while reading the token or its state) is thrown to the first caller and logged; for the rest
   * of the request the session is unavailable: none is read, none can be created, and the
   * client's cookie is left alone so nothing is lost.
   *
   * <p>Holds the lock but does no I/O: the key and revocation sources answer from memory (their
   * contract), so a virtual thread is never pinned here waiting on the network.
   */
  synchronized void load() {
    if (loaded) {
      return;
    }
    loaded = true;
    IncomingSession in;
    try {
      in = IncomingSession.read(this, settings);
    } catch (RuntimeException e) {
      // Only a client's bad token is a rejection (handled inside); anything else thrown while
      // reading the session (our bug, a clock or store that fails) is a server error, logged and
      // counted once here, and leaves the session unavailable for the rest of the request: were
      // it to look like "no session", the next getSession(true) would write a fresh cookie over
      // the client's good one.
      throw failed(e);
    }
    incoming = in.incoming;
    if (in.rejection != null) {
      if (!in.reported) {
        settings.log.rejected(in.rejection);
        settings.listener.sessionRejected(in.rejection);
      }
      rejected(in.rejection);
    } else if (in.session != null) {
      token = in.token;
      session = in.session;
      renewalPending = in.renewalPending;
      publishAuthTime();
    }
  }

  private RuntimeException failed(RuntimeException e) {
    failed = true;
    settings.log.internalFailure(e);
    // A revocation source that is down reports as itself (an outage, answered 503), not as our bug.
    settings.listener.sessionRejected(e instanceof TokenException && !((TokenException) e).reason().isRejection()
        ? ((TokenException) e).reason() : TokenException.Reason.INTERNAL);
    return e;
  }

  private void rejected(TokenException.Reason reason) {
    rejection = reason;
    token = null;
    session = null;
    clearPending = true;
    request.setAttribute(rejectionAttribute, reason);
    publishAuthTime();
  }

  /**
   * When the current session was authenticated ({@code auth_time}) as its next token will say:
   * now if this request logged in (or changed the session id), else the incoming token's, else
   * none (a session that never logged in, or one invalidated in this request).
   */
  public synchronized Optional<Instant> authTime() {
    load();
    return currentAuthTime();
  }

  private Optional<Instant> currentAuthTime() {
    if (session == null || !session.valid) {
      return Optional.empty();
    }
    if (authTimeMillis >= 0) {
      return Optional.of(Instant.ofEpochSecond(Math.floorDiv(authTimeMillis, 1000L)));
    }
    if (token != null && !tokenEnded) {
      try {
        return token.authTime();
      } catch (TokenException e) {
        return Optional.empty(); // not a plain NumericDate: the token's claim counts as absent
      }
    }
    return Optional.empty();
  }

  /**
   * Keeps the request attribute {@link #AUTH_TIME_ATTRIBUTE} equal to {@link #authTime()}, for
   * readers that must not depend on this module (the propagation module's edge filter).
   */
  private void publishAuthTime() {
    Optional<Instant> t = currentAuthTime();
    if (t.isPresent()) {
      request.setAttribute(AUTH_TIME_ATTRIBUTE, t.get());
    } else {
      request.removeAttribute(AUTH_TIME_ATTRIBUTE);
    }
  }

  synchronized TokenException.Reason rejection() {
    load();
    return rejection;
  }

  /** The current valid session, creating one if asked; {@code null} otherwise. */
  synchronized TokenHttpSession session(boolean create, HttpServletResponse response) {
    load();
    if (session != null && session.valid) {
      return session;
    }
    if (!create) {
      return null;
    }
    if (failed) {
      throw new IllegalStateException("the session is unavailable: the session token could not be read"
          + " because of a failure on this server (see the log)");
    }
    if (response != null && response.isCommitted()) {
      throw new IllegalStateException("cannot create a session after the response has been committed");
    }
    long now = settings.clock.millis();
    session = new TokenHttpSession(this, settings.attributes, request.getServletContext(), null, newId(), now, now,
        settings.maxInactiveSeconds, true);
    session.dirty = true;
    return session;
  }

  synchronized String changeSessionId() {
    load();
    if (session == null || !session.valid) {
      throw new IllegalStateException("changeSessionId: the request has no session");
    }
    session.id = newId();
    session.dirty = true;
    // Changing the id is how servlet code marks a login: the session is authenticated now.
    authTimeMillis = settings.clock.millis();
    publishAuthTime();
    return session.id;
  }

  /**
   * Marks a login: the session (created if need be) gets a new id, the subject, and an {@code
   * auth_time} of now.
   */
  public synchronized String loggedIn(String subject, HttpServletResponse response) {
    session(true, response);
    String id = changeSessionId();
    loginSubject = subject;
    return id;
  }

  /**
   * The session {@code s} was invalidated: it ends here, and its cookie is cleared. With a
   * revocation store, returns what the caller writes there once it has released this lock
   * (logout that holds: a copy of the cookie stops working on every node); else {@code null}.
   */
  synchronized LogoutRevocation invalidated(TokenHttpSession s) {
    if (s != session) {
      return null;
    }
    clearPending = token != null || incoming.present() || !written.isEmpty();
    LogoutRevocation revocation = null;
    if (settings.revocations != null && token != null && !tokenEnded) {
      revocation = LogoutRevocation.ofSession(settings, s, token.id(), token.expiresAt().toEpochMilli(),
          !s.id.equals(token.id()) && !written.isEmpty() ? s.id : null);
    }
    ended();
    return revocation;
  }

  private void ended() {
    tokenEnded = true;
    loginSubject = null;
    authTimeMillis = -1;
    publishAuthTime();
  }

  synchronized String requestedId() {
    load();
    if (token != null) {
      return token.id();
    }
    return rejection != null ? REJECTED_ID : null;
  }

  synchronized boolean requestedIdValid() {
    load();
    return token != null && session != null && session.valid && session.id.equals(token.id());
  }

  synchronized boolean requestedFromCookie() {
    return settings.carrier.isCookie() && requestedId() != null;
  }

  private static String newId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * Writes the token if it must be written, before the response commits.
   *
   * @param full also look for attribute values changed in place (re-serialises them)
   */
  public synchronized void checkpoint(HttpServletRequest req, HttpServletResponse raw, boolean full) {
    if (!loaded || failed || raw.isCommitted()) {
      return;
    }
    boolean lost = !written.isEmpty() && !settings.carrier.present(raw, written);
    TokenHttpSession s = session != null && session.valid ? session : null;
    if (s != null) {
      try {
        boolean inPlace = false;
        if (full || !checkedInPlace) {
          checkedInPlace = true;
          inPlace = s.mutatedInPlace();
        }
        if (s.dirty || inPlace || renewalPending || lost) {
          writeSession(req, raw, s);
        }
      } finally {
        s.forgetCurrent(); // a value may change again before the next checkpoint
      }
    } else if (clearPending || lost) {
      if (install(req, raw, null)) {
        clearPending = false;
      }
    }
  }

  /**
   * The last look at the session, when the request is over: writes it if the response is still
   * open; otherwise a change the application made after the response committed (the cookie can
   * no longer carry it) is reported once, to the log and the listener, instead of being lost
   * without a word.
   */
  public synchronized void finish(HttpServletRequest req, HttpServletResponse raw) {
    if (!loaded || failed) {
      return;
    }
    if (!raw.isCommitted()) {
      checkpoint(req, raw, true);
      return;
    }
    if (droppedReported) {
      return;
    }
    String what = changeAfterCommit();
    if (what != null) {
      droppedReported = true;
      settings.log.changeDropped(what);
      settings.listener.sessionChangeDropped(what);
    }
  }

  /**
   * What changed that was not written: {@code attribute} (an attribute set or removed, the id or
   * max-inactive interval changed), {@code in-place} (a value the application held changed
   * without a {@code setAttribute}), {@code invalidate} (the session ended); or {@code null}.
   */
  private String changeAfterCommit() {
    TokenHttpSession s = session != null && session.valid ? session : null;
    if (s != null) {
      if (s.dirty) {
        return "attribute";
      }
      try {
        return s.mutatedInPlace() ? "in-place" : null;
      } finally {
        s.forgetCurrent();
      }
    }
    return clearPending && tokenEnded ? "invalidate" : null;
  }

  private void writeSession(HttpServletRequest req, HttpServletResponse raw, TokenHttpSession s) {
    long now = settings.clock.millis();
    long absoluteEnd = s.created + settings.absoluteLifetimeSeconds * 1000L;
    long remaining = (absoluteEnd - now) / 1000L;
    long ttl = s.maxInactive > 0 ? Math.min(s.maxInactive, remaining) : remaining;
    if (ttl < 1) {
      // The absolute lifetime is over: the session ends here.
      s.valid = false;
      install(req, raw, null);
      return;
    }
    Claims claims = NextClaims.of(settings, s, token != null && !tokenEnded ? token : null, loginSubject,
        authTimeMillis, ttl);
    if (!install(req, raw, (prefix, suffix) -> settings.codec.encode(claims, prefix, suffix))) {
      return;
    }
    s.written();
    renewalPending = false;
    clearPending = false;
  }

  /**
   * Writes the carrier headers; false if the container ignored them (an included servlet may
   * not change headers: Tomcat enforces that below any wrapper), so a later checkpoint retries.
   */
  private boolean install(HttpServletRequest req, HttpServletResponse raw, Carrier.Token text) {
    List<String> now = settings.carrier.write(req, raw, text, incoming, written);
    if (!now.isEmpty() && !settings.carrier.present(raw, now)) {
      return false;
    }
    written = now;
    if (text != null) {
      settings.cookiesWritten(now);
    }
    return true;
  }

  /** The reason the incoming token was rejected, if it was (and it was looked at). */
  public synchronized Optional<TokenException.Reason> rejectionIfLoaded() {
    return Optional.ofNullable(loaded ? rejection : null);
  }
}
