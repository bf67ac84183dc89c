package dev.sessionless.spring.boot.security;

import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.web.server.context.ServerSecurityContextRepository;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * The reactive twin of {@link SessionlessSecurityContextRepository}: keeps the authenticated
 * user in the exchange's {@code WebSession} as the same plain values (name, authorities with
 * their factor times, the kind of login; never credentials or details) and restores an {@link
 * Authentication} from them. It uses only the {@code WebSession} interface, so it works on any
 * session, and on a Sessionless token session the values travel in the token.
 *
 * <p>Session fixation: storing a user where there was none or another one is a login, and gets a
 * new session id ({@code WebSession.changeSessionId()}, as Spring Security's {@code
 * WebSessionServerSecurityContextRepository} does on save). Removing a stored user (Spring
 * Security's logout saves an empty context) ends the session ({@code WebSession.invalidate()}),
 * as logout does on the servlet side: a token session clears its cookie and, with a revocation
 * store, revokes the token, so a copy of the old cookie stops working. Storing what is already
 * there changes nothing, so the session is not rewritten. An anonymous authentication is never
 * saved.
 *
 * <p>Security: the values are only as trustworthy as the session, which for a token session is
 * signed (or encrypted) and checked on every request.
 *
 * <p>Thread-safe.
 */
public final class SessionlessServerSecurityContextRepository implements ServerSecurityContextRepository {
  /** The session attribute holding the authentication's values (the servlet side's too). */
  public static final String ATTRIBUTE = SessionlessSecurityContextRepository.ATTRIBUTE;

  private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();
  private final BiFunction<WebSession, String, Mono<Void>> onLogin;

  /** A repository keeping the authentication under {@link #ATTRIBUTE}. */
  public SessionlessServerSecurityContextRepository() {
    this((session, name) -> session.changeSessionId());
  }

  /**
   * A repository that records a login through {@code onLogin} (given the session and the user's
   * name), which must also change the session id.
   */
  SessionlessServerSecurityContextRepository(BiFunction<WebSession, String, Mono<Void>> onLogin) {
    this.onLogin = Objects.requireNonNull(onLogin, "onLogin");
  }

  /**
   * Stores the context's authentication in the exchange's session (a login also changes the
   * session id), or, when there is none or it is anonymous, ends a session that held one.
   *
   * @throws IllegalArgumentException (in the returned {@code Mono}) if an authority is not a
   *     string, which a token session cannot keep
   */
  @Override
  public Mono<Void> save(ServerWebExchange exchange, SecurityContext context) {
    Authentication auth = context == null ? null : context.getAuthentication();
    return exchange.getSession().flatMap(session -> {
      Object stored = session.getAttribute(ATTRIBUTE);
      if (auth == null || trust.isAnonymous(auth)) {
        if (stored == null) {
          return Mono.empty();
        }
        return session.invalidate();
      }
      Map<String, Object> values = AuthenticationValues.write(auth);
      if (Objects.equals(stored, values)) {
        return Mono.empty();
      }
      session.getAttributes().put(ATTRIBUTE, values);
      return AuthenticationValues.isLogin(stored, auth) ? onLogin.apply(session, auth.getName()) : Mono.empty();
    });
  }

  /** The security context of the exchange's session; empty when it holds no user. */
  @Override
  public Mono<SecurityContext> load(ServerWebExchange exchange) {
    return exchange.getSession()
        .mapNotNull(session -> AuthenticationValues.readStored(session.getAttribute(ATTRIBUTE)))
        .map(SecurityContextImpl::new);
  }
}
