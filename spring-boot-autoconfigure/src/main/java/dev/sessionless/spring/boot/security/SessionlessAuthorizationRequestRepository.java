package dev.sessionless.spring.boot.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
    String state = request.getParameter(OAuth2ParameterNames.STATE);
    if (state == null) {
      return null;
    }
    HttpSession session = request.getSession(false);
    OAuth2AuthorizationRequest kept = session == null ? null : read(session.getAttribute(ATTRIBUTE));
    return kept != null && state.equals(kept.getState()) ? kept : null;
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
    request.getSession().setAttribute(ATTRIBUTE, write(authorizationRequest));
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

  static Map<String, Object> write(OAuth2AuthorizationRequest r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("uri", r.getAuthorizationUri());
    m.put("client", r.getClientId());
    m.put("redirect", r.getRedirectUri());
    m.put("scopes", new ArrayList<>(r.getScopes()));
    m.put("state", r.getState());
    m.put("parameters", strings(r.getAdditionalParameters(), "parameter"));
    m.put("attributes", strings(r.getAttributes(), "attribute"));
    // Not the authorization request URI: it repeats the values above, and after the redirect
    // Spring Security never reads it (the builder makes it again from them).
    return m;
  }

  private static Map<String, String> strings(Map<String, Object> values, String what) {
    Map<String, String> m = new LinkedHashMap<>();
    values.forEach((k, v) -> {
      if (!(v instanceof String)) {
        throw new IllegalArgumentException("the OAuth2 authorization request " + what + " '" + k + "' is a "
            + (v == null ? "null" : v.getClass().getName()) + ", not a string: a token session keeps strings only");
      }
      m.put(k, (String) v);
    });
    return m;
  }

  /** The request {@code value} describes; {@code null} if it describes none. */
  static OAuth2AuthorizationRequest read(Object value) {
    if (!(value instanceof Map)) {
      return null;
    }
    Map<?, ?> m = (Map<?, ?>) value;
    if (!(m.get("uri") instanceof String) || !(m.get("client") instanceof String) || !(m.get("state") instanceof String)
        || !(m.get("scopes") instanceof List) || !(m.get("parameters") instanceof Map)
        || !(m.get("attributes") instanceof Map)) {
      return null;
    }
    LinkedHashSet<String> scopes = new LinkedHashSet<>();
    ((List<?>) m.get("scopes")).forEach(s -> scopes.add(String.valueOf(s)));
    return OAuth2AuthorizationRequest.authorizationCode()
        .authorizationUri((String) m.get("uri"))
        .clientId((String) m.get("client"))
        .redirectUri((String) m.get("redirect"))
        .scopes(scopes)
        .state((String) m.get("state"))
        .additionalParameters(objects((Map<?, ?>) m.get("parameters")))
        .attributes(objects((Map<?, ?>) m.get("attributes")))
        .build();
  }

  private static Map<String, Object> objects(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
    return out;
  }
}
