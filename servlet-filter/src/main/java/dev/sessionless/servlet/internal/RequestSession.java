package dev.sessionless.servlet.internal;

import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.internal.StateAccess;
import dev.sessionless.core.TokenException;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.SecureRandom;
import dev.sessionless.core.RevocationStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The session state of one request and all its dispatches: decodes the incoming token on first
 * use, tracks changes, and writes the token (at most once per change) before the response
 * commits. Stored as a request attribute, so forwards, includes, error and async dispatches see
 * the same session.
 */
public final class RequestSession {
  /** The state name holding the session's own metadata; refused as an attribute name. */
  public static final String META = "$sessionless";
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
  public int depth;
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

  /**
   * Decodes the incoming token, once. Rejections start a fresh (absent) session. A failure on
   * this side (a key source that throws, a reason that is no rejection, any other exception
   * while reading the token or its state) is thrown to the first caller and logged; for the rest of the request the session is unavailable: none is read,
   * none can be created, and the client's cookie is left alone so nothing is lost.
   */
  synchronized void load() {
    if (loaded) {
      return;
    }
    loaded = true;
    try {
      loadOnce();
    } catch (RuntimeException e) {
      // Only a client's bad token is a rejection (handled inside); anything else thrown while
      // reading the session (our bug, a clock or store that fails) is a server error, logged and
      // counted once here, and leaves the session unavailable for the rest of the request: were
      // it to look like "no session", the next getSession(true) would write a fresh cookie over
      // the client's good one.
      token = null;
      session = null;
      throw failed ? e : failed(e);
    }
  }

  private void loadOnce() {
    Carrier carrier = settings.carrier;
    incoming = carrier.read(request, carrier.maxTokenLength());
    if (!incoming.present()) {
      return;
    }
    if (incoming.problem != null) {
      reject(incoming.problem);
      return;
    }
    SessionToken t;
    try {
      t = settings.codec.decode(incoming.token, incoming.start, incoming.end);
    } catch (TokenException e) {
      if (e.reason().isRejection()) {
        reject(e.reason());
        return;
      }
      throw failed(e);
    } catch (RuntimeException e) {
      throw failed(e);
    }
    StoredState stored;
    try {
      stored = StoredState.of(t); // core's bytes and index, not a copy parsed again
    } catch (TokenException e) {
      if (!e.reason().isRejection()) {
        throw failed(e); // a failure on this side, not the client's token
      }
      // Our own signature vouches for the token, but not in this filter's format.
      reject(e.reason());
      return;
    }
    long now = settings.clock.millis();
    if (now >= stored.created + settings.absoluteLifetimeSeconds * 1000L) {
      reject(TokenException.Reason.EXPIRED);
      return;
    }
    TokenHttpSession s = new TokenHttpSession(this, settings.attributes, context(), t, t.id(), stored.created,
        StateAccess.issuedAtSecond(t) * 1000L, stored.maxInactive, false);
    for (Map.Entry<String, String> e : stored.types.entrySet()) {
      TokenHttpSession.Entry entry = new TokenHttpSession.Entry(e.getValue(), settings.attributes.resolve(e.getValue()));
      int[] span = stored.spans.get(e.getKey());
      entry.json(stored.bytes, span[0], span[1] - span[0]);
      boolean fits = entry.type != null;
      if (fits && settings.newSessionOnBadAttribute) {
        fits = s.read(e.getKey(), entry); // every value, now: a bad one must not surface later
      }
      if (!fits) {
        if (settings.newSessionOnBadAttribute) {
          settings.log.badAttribute(e.getKey(), entry.typeName, entry.problem(settings.attributes),
              "started a fresh session (bad-attribute policy new-session)");
          rejected(TokenException.Reason.STATE_MAPPING);
          return;
        }
        dropped(e.getKey(), entry);
        s.dirty = true; // the next token leaves it out
        continue;
      }
      s.entries.put(e.getKey(), entry);
    }
    token = t;
    session = s;
    publishAuthTime();
    long iat = StateAccess.issuedAtSecond(t); // no Instant per request
    long life = StateAccess.expiresAtSecond(t) - iat;
    renewalPending = (now / 1000 - iat) >= settings.renewalFraction * life;
  }

  /** A stored attribute that no longer reads back was left out of the session. */
  void dropped(String name, TokenHttpSession.Entry entry) {
    settings.log.badAttribute(name, entry.typeName, entry.problem(settings.attributes),
        "dropped it from the session (bad-attribute policy drop)");
  }

