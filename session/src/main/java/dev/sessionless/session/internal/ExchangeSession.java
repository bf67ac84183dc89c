package dev.sessionless.session.internal;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The session engine of one request (servlet) or exchange (WebFlux), with no container type:
 * decodes the incoming token once, holds the session ({@link TokenSession}), and writes the next
 * token at each {@link #checkpoint} when the session is new, changed, invalidated or due for
 * renewal. How an adapter uses it, and which calls may block (none of this class's but {@link
 * #logOutEverywhere}): see the package documentation. Thread-safe: every method holds this
 * object's lock, and so does every method of its {@link TokenSession}.
 */
public final class ExchangeSession {
  /** What {@link #requestedId()} answers for a token that was rejected. */
  public static final String REJECTED_ID = "rejected";

  private final Settings settings;
  private final RequestView request;
  private final SessionHooks hooks;
  private boolean loaded;
  /** Decoding failed on this side: no session for this request, and nothing is written. */
  private boolean failed;
  private Carrier.Incoming incoming = Carrier.Incoming.NONE;
  private SessionToken token;
  private TokenException.Reason rejection;
  private TokenSession session;
  /** The requested session was invalidated (or rejected) and no new one replaced it yet. */
  private boolean clearPending;
  private boolean renewalPending;
  private boolean checkedInPlace;
  private List<String> written = List.of();
  /** A change made after the response committed was reported for this request (once). */
  private boolean droppedReported;
  /** The incoming token's claims no longer apply: the session it carried was invalidated. */
  private boolean tokenEnded;
  private final Login login = new Login();

  /**
   * The engine for the request {@code request}; nothing is decoded yet.
   *
   * @param hooks what the adapter does at a rejection, an {@code auth_time} change and an
   *     attribute (un)binding
   */
  public ExchangeSession(Settings settings, RequestView request, SessionHooks hooks) {
    this.settings = settings;
    this.request = request;
    this.hooks = hooks;
  }

  /** The settings this engine works with. */
  public Settings settings() {
    return settings;
  }

  RequestView request() {
    return request;
  }

  SessionHooks hooks() {
    return hooks;
  }

  /**
   * Decodes the incoming token, once. Rejections start a fresh (absent) session. A failure on
   * this side (a key source that throws, a reason that is no rejection, any other exception
   * while reading the token or its state) is thrown to the first caller and logged; for the rest
   * of the request the session is unavailable: none is read, none can be created, and the
   * client's cookie is left alone so nothing is lost.
   *
   * <p>Adapters need not call it: every other method calls it first. Holds the lock but does no
   * I/O: the key and revocation sources answer from memory (their contract), so a virtual thread
   * is never pinned here waiting on the network.
   */
  public synchronized void load() {
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
    hooks.rejected(reason);
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
    return session == null || !session.valid ? Optional.empty() : login.authTime(carried());
  }

  /** The incoming token whose claims carry over, or {@code null} (none, or its session ended). */
  private SessionToken carried() {
    return token != null && !tokenEnded ? token : null;
  }

  /**
   * Tells the adapter {@link #authTime()} after every change, for readers that must not depend
   * on the adapter (the servlet filter's request attribute, read by the propagation module's
   * edge filter).
   */
  private void publishAuthTime() {
    hooks.authTimeChanged(currentAuthTime().orElse(null));
  }

  /**
   * Why the request's token was refused as a client's bad token, or {@code null} if it was not
   * (none, or accepted).
   */
  public synchronized TokenException.Reason rejection() {
    load();
    return rejection;
  }

  /**
   * The current valid session, creating one if asked; {@code null} otherwise.
   *
   * @param response the response, to refuse creating a session once it has committed; {@code
   *     null} to skip that check
   * @throws IllegalStateException if a session is to be created but cannot be: the token could
   *     not be read because of a failure on this server, or the response has committed
   */
  public synchronized TokenSession session(boolean create, ResponseView response) {
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
    if (response != null && response.committed()) {
      throw new IllegalStateException("cannot create a session after the response has been committed");
    }
    long now = settings.clock.millis();
    session = new TokenSession(this, SessionIds.next(), now, now, settings.maxInactiveSeconds, true);
    session.dirty = true;
    return session;
  }

  /**
   * Gives the session a new id, and marks it authenticated now (changing the id is how servlet
   * code marks a login).
   *
   * @return the new id
   * @throws IllegalStateException if the request has no valid session
   */
  public synchronized String changeSessionId() {
    load();
    if (session == null || !session.valid) {
      throw new IllegalStateException("changeSessionId: the request has no session");
    }
    session.id = SessionIds.next();
    session.dirty = true;
    // Changing the id is how servlet code marks a login: the session is authenticated now.
    login.authTimeMillis = settings.clock.millis();
    publishAuthTime();
    return session.id;
  }

  /**
   * Marks a login: the session (created if need be) gets a new id, the subject, and an {@code
   * auth_time} of now.
   *
   * @param response as for {@link #session}
   * @return the session's new id
   */
  public synchronized String loggedIn(String subject, ResponseView response) {
    session(true, response);
    String id = changeSessionId();
    login.subject = subject;
    return id;
  }

  /**
   * The session {@code s} was invalidated: it ends here, and its cookie is cleared. With a
   * revocation store, returns what the caller writes there once it has released this lock
   * (logout that holds: a copy of the cookie stops working on every node); else {@code null}.
   */
  synchronized LogoutRevocation invalidated(TokenSession s) {
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
    login.clear();
    publishAuthTime();
  }

  /**
   * The id of the session the request's token carried, {@link #REJECTED_ID} if the token was
   * refused, or {@code null} if there was none.
   */
  public synchronized String requestedId() {
    load();
    if (token != null) {
      return token.id();
    }
    return rejection != null ? REJECTED_ID : null;
  }

  /** Whether the request's token carried the session that is still current and valid. */
  public synchronized boolean requestedIdValid() {
    load();
    return token != null && session != null && session.valid && session.id.equals(token.id());
  }

  /** Whether the request's token came in a cookie (and there was one). */
  public synchronized boolean requestedFromCookie() {
    return settings.carrier.isCookie() && requestedId() != null;
  }

  /**
   * Writes the token into {@code raw}'s headers if it must be written, before the response
   * commits: nothing if the session is unchanged and not due for renewal, else the new {@code
   * Set-Cookie} values (chunked as the cookie rules say, replacing any this request wrote
   * before) or the clearing ones. Never blocks.
   *
   * @param req the request whose context path and security decide the cookie's attributes
   * @param full also look for attribute values changed in place (re-serialises them)
   * @throws IllegalStateException if the token would not fit the carrier (more cookies than
   *     {@code maxCookieChunks}); a {@code TokenException} if no key can make it (an outage)
   */
  public synchronized void checkpoint(RequestView req, ResponseView raw, boolean full) {
    if (!loaded || failed || raw.committed()) {
      return;
    }
    boolean lost = !written.isEmpty() && !settings.carrier.present(raw, written);
    TokenSession s = session != null && session.valid ? session : null;
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
  public synchronized void finish(RequestView req, ResponseView raw) {
    if (!loaded || failed) {
      return;
    }
    if (!raw.committed()) {
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
    if (session != null && session.valid) {
      return session.unwrittenChange();
    }
    return clearPending && tokenEnded ? "invalidate" : null;
  }

  private void writeSession(RequestView req, ResponseView raw, TokenSession s) {
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
    Claims claims = NextClaims.of(settings, s, carried(), login.subject, login.authTimeMillis, ttl);
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
  private boolean install(RequestView req, ResponseView raw, Carrier.Token text) {
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

  /**
   * Logs {@code subject} out everywhere (see {@link LogoutRevocation#logOutEverywhere}). Holds no
   * lock, but writes the revocation store: call it where blocking is allowed.
   *
   * @throws IllegalStateException if the settings have no revocation store
   */
  public void logOutEverywhere(String subject) {
    LogoutRevocation.logOutEverywhere(settings, subject);
  }
}
