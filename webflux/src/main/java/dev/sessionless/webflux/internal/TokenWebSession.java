package dev.sessionless.webflux.internal;

import dev.sessionless.session.internal.ExchangeSession;
import dev.sessionless.session.internal.Settings;
import dev.sessionless.session.internal.LogoutRevocation;
import dev.sessionless.session.internal.TokenSession;
import dev.sessionless.webflux.SessionUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link WebSession} that is the exchange's session token, shown over the shared session
 * engine ({@link ExchangeSession}, the servlet filter's rules): decoded once, when the exchange
 * first asks for its session, and written as {@code Set-Cookie} just before the response
 * commits, only when it is new and started, changed (also in place), got a new id, or is due
 * for renewal. A refused token gives a fresh session and clears the cookie. Nothing here
 * blocks: the engine's calls are CPU and memory work, and the one store write ({@link
 * #invalidate()}) runs on {@link Schedulers#boundedElastic()}.
 */
public final class TokenWebSession implements WebSession {
  /** The exchange attribute holding the refused token's reason. */
  public static final String REJECTION_ATTRIBUTE = ExchangeViews.REJECTION_ATTRIBUTE;
  /** The exchange attribute holding the session's {@code auth_time} while it has one. */
  public static final String AUTH_TIME_ATTRIBUTE = ExchangeViews.AUTH_TIME_ATTRIBUTE;

  private final Settings settings;
  private final ExchangeSession engine;
  private final ExchangeViews views;
  private final Map<String, Object> attributes = new AttributeMap(this);
  /** The engine's session as of this exchange (the token's, or a fresh one). */
  private TokenSession session;
  /** {@code start()}, a put or an id change happened: a fresh session is then written. */
  private volatile boolean started;
  /** When the session was created and last accessed (millis): kept, as WebFlux answers them after invalidate too. */
  private long created;
  private long lastAccess;

  private TokenWebSession(Settings settings, ExchangeSession engine, ExchangeViews views) {
    this.settings = settings;
    this.engine = engine;
    this.views = views;
  }

  /**
   * The session {@code exchange} carries, or a fresh one; arranges for it to be written before
   * the response commits.
   *
   * @throws RuntimeException a {@code TokenException} whose reason is no rejection (a key or
   *     revocation source down) or any failure on this side: logged by the engine, the client's
   *     cookie left as it is
   */
  public static TokenWebSession load(Settings settings, ServerWebExchange exchange) {
    settings.tick();
    ExchangeViews views = new ExchangeViews(exchange);
    ExchangeSession engine = new ExchangeSession(settings, views, views);
    engine.load();
    TokenWebSession s = new TokenWebSession(settings, engine, views);
    s.session = engine.session(true, views);
    s.created = s.session.creationTime();
    s.lastAccess = s.session.lastAccessedTime();
    exchange.getResponse().beforeCommit(() -> Mono.fromRunnable(() -> views.committing(s::commit))
        .onErrorMap(SessionUnavailableException::translate).then());
    return s;
  }

  TokenSession engineSession() {
    return session;
  }

  void started() {
    started = true;
  }

  @Override
  public String getId() {
    return session.id();
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }

  @Override
  public void start() {
    started = true;
  }

  @Override
  public boolean isStarted() {
    return session.valid() && (started || !session.isNew() || !session.attributeNames().isEmpty());
  }

  /**
   * A new id, the attributes kept; the session counts as authenticated now (as on a login). On
   * an invalidated session it does nothing: Spring Security's context repository calls it after
   * every save, the empty one a logout makes included.
   */
  @Override
  public Mono<Void> changeSessionId() {
    return Mono.fromRunnable(() -> {
      if (session.valid()) {
        engine.changeSessionId();
        started = true;
      }
    });
  }

  /** Marks a login: a new id, the subject, and an {@code auth_time} of now. */
  public String loggedIn(String subject) {
    if (!session.valid()) {
      throw new IllegalStateException("loggedIn: the session has been invalidated in this exchange");
    }
    started = true;
    return engine.loggedIn(subject, views);
  }

  /** When the session was authenticated, as its next token will say; empty if never or ended. */
  public Optional<Instant> authTime() {
    return engine.authTime();
  }

  /**
   * Ends the session: its attributes are gone and its cookie is cleared when the response
   * commits. With a revocation store the session's ids are revoked there ("logout that holds")
   * on {@code boundedElastic}; a store that is down fails the returned {@code Mono} with {@link
   * SessionUnavailableException} (503), the session having ended all the same.
   */
  @Override
  public Mono<Void> invalidate() {
    if (!session.valid()) {
      return Mono.empty();
    }
    LogoutRevocation revocation = session.invalidate();
    if (revocation == null) {
      return Mono.empty();
    }
    return Mono.fromRunnable(revocation::write).subscribeOn(Schedulers.boundedElastic())
        .onErrorMap(SessionUnavailableException::translate).then();
  }

  /** Writes the session's cookies now if they must be written (the response is not committed yet). */
  @Override
  public Mono<Void> save() {
    return Mono.fromRunnable(this::commit);
  }

  /**
   * Puts the session's {@code Set-Cookie} values on the response if anything must be written. A
   * fresh session that was never started is dropped first (and a refused token's cookie then
   * cleared), as WebFlux saves only started sessions.
   *
   * @throws IllegalStateException if the token does not fit the cookies (a failure on this side)
   */
  void commit() {
    if (session.valid() && session.isNew() && !started && session.attributeNames().isEmpty()) {
      session.invalidate(); // never started: nothing to write, a refused token's cookie to clear
    }
    engine.checkpoint(views, views, true);
  }

  @Override
  public boolean isExpired() {
    return !session.valid()
        || settings.clock().millis() >= created + settings.absoluteLifetime().toMillis();
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
  public void setMaxIdleTime(Duration maxIdleTime) {
    session.maxInactiveInterval((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE,
        maxIdleTime.getSeconds())));
  }

  @Override
  public Duration getMaxIdleTime() {
    return Duration.ofSeconds(session.maxInactiveInterval());
  }

  /** The id and attributes stay out of logs. */
  @Override
  public String toString() {
    return "TokenWebSession[" + (!session.valid() ? "invalidated" : isStarted() ? "started" : "not started") + "]";
  }
}
