package dev.sessionless.spring.boot.security;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;
import org.springframework.security.oauth2.core.user.DefaultOAuth2User;
import org.springframework.security.oauth2.core.user.OAuth2User;
import org.springframework.security.oauth2.core.user.OAuth2UserAuthority;

/**
 * An OAuth2/OIDC login ({@link OAuth2AuthenticationToken}) as plain values and back: the
 * registration id, the name attribute's key, and for OIDC the ID token's claims except those that
 * only served its verification ({@code nonce}, {@code at_hash}, {@code c_hash}); for plain OAuth2
 * only the name attribute. The name and authorities are kept by {@link AuthenticationValues}.
 * Never the ID token itself, the access token or the refresh token.
 *
 * <p>Loaded only when Spring Security's OAuth2 client is on the class path.
 */
final class OAuth2Values {
  static final String OIDC = "oidc";
  static final String OAUTH2 = "oauth2";
  /** Stands in for the ID token's compact form, which the session does not keep. */
  static final String ID_TOKEN_NOT_KEPT = "not-kept-in-the-session";
  private static final Set<String> VERIFICATION_ONLY = Set.of("nonce", "at_hash", "c_hash");
  private static final Set<String> TIMES = Set.of("exp", "iat", "auth_time", "nbf", "updated_at");

  private OAuth2Values() {}

  static boolean handles(Authentication auth) {
    return auth instanceof OAuth2AuthenticationToken;
  }

  /** The kind of login ({@code oidc} or {@code oauth2}) and its values, put into {@code m}. */
  static String write(Authentication auth, Map<String, Object> m) {
    OAuth2AuthenticationToken token = (OAuth2AuthenticationToken) auth;
    OAuth2User user = token.getPrincipal();
    m.put("registration", token.getAuthorizedClientRegistrationId());
    String nameKey = nameKey(user, token.getAuthorities());
    m.put("name-key", nameKey);
    Map<String, Object> claims = new LinkedHashMap<>();
    if (user instanceof OidcUser && ((OidcUser) user).getIdToken() != null) {
      ((OidcUser) user).getIdToken().getClaims().forEach((k, v) -> {
        if (!VERIFICATION_ONLY.contains(k)) {
          claims.put(k, plain(v));
        }
      });
      claims.putIfAbsent(nameKey, plain(user.getAttributes().get(nameKey)));
      m.put("claims", claims);
      return OIDC;
    }
    claims.put(nameKey, plain(user.getAttributes().get(nameKey)));
    m.put("claims", claims);
    return OAUTH2;
  }

  /** The attribute holding the user's name: as the authority says, else the first that matches. */
  private static String nameKey(OAuth2User user, Collection<? extends GrantedAuthority> authorities) {
    for (GrantedAuthority a : authorities) {
      if (a instanceof OAuth2UserAuthority && ((OAuth2UserAuthority) a).getUserNameAttributeName() != null) {
        return ((OAuth2UserAuthority) a).getUserNameAttributeName();
      }
    }
    String name = user.getName();
    if (name.equals(String.valueOf(user.getAttributes().get("sub")))) {
      return "sub";
    }
    for (Map.Entry<String, Object> e : user.getAttributes().entrySet()) {
      if (name.equals(String.valueOf(e.getValue()))) {
        return e.getKey();
      }
    }
    throw new IllegalArgumentException("the OAuth2 user " + name + " has no attribute holding its name");
  }

  /**
   * A claim as JSON reads it back: times as epoch seconds, whole numbers as {@code Integer} when
   * they fit (else {@code Long}), other numbers as {@code Double}, URLs and the like as strings.
   */
  private static Object plain(Object v) {
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Instant) {
      return whole(((Instant) v).getEpochSecond());
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return whole(((Number) v).longValue());
    }
    if (v instanceof Number) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof Collection) {
      List<Object> l = new ArrayList<>();
      ((Collection<?>) v).forEach(x -> l.add(plain(x)));
      return l;
    }
    if (v instanceof Map) {
      Map<String, Object> out = new LinkedHashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
      return out;
    }
    return v.toString();
  }

  private static Object whole(long n) {
    return n == (int) n ? (Object) (int) n : (Object) n;
  }

  /**
   * The login {@code m} describes, with {@code authorities} (plain strings; {@code OIDC_USER} and
   * {@code OAUTH2_USER} come back as the user authorities Spring made); {@code null} if {@code m}
   * is not one.
   */
  static Authentication read(String kind, Map<?, ?> m, List<GrantedAuthority> authorities) {
    if (!(m.get("registration") instanceof String) || !(m.get("name-key") instanceof String)
        || !(m.get("claims") instanceof Map)) {
      return null;
    }
    String nameKey = (String) m.get("name-key");
    Map<String, Object> claims = new LinkedHashMap<>();
    ((Map<?, ?>) m.get("claims")).forEach((k, v) -> claims.put(String.valueOf(k),
        TIMES.contains(String.valueOf(k)) && v instanceof Number ? Instant.ofEpochSecond(((Number) v).longValue()) : v));
    if (!claims.containsKey(nameKey)) {
      return null;
    }
    List<GrantedAuthority> restored = new ArrayList<>();
    OAuth2User user;
    if (OIDC.equals(kind)) {
      OidcIdToken idToken = new OidcIdToken(ID_TOKEN_NOT_KEPT, (Instant) claims.get("iat"),
          (Instant) claims.get("exp"), claims);
      for (GrantedAuthority a : authorities) {
        restored.add("OIDC_USER".equals(a.getAuthority()) ? new OidcUserAuthority("OIDC_USER", idToken, null, nameKey) : a);
      }
      user = new DefaultOidcUser(restored, idToken, null, nameKey);
    } else {
      for (GrantedAuthority a : authorities) {
        restored.add("OAUTH2_USER".equals(a.getAuthority()) ? new OAuth2UserAuthority("OAUTH2_USER", claims, nameKey) : a);
      }
      user = new DefaultOAuth2User(restored, claims, nameKey);
    }
    return new OAuth2AuthenticationToken(user, restored, (String) m.get("registration"));
  }
}
