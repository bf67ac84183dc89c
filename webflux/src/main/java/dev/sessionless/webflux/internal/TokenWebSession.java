package dev.sessionless.webflux.internal;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.internal.StateAccess;
import dev.sessionless.session.internal.AttributeEntry;
import dev.sessionless.session.internal.StoredState;
import dev.sessionless.webflux.SessionUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link WebSession} that is the exchange's session token: decoded once, when the exchange
 * first asks for its session, and written as {@code Set-Cookie} just before the response
 * commits, only when it is new and started, changed (also in place), got a new id, or is due for
 * renewal. A rejected token (forged, foreign, expired, revoked) gives a fresh session and clears
 * the cookie. Nothing here blocks: decoding and encoding are CPU work on memory, the revocation
 * check reads memory, and the one write to a revocation store ({@link #invalidate()}) runs on
 * {@link Schedulers#boundedElastic()}. Thread-safe: the session's methods hold its lock, never
 * across I/O.
 */
public final class TokenWebSession implements WebSession {
  /** The exchange attribute holding the {@link TokenException.Reason} a token was refused for. */
  public static final String REJECTION_ATTRIBUTE = "dev.sessionless.webflux.rejection";
  /** How long past a token's last possible expiry its revocation is kept: more than any clock skew. */
  private static final Duration REVOCATION_MARGIN = Duration.ofMinutes(10);

  private final WebSettings settings;
  private final ServerWebExchange exchange;
  private final CookieRules.Incoming incoming;
  /** The verified incoming token, or {@code null}. */
  private final SessionToken token;
  private final SessionAttributes attributes;
  private final long created;
  private final long lastAccess;
  private String id;
  private int maxIdleSeconds;
  private boolean started;
  private boolean invalidated;
  /** The id or idle time changed since the last write. */
  private boolean changed;
  private boolean renewalPending;
  /** A cookie of ours must be cleared: the token was refused, or its session ended. */
  private boolean clearPending;
  /** The incoming token's subject and claims no longer apply (its session ended). */
  private boolean tokenEnded;
  private String loginSubject;
  private long authTimeMillis = -1;
  /** The cookie names this exchange's response carries from an earlier write. */
  private List<String> written = List.of();

  private TokenWebSession(WebSettings settings, ServerWebExchange exchange, CookieRules.Incoming incoming,
      SessionToken token, String id, long created, long lastAccess, int maxIdleSeconds) {
    this.settings = settings;
    this.exchange = exchange;
    this.incoming = incoming;
    this.token = token;
    this.id = id;
    this.created = created;
    this.lastAccess = lastAccess;
    this.maxIdleSeconds = maxIdleSeconds;
    this.attributes = new SessionAttributes(settings, this);
  }

  /**
   * The session {@code exchange} carries, or a fresh one.
   *
   * @throws TokenException a reason that is no rejection (a key or revocation source down, a
   *     failure on this side): the caller answers it, the client's cookie stays as it is
   */
  public static TokenWebSession load(WebSettings settings, ServerWebExchange exchange) {
    CookieRules.Incoming in = settings.cookies.read(exchange.getRequest());
    long now = settings.clock.millis();
    if (!in.present()) {
      return fresh(settings, exchange, in, now);
    }
    if (in.problem() != null) {
      return rejected(settings, exchange, in, now, in.problem());
    }
    SessionToken t;
    StoredState stored;
    try {
      t = settings.codec.decode(in.token());
      stored = StoredState.of(t); // core's bytes and index, kept with the token
    } catch (TokenException e) {
      if (!e.reason().isRejection()) {
        throw e;
      }
      return rejected(settings, exchange, in, now, e.reason());
    }
    if (now >= stored.created + settings.absoluteLifetimeSeconds * 1000L) {
      return rejected(settings, exchange, in, now, TokenException.Reason.EXPIRED);
    }
    long iat = StateAccess.issuedAtSecond(t);
    TokenWebSession s = new TokenWebSession(settings, exchange, in, t, t.id(), stored.created, iat * 1000L,
        stored.maxInactive);
    for (Map.Entry<String, String> e : stored.types.entrySet()) {
      AttributeEntry entry = new AttributeEntry(e.getValue(), settings.attributes.resolve(e.getValue()));
      int[] span = stored.spans.get(e.getKey());
      entry.json(stored.bytes, span[0], span[1] - span[0]);
      s.attributes.entries.put(e.getKey(), entry);
    }
    long life = StateAccess.expiresAtSecond(t) - iat;
    s.renewalPending = now / 1000 - iat >= settings.renewalFraction * life;
    return s;
  }

  private static TokenWebSession fresh(WebSettings settings, ServerWebExchange exchange, CookieRules.Incoming in,
      long now) {
    return new TokenWebSession(settings, exchange, in, null, newId(), now, now, settings.maxInactiveSeconds);
  }

  private static TokenWebSession rejected(WebSettings settings, ServerWebExchange exchange, CookieRules.Incoming in,
      long now, TokenException.Reason reason) {
    settings.log.rejected(reason);
    settings.listener.sessionRejected(reason);
    exchange.getAttributes().put(REJECTION_ATTRIBUTE, reason);
    TokenWebSession s = fresh(settings, exchange, in, now);
    s.clearPending = true;
    return s;
  }

  private static String newId() {
    return SessionIds.next();
  }

  @Override
  public synchronized String getId() {
    return id;
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }

  @Override
  public synchronized void start() {
    started = true;
  }

  @Override
  public synchronized boolean isStarted() {
    return !invalidated && (started || token != null || !attributes.entries.isEmpty());
  }

  /**
   * A new id, the attributes kept; the session counts as authenticated now (as on a login). On
   * an invalidated session it does nothing: Spring Security's context repository calls it after
   * every save, the empty one a logout makes included.
   */
  @Override
  public Mono<Void> changeSessionId() {
    return Mono.fromRunnable(this::changeIdNow);
  }

  private synchronized void changeIdNow() {
    if (invalidated) {
      return;
    }
    id = newId();
    changed = true;
    started = true;
    authTimeMillis = settings.clock.millis();
  }

  /** Marks a login: a new id, the subject, and an {@code auth_time} of now. */
  public synchronized String loggedIn(String subject) {
    if (invalidated) {
      throw new IllegalStateException("loggedIn: the session has been invalidated");
    }
    changeIdNow();
    loginSubject = subject;
    return id;
  }

  /** When the session was authenticated, as its next token will say; empty if never or ended. */
  public synchronized Optional<Instant> authTime() {
    if (invalidated) {
      return Optional.empty();
    }
    if (authTimeMillis >= 0) {
      return Optional.of(Instant.ofEpochSecond(Math.floorDiv(authTimeMillis, 1000L)));
    }
    try {
      return token == null || tokenEnded ? Optional.empty() : token.authTime();
    } catch (TokenException e) {
      return Optional.empty();
    }
  }

  /**
   * Ends the session: its attributes are gone, it can no longer change, and its cookie is cleared
   * when the response commits. With a revocation store the session's ids are revoked there
   * ("logout that holds") on {@code boundedElastic}; a store that is down fails the returned
   * {@code Mono} with {@link SessionUnavailableException} (503), the session having ended all the same.
   */
  @Override
  public Mono<Void> invalidate() {
    Runnable revoke;
    synchronized (this) {
      if (invalidated) {
        return Mono.empty();
      }
      invalidated = true;
      attributes.usable = false;
      attributes.entries.clear();
      clearPending = token != null || incoming.present() || !written.isEmpty();
      revoke = settings.revocations != null && token != null && !tokenEnded ? revocation() : null;
      tokenEnded = true;
      loginSubject = null;
      authTimeMillis = -1;
    }
    if (revoke == null) {
      return Mono.empty();
    }
    return Mono.fromRunnable(revoke).subscribeOn(Schedulers.boundedElastic())
        .onErrorMap(SessionUnavailableException::translate).then();
  }

  /** The store write that revokes this session's ids until its last token could have expired. */
  private Runnable revocation() {
    long now = settings.clock.millis();
    long absoluteEnd = created + settings.absoluteLifetimeSeconds * 1000L;
    long lastExp = maxIdleSeconds > 0 ? Math.min(absoluteEnd, now + maxIdleSeconds * 1000L) : absoluteEnd;
    Instant until = Instant.ofEpochMilli(Math.max(lastExp, token.expiresAt().toEpochMilli())).plus(REVOCATION_MARGIN);
    String tokenId = token.id();
    String newId = !id.equals(tokenId) && !written.isEmpty() ? id : null;
    return () -> {
      settings.revocations.revokeSession(tokenId, until);
      if (newId != null) {
        settings.revocations.revokeSession(newId, until);
      }
    };
  }

  /** Writes the session's cookies now if they must be written (the response is not committed yet). */
  @Override
  public Mono<Void> save() {
    return Mono.fromRunnable(this::commit);
  }

  /**
   * Puts the session's {@code Set-Cookie} values on the response if anything must be written:
   * called just before the response commits, and by {@link #save()}.
   *
   * @throws IllegalStateException if the token does not fit the cookies (a failure on this side)
   */
  public synchronized void commit() {
    if (invalidated || !isStarted()) {
      if (clearPending) {
        install(null);
        clearPending = false;
      }
      return;
    }
    boolean inPlace = attributes.changedInPlace();
    if (token == null && written.isEmpty() || changed || attributes.dirty || inPlace || renewalPending) {
      writeToken();
    }
  }

  private void writeToken() {
    long now = settings.clock.millis();
    long remaining = (created + settings.absoluteLifetimeSeconds * 1000L - now) / 1000L;
    long ttl = maxIdleSeconds > 0 ? Math.min(maxIdleSeconds, remaining) : remaining;
    if (ttl < 1) {
      invalidated = true; // the absolute lifetime is over: the session ends here
      install(null);
      return;
    }
    Claims.Builder b = Claims.builder().sessionId(id).timeToLive(Duration.ofSeconds(ttl));
    if (token != null && !tokenEnded) {
      token.subject().ifPresent(b::subject);
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
    attributes.loadAll(); // one that no longer reads back is left out, not carried on
    for (Map.Entry<String, AttributeEntry> e : attributes.entries.entrySet()) {
      AttributeEntry v = e.getValue();
      b.put(e.getKey(), new RawJson(v.json, v.off, v.len));
    }
    byte[] meta = StoredState.metaBytes(created, maxIdleSeconds, attributes.entries,
        v -> settings.attributes.tag(v.type));
    b.put(StoredState.META, new RawJson(meta, 0, meta.length));
    install(settings.codec.encode(b.build()));
    attributes.dirty = false;
    changed = false;
    renewalPending = false;
    clearPending = false;
  }

  private void install(String text) {
    Set<String> ours = new LinkedHashSet<>(incoming.names());
    ours.addAll(written);
    List<ResponseCookie> cookies = settings.cookies.write(exchange.getRequest(), text,
        new CookieRules.Incoming(null, List.copyOf(ours), null));
    List<String> live = new ArrayList<>(cookies.size());
    int bytes = 0;
    for (ResponseCookie c : cookies) {
      exchange.getResponse().getCookies().set(c.getName(), c);
      if (!c.getMaxAge().isZero()) {
        live.add(c.getName());
        bytes += c.toString().length();
      }
    }
    written = live;
    if (text != null) {
      settings.listener.cookieWritten(bytes, live.size());
    }
  }

  @Override
  public synchronized boolean isExpired() {
    return invalidated || settings.clock.millis() >= created + settings.absoluteLifetimeSeconds * 1000L;
  }

  @Override
  public Instant getCreationTime() {
    return Instant.ofEpochMilli(created);
  }

  @Override
  public Instant getLastAccessTime() {
    return Instant.ofEpochMilli(lastAccess);
  }

  /** Sets how long the session may sit idle; zero or negative: only the absolute lifetime ends it. */
  @Override
  public synchronized void setMaxIdleTime(Duration maxIdleTime) {
    int seconds = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, maxIdleTime.getSeconds()));
    if (seconds != maxIdleSeconds) {
      maxIdleSeconds = seconds;
      changed = true;
    }
  }

  @Override
  public synchronized Duration getMaxIdleTime() {
    return Duration.ofSeconds(maxIdleSeconds);
  }

  /** The token's id and state stay out of logs. */
  @Override
  public String toString() {
    return "TokenWebSession[" + (invalidated ? "invalidated" : isStarted() ? "started" : "not started") + "]";
  }
}
