package dev.sessionless.spring.boot.security;

import org.springframework.security.oauth2.client.web.server.ServerAuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The reactive twin of {@link SessionlessAuthorizationRequestRepository}: keeps an OAuth2/OIDC
 * login's authorization request ({@code state}, the OIDC {@code nonce}, the PKCE {@code
 * code_verifier}, redirect URI, scopes) as the same plain strings in the exchange's {@code
 * WebSession} between the redirect to the authorization server and its callback, so that on a
 * token session the callback may arrive at any instance. Only one request is kept: a new login
 * attempt replaces the last.
 *
 * <p>Security: the callback's {@code state} query parameter must match the kept request, and
 * the request is removed when the callback takes it.
 *
 * <p>Thread-safe.
 */
public final class SessionlessServerAuthorizationRequestRepository
    implements ServerAuthorizationRequestRepository<OAuth2AuthorizationRequest> {
  /** The session attribute holding the request's values (the servlet side's too). */
  public static final String ATTRIBUTE = SessionlessAuthorizationRequestRepository.ATTRIBUTE;

  /** A repository keeping the request under {@link #ATTRIBUTE}. */
  public SessionlessServerAuthorizationRequestRepository() {}

  /** The kept request, if the exchange's {@code state} parameter matches it. */
  @Override
  public Mono<OAuth2AuthorizationRequest> loadAuthorizationRequest(ServerWebExchange exchange) {
    String state = state(exchange);
    if (state == null) {
      return Mono.empty();
    }
    return exchange.getSession()
        .mapNotNull(session -> AuthorizationRequestValues.matching(session.getAttribute(ATTRIBUTE), state));
  }

  /**
   * Keeps {@code authorizationRequest} in the exchange's session, or removes the kept one when
   * it is {@code null}.
   *
   * @throws IllegalArgumentException (in the returned {@code Mono}) if the request carries a
   *     parameter or attribute that is not a string, which a token session does not keep
   */
  @Override
  public Mono<Void> saveAuthorizationRequest(OAuth2AuthorizationRequest authorizationRequest,
      ServerWebExchange exchange) {
    return exchange.getSession().doOnNext(session -> {
      if (authorizationRequest == null) {
        session.getAttributes().remove(ATTRIBUTE);
      } else {
        session.getAttributes().put(ATTRIBUTE, AuthorizationRequestValues.write(authorizationRequest));
      }
    }).then();
  }

  /** Removes and returns the kept request, if the exchange's {@code state} matches it. */
  @Override
  public Mono<OAuth2AuthorizationRequest> removeAuthorizationRequest(ServerWebExchange exchange) {
    String state = state(exchange);
    if (state == null) {
      return Mono.empty();
    }
    return exchange.getSession().mapNotNull(session -> {
      OAuth2AuthorizationRequest kept = AuthorizationRequestValues.matching(session.getAttribute(ATTRIBUTE), state);
      if (kept != null) {
        session.getAttributes().remove(ATTRIBUTE);
      }
      return kept;
    });
  }

  private static String state(ServerWebExchange exchange) {
    return exchange.getRequest().getQueryParams().getFirst(OAuth2ParameterNames.STATE);
  }
}
