package dev.sessionless.webflux;

import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionTooLargeException;
import dev.sessionless.session.internal.LogoutRevocation;
import dev.sessionless.webflux.internal.TokenWebSession;
import dev.sessionless.session.internal.Settings;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.session.WebSessionManager;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link WebSessionManager} whose {@link WebSession} is a token in the session cookie: no node
 * stores sessions, and any node holding the key serves any request.
 *
 * <pre>{@code
 * SessionlessWebSessionManager sessions = SessionlessWebSessionManager.builder()
 *     .keys(KeySet.fromJwks(Files.readString(Path.of("/etc/app/keys.jwks"))))
 *     .issuer("https://shop.example").audience("shop")
 *     .build();
 * HttpHandler app = WebHttpHandlerBuilder.webHandler(handler).sessionManager(sessions).build();
 * }</pre>
 *
 * <p><b>Why this seam.</b> WebFlux's {@code DefaultWebSessionManager} splits a session into an
 * id ({@code WebSessionIdResolver}, the cookie) and the data the id looks up ({@code
 * WebSessionStore}). Here the cookie <em>is</em> the session: there is no id to resolve and no
 * store to look it up in, and what must be written depends on the whole session (its size, its
 * chunks, its renewal). A store would get an id and have to find the token again; an id resolver
 * would have to write a cookie whose value it does not know. So the whole {@code
 * WebSessionManager} is replaced, keeping its contract: {@code getSession} is called once per
 * exchange ({@code DefaultServerWebExchange} caches it), the session is saved just before the
 * response commits ({@code ServerHttpResponse.beforeCommit}), and only if it was started.
 *
 * <p><b>Behaviour</b>, as the servlet filter's ({@code SessionlessFilter}): the token is decoded
 * once per exchange, when the session is first asked for, and written only when the session is
 * new and started, changed (also in place), got a new id, or is due for renewal. A bad, expired,
 * foreign or revoked token starts a fresh session (never a 500), its reason in the exchange
 * attribute {@link #REJECTION_ATTRIBUTE}. A revocation or key source that is down is a {@link
 * SessionUnavailableException} ({@code 503} with {@code Retry-After}). A put past the state
 * budget throws {@link SessionTooLargeException} and changes nothing. {@code changeSessionId()}
 * keeps the attributes under a new id (Spring Security calls it at login) and marks the session
 * authenticated now; {@code invalidate()} ends it, clears its cookie and, with a {@link
 * RevocationStore}, revokes it there. Nothing blocks the event loop: the one store write runs
 * on {@link Schedulers#boundedElastic()}.
 *
 * <p>Thread-safe.
 */
public final class SessionlessWebSessionManager implements WebSessionManager {
  /**
   * The exchange attribute holding the {@code TokenException.Reason} why the token the request
   * carried was refused, once the session was asked for; absent when there was none or it was fine.
   */
  public static final String REJECTION_ATTRIBUTE = TokenWebSession.REJECTION_ATTRIBUTE;

  /**
   * The exchange attribute holding, as an {@link Instant}, when the exchange's session was
   * authenticated ({@code auth_time}), once the session was asked for; absent while it has none.
   * It follows {@link #loggedIn}, {@code changeSessionId()} and {@code invalidate()}. For readers
   * that must not depend on this module (the propagation module's edge filters).
   */
  public static final String AUTH_TIME_ATTRIBUTE = TokenWebSession.AUTH_TIME_ATTRIBUTE;

  private final Settings settings;

  SessionlessWebSessionManager(Settings settings) {
    this.settings = settings;
  }

  /** A builder; {@code keys}, {@code issuer} and {@code audience} are required. */
  public static SessionlessWebSessionManagerBuilder builder() {
    return new SessionlessWebSessionManagerBuilder();
  }

  /**
   * The exchange's session: decodes its token (CPU and memory only), and arranges for it to be
   * written before the response commits. A refused token gives a fresh session; an outage fails
   * with {@link SessionUnavailableException}; anything else that fails on this side is an error
   * (a logged server error), the client's cookie left as it is.
   */
  @Override
  public Mono<WebSession> getSession(ServerWebExchange exchange) {
    return Mono.defer(() -> {
      try {
        return Mono.just(TokenWebSession.load(settings, exchange));
      } catch (RuntimeException e) {
        // Only a client's bad token is a rejection (a fresh session, inside load): this is an
        // outage (503) or our bug (a 500), logged by the engine; the client's cookie is left alone.
        return Mono.error(SessionUnavailableException.translate(e));
      }
    });
  }

  /**
   * Marks a login on {@code session}: a new id (against fixation), the subject, and an {@code
   * auth_time} of now, which renewal never moves. The subject is what {@link #logOutEverywhere}
   * ends.
   *
   * @return the new session id
   * @throws IllegalArgumentException if {@code session} is not one of this module's, or the subject is empty
   */
  public static String loggedIn(WebSession session, String subject) {
    Objects.requireNonNull(subject, "subject");
    if (subject.isEmpty()) {
      throw new IllegalArgumentException("subject must not be empty");
    }
    return ours(session, "loggedIn").loggedIn(subject);
  }

  /** When {@code session} was authenticated ({@code auth_time}), as its next token will say. */
  public static Optional<Instant> authTime(WebSession session) {
    return ours(session, "authTime").authTime();
  }

  /**
   * Logs {@code subject} out everywhere: every session of theirs authenticated before now is
   * rejected ({@code SUBJECT_REVOKED}) on every node reading this manager's store. The store
   * write runs on {@code boundedElastic}; a store that is down fails the {@code Mono} with
   * {@link SessionUnavailableException}.
   *
   * @throws IllegalStateException (in the {@code Mono}) if the manager has no {@link RevocationStore}
   */
  public Mono<Void> logOutEverywhere(String subject) {
    Objects.requireNonNull(subject, "subject");
    RevocationStore store = settings.revocations();
    if (store == null) {
      return Mono.error(new IllegalStateException("logOutEverywhere needs a revocation store: build the manager"
          + " with revocation(RevocationStore)"));
    }
    return Mono.fromRunnable(() -> LogoutRevocation.revokeSubject(store, subject, settings.clock().instant(),
        settings.absoluteLifetime())).subscribeOn(Schedulers.boundedElastic()).onErrorMap(SessionUnavailableException::translate).then();
  }

  /**
   * What the manager does with a stored attribute that no longer reads back as its recorded
   * class (renamed, changed, or no longer registered between deploys); see {@link
   * SessionlessWebSessionManagerBuilder#onBadAttribute}. The servlet filter's policy, with the
   * same two answers.
   */
  public enum BadAttribute {
    /** Leave that attribute out; the others survive, and the next token is written without it. */
    DROP,
    /** Start a fresh session, as for a refused token (reason {@code STATE_MAPPING}). */
    NEW_SESSION
  }

  private static TokenWebSession ours(WebSession session, String what) {
    if (!(session instanceof TokenWebSession)) {
      throw new IllegalArgumentException(what + ": the session is not a Sessionless WebSession (is the"
          + " SessionlessWebSessionManager the application's WebSessionManager?)");
    }
    return (TokenWebSession) session;
  }
}