  private RuntimeException failed(RuntimeException e) {
    failed = true;
    settings.log.internalFailure(e);
    // A revocation source that is down reports as itself (an outage, answered 503), not as our bug.
    settings.listener.sessionRejected(e instanceof TokenException && !((TokenException) e).reason().isRejection()
        ? ((TokenException) e).reason() : TokenException.Reason.INTERNAL);
    return e;
  }

  private ServletContext context() {
    return request.getServletContext();
  }

  private void reject(TokenException.Reason reason) {
    settings.log.rejected(reason);
    settings.listener.sessionRejected(reason);
    rejected(reason);
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
    session = new TokenHttpSession(this, settings.attributes, context(), null, newId(), now, now,
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
   * Logs {@code subject} out everywhere: its sessions authenticated before now are rejected on
   * every node that reads the store, until the longest session could have lived.
   */
  public void logOutEverywhere(String subject) {
    RevocationStore store = revocationStore("logOutEverywhere");
    Instant now = settings.clock.instant();
    store.revokeSubject(subject, now, now.plusSeconds(settings.absoluteLifetimeSeconds + REVOCATION_MARGIN_SECONDS));
  }

  private RevocationStore revocationStore(String what) {
    if (settings.revocations == null) {
      throw new IllegalStateException(what + " needs a revocation store: configure the filter with"
          + " SessionlessFilter.Builder.revocation(RevocationStore) or the init parameter revocation");
    }
    return settings.revocations;
  }

  /**
   * How long past a token's expiry a revocation is kept: more than any reader's clock skew (the
   * codec accepts at most 10 minutes).
   */
  static final long REVOCATION_MARGIN_SECONDS = 600;

  synchronized void invalidated(TokenHttpSession s) {
    if (s == session) {
      clearPending = token != null || incoming.present() || !written.isEmpty();
      if (settings.revocations != null && token != null && !tokenEnded) {
        // Logout that holds: a copy of this session's cookie stops working on every node. Its
        // tokens (also one a parallel request renewed just now) expire by the absolute end or
        // by now plus the inactivity interval, whichever is first.
        long now = settings.clock.millis();
        long absoluteEnd = s.created + settings.absoluteLifetimeSeconds * 1000L;
        long lastExp = s.maxInactive > 0 ? Math.min(absoluteEnd, now + s.maxInactive * 1000L) : absoluteEnd;
        Instant until = Instant.ofEpochMilli(Math.max(lastExp, token.expiresAt().toEpochMilli()))
            .plusSeconds(REVOCATION_MARGIN_SECONDS);
        try {
          settings.revocations.revokeSession(token.id(), until);
          if (!s.id.equals(token.id()) && !written.isEmpty()) {
            settings.revocations.revokeSession(s.id, until);
          }
        } finally {
          // A store that cannot record the logout (an outage: REVOCATION_UNAVAILABLE, answered
          // 503 so the client can retry) still ends the session here, and its cookie is cleared.
          ended();
        }
        return;
      }
      ended();
    }
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
    // Values never read in this request are copied forward from the token: first make sure
    // each still reads back, so a renewal does not carry a broken value on to the next token.
    for (Iterator<Map.Entry<String, TokenHttpSession.Entry>> it = s.entries.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, TokenHttpSession.Entry> e = it.next();
      if (!e.getValue().loaded && !s.read(e.getKey(), e.getValue())) {
        dropped(e.getKey(), e.getValue());
        it.remove();
      }
    }
    // The claims are built here rather than from token.toClaims(): the state is exactly the
    // session's entries plus the metadata, so nothing the token carried is copied only to be
    // replaced. Every value goes to the writer as a byte range (the incoming token's own bytes
    // for a value never read), never as a String.
    boolean carry = token != null && !tokenEnded;
    Claims.Builder b = Claims.builder().sessionId(s.id).timeToLive(Duration.ofSeconds(ttl));
    if (carry) {
      String subject = token.subject().orElse(null);
      if (subject != null) {
        b.subject(subject);
      }
      for (String name : token.claimNames()) {
        b.claim(name, new RawJson(token.claimJson(name).orElseThrow()));
      }
    }
    if (loginSubject != null) {
      b.subject(loginSubject);
    }
    if (authTimeMillis >= 0) {
      b.authTime(Instant.ofEpochMilli(authTimeMillis));
    }
    for (Map.Entry<String, TokenHttpSession.Entry> e : s.entries.entrySet()) {
      b.put(e.getKey(), s.jsonToWrite(e.getValue()));
    }
    AttributeCodec attributes = settings.attributes;
    byte[] meta = StoredState.metaBytes(s.created, s.maxInactive, s.entries, entry -> attributes.tag(entry.type));
    b.put(META, new RawJson(meta, 0, meta.length));
    Claims claims = b.build();
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
