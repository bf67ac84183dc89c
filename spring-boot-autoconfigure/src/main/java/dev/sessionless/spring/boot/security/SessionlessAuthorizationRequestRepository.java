package dev.sessionless.spring.boot.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.oauth2.client.web.AuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;

/**
 * Keeps an OAuth2/OIDC login's authorization request — {@code state}, the OIDC {@code nonce}, the
 * PKCE {@code code_verifier}, the redirect URI, scopes and parameters, not the redirect URL made
 * from them — as plain strings in the token
 * session between the redirect to the authorization server and its callback, so the callback
 * may arrive at any instance. Only one request is kept: a new login attempt replaces the last.
 *
 * <p>Security: the values ride in the signed (or encrypted) token session, bound to the browser
 * exactly as Spring Security's session-backed default binds them; the callback's {@code state}
 * must match the kept one, and the request is removed when the callback reads it. The nonce and
 * the PKCE verifier are secrets only towards third parties: the session cookie is {@code
 * HttpOnly}, and with an encrypted session ({@code DIR_A256GCM}) the browser cannot read them
 * either.
 *
 * <p>Thread-safe.
 */
public final class SessionlessAuthorizationRequestRepository
    implements AuthorizationRequestRepository<OAuth2AuthorizationRequest> {
  /** The session attribute holding the authorization request's values. */
  public static final String ATTRIBUTE = "sessionless.security.oauth2-authorization-request";

  /** A repository keeping the request under {@link #ATTRIBUTE}. */
  public SessionlessAuthorizationRequestRepository() {}

  /** The kept request, if the request's {@code state} parameter matches it. */
  @Override
  public OAuth2AuthorizationRequest loadAuthorizationRequest(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    return session == null ? null
        : AuthorizationRequestValues.matching(session.getAttribute(ATTRIBUTE),
            request.getParameter(OAuth2ParameterNames.STATE));
  }

  /**
   * Keeps {@code authorizationRequest} (creating the session), or removes the kept one when it is
   * {@code null}.
   *
   * @throws IllegalArgumentException if the request carries a parameter or attribute that is not
   *     a string, which a token session does not keep (Spring Security's own are all strings)
   */
  @Override
  public void saveAuthorizationRequest(OAuth2AuthorizationRequest authorizationRequest, HttpServletRequest request,
      HttpServletResponse response) {
    if (authorizationRequest == null) {
      removeAuthorizationRequest(request, response);
      return;
    }
    request.getSession().setAttribute(ATTRIBUTE, AuthorizationRequestValues.write(authorizationRequest));
  }

  /** Removes and returns the kept request, if the request's {@code state} matches it. */
  @Override
  public OAuth2AuthorizationRequest removeAuthorizationRequest(HttpServletRequest request,
      HttpServletResponse response) {
    OAuth2AuthorizationRequest kept = loadAuthorizationRequest(request);
    if (kept != null) {
      request.getSession().removeAttribute(ATTRIBUTE);
    }
    return kept;
  }
}
