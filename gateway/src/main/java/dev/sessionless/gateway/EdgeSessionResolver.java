package dev.sessionless.gateway;

import dev.sessionless.propagation.EdgeSession;
import java.util.Set;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Finds the browser session a routed request belongs to, the source of the internal tokens the
 * {@link SessionlessInternalTokenGatewayFilterFactory} mints. Empty when the request has none
 * (no login): the route's {@link SessionlessInternalTokenGatewayFilterFactory.WithoutSession}
 * policy decides then.
 *
 * <p>The default ({@link #principalAndWebSession(String)}) reads the authenticated principal and
 * the exchange's {@code WebSession}. A session kept elsewhere (the Sessionless token-backed
 * {@code WebSession}, which carries its own session id and login time) plugs in its own bean of
 * this type, and the auto-configuration backs off.
 *
 * <p><b>Security.</b> Return only a session this gateway verified: the minter signs whatever it
 * says. Never use a session id that is a credential (WebFlux's default session id is the cookie
 * value itself) as the {@link EdgeSession#sessionId()}: it travels in every internal token.
 *
 * <p>Implementations must not block: they run on the event loop.
 */
@FunctionalInterface
public interface EdgeSessionResolver {
  /**
   * The session of {@code exchange}, or empty when it has none.
   *
   * @param exchange the routed exchange, after Spring Security's filters
   * @param stateNames the state values the route's token carries: the session needs to hold only
   *     these (it may hold more)
   * @return the session, empty without one; an error for a fault on this side (answered {@code
   *     503})
   */
  Mono<EdgeSession> resolve(ServerWebExchange exchange, Set<String> stateNames);

  /**
   * The default: the subject is the {@code WebSession} attribute {@code subjectAttribute} when it
   * is set and holds a {@code String}, else the name of the authenticated principal
   * ({@code exchange.getPrincipal()}; Spring Security's anonymous authentication counts as none).
   * The session id is a SHA-256 digest of the {@code WebSession}'s id (that id is the session
   * cookie's value, a credential, so it never leaves the gateway) or, when no session was
   * started (HTTP Basic without a session), a random id for this request alone. Its expiry is the
   * session's idle deadline; its state values are the session attributes of the route's names.
   * It has no login time ({@code auth_time}): a service whose revocation source knows a "log out
   * everywhere" for the subject refuses these tokens.
   *
   * @param subjectAttribute the session attribute holding the user id, or {@code null} for the
   *     principal's name alone ({@code sessionless.propagation.send.subject-attribute})
   */
  static EdgeSessionResolver principalAndWebSession(String subjectAttribute) {
    return new PrincipalEdgeSessions(subjectAttribute);
  }
}
