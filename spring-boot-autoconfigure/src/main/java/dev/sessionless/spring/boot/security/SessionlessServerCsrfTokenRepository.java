package dev.sessionless.spring.boot.security;

import java.util.UUID;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.security.web.server.csrf.DefaultCsrfToken;
import org.springframework.security.web.server.csrf.ServerCsrfTokenRepository;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The reactive twin of {@link SessionlessCsrfTokenRepository}: keeps the CSRF token in the
 * exchange's {@code WebSession} as a string, under the same attribute, with Spring Security's
 * usual header ({@code X-CSRF-TOKEN}) and parameter ({@code _csrf}). On a token session it is
 * verifiable on any node without server state; Spring Security's request handler still masks
 * the token per response (BREACH).
 *
 * <p>Unlike Spring Security's {@code WebSessionServerCsrfTokenRepository}, saving a token does
 * not change the session id: the id changes on login and logout (see {@link
 * SessionlessServerSecurityContextRepository}), and a token session is rewritten anyway when its
 * attributes change.
 *
 * <p>Thread-safe.
 */
public final class SessionlessServerCsrfTokenRepository implements ServerCsrfTokenRepository {
  /** The session attribute holding the token value (the servlet side's too). */
  public static final String ATTRIBUTE = SessionlessCsrfTokenRepository.ATTRIBUTE;
  private static final String HEADER = "X-CSRF-TOKEN";
  private static final String PARAMETER = "_csrf";

  /** A repository keeping the token under {@link #ATTRIBUTE}. */
  public SessionlessServerCsrfTokenRepository() {}

  /**
   * A new random token (not yet saved), made off the event loop: the random source behind
   * {@code UUID.randomUUID()} may block, as Spring Security's own repository assumes.
   */
  @Override
  public Mono<CsrfToken> generateToken(ServerWebExchange exchange) {
    return Mono.fromCallable(() -> (CsrfToken) new DefaultCsrfToken(HEADER, PARAMETER, UUID.randomUUID().toString()))
        .subscribeOn(Schedulers.boundedElastic());
  }

  /**
   * Stores the token's value in the exchange's session, or removes it when {@code token} is null
   * (a session without one, such as one logout just ended, is left untouched).
   */
  @Override
  public Mono<Void> saveToken(ServerWebExchange exchange, CsrfToken token) {
    return exchange.getSession().doOnNext(session -> {
      if (token == null) {
        if (session.getAttributes().containsKey(ATTRIBUTE)) {
          session.getAttributes().remove(ATTRIBUTE);
        }
      } else {
        session.getAttributes().put(ATTRIBUTE, token.getToken());
      }
    }).then();
  }

  /** The token of the exchange's session; empty when there is none. */
  @Override
  public Mono<CsrfToken> loadToken(ServerWebExchange exchange) {
    return exchange.getSession().mapNotNull(session -> session.getAttribute(ATTRIBUTE) instanceof String value
        ? new DefaultCsrfToken(HEADER, PARAMETER, value) : null);
  }
}
