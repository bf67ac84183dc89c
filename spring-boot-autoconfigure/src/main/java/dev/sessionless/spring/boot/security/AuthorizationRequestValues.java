package dev.sessionless.spring.boot.security;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.util.ReflectionUtils;

/**
 * An OAuth2/OIDC authorization request as plain strings in a map and back: the one rule both the
 * servlet ({@link SessionlessAuthorizationRequestRepository}) and the reactive ({@link
 * SessionlessServerAuthorizationRequestRepository}) repositories store by. Kept: the
 * authorization URI, client id, redirect URI, scopes, {@code state}, and the additional
 * parameters and attributes (the OIDC {@code nonce}, the PKCE {@code code_verifier}); not the
 * authorization request URI, which the builder makes again from them.
 *
 * <p>Loaded only when Spring Security's OAuth2 client is on the class path.
 */
final class AuthorizationRequestValues {
  private AuthorizationRequestValues() {}

  /**
   * The request's values.
   *
   * @throws IllegalArgumentException if the request carries a parameter or attribute that is not
   *     a string, which a token session does not keep (Spring Security's own are all strings)
   */
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

  /** The kept request, if it is there and its {@code state} is {@code state}; else {@code null}. */
  static OAuth2AuthorizationRequest matching(Object value, String state) {
    if (state == null) {
      return null;
    }
    OAuth2AuthorizationRequest kept = read(value);
    return kept != null && state.equals(kept.getState()) ? kept : null;
  }

  private static Map<String, Object> objects(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
    return out;
  }

  /**
   * Whether {@code filter}'s {@code authorizationRequestRepository} field is unset or of Spring's
   * {@code defaultType}, or the field is not there to tell (then the caller replaces it); used by the servlet
   * ({@link OAuth2LoginRequests}) and reactive ({@link ServerOAuth2LoginRequests}) sides.
   */
  static boolean holdsDefault(Object filter, Class<?> defaultType) {
    Field field = ReflectionUtils.findField(filter.getClass(), "authorizationRequestRepository");
    if (field == null) {
      return true;
    }
    ReflectionUtils.makeAccessible(field);
    Object current = ReflectionUtils.getField(field, filter);
    return current == null || defaultType.isInstance(current);
  }
}
