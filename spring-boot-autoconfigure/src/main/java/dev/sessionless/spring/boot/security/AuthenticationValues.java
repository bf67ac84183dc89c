package dev.sessionless.spring.boot.security;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.security.authentication.RememberMeAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.util.ClassUtils;

/**
 * An {@link Authentication} as plain JDK values and back: its name, its authorities (with each
 * factor's time), what kind of login made it, and whether the principal was a {@code
 * UserDetails}; for an OAuth2/OIDC login also what {@link OAuth2Values} keeps. Credentials and
 * details are never kept.
 */
final class AuthenticationValues {
  private static final Log LOG = LogFactory.getLog(AuthenticationValues.class);
  static final String NAME = "name";
  static final String AUTHORITIES = "authorities";
  static final String FACTORS = "factors";
  static final String TYPE = "type";
  static final String USER = "user";
  static final String PASSWORD = "password";
  static final String REMEMBER_ME = "remember-me";
  /** Only for restored remember-me logins, which no provider re-authenticates. */
  private static final String REMEMBER_ME_KEY = "sessionless-restored";
  /** Whether Spring Security's OAuth2 client is there (then {@link OAuth2Values} may be loaded). */
  private static final boolean OAUTH2 = ClassUtils.isPresent(
      "org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken",
      AuthenticationValues.class.getClassLoader());

  private AuthenticationValues() {}

  static Map<String, Object> write(Authentication auth) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(NAME, auth.getName());
    List<String> authorities = new ArrayList<>();
    Map<String, String> factors = new LinkedHashMap<>();
    for (GrantedAuthority a : auth.getAuthorities()) {
      if (a.getAuthority() == null) {
        throw new IllegalArgumentException("an authority of " + auth.getName() + " is not a string ("
            + a.getClass().getName() + "): only string authorities can be kept in a token session");
      }
      if (a instanceof FactorGrantedAuthority) {
        factors.put(a.getAuthority(), ((FactorGrantedAuthority) a).getIssuedAt().toString());
      } else {
        authorities.add(a.getAuthority());
      }
    }
    m.put(AUTHORITIES, authorities);
    if (!factors.isEmpty()) {
      m.put(FACTORS, factors);
    }
    m.put(TYPE, OAUTH2 && OAuth2Values.handles(auth) ? OAuth2Values.write(auth, m) : type(auth));
    if (auth.getPrincipal() instanceof UserDetails) {
      m.put(USER, Boolean.TRUE);
    }
    return m;
  }

  private static String type(Authentication auth) {
    if (auth instanceof RememberMeAuthenticationToken) {
      return REMEMBER_ME;
    }
    if (auth instanceof UsernamePasswordAuthenticationToken) {
      return PASSWORD;
    }
    return auth.getClass().getName();
  }

  /**
   * Whether storing {@code auth} over the {@code stored} values is a login: there was no user,
   * or another one. A login gets a new session id (against fixation) and the login time.
   */
  static boolean isLogin(Object stored, Authentication auth) {
    return !(stored instanceof Map) || !auth.getName().equals(((Map<?, ?>) stored).get(NAME));
  }

  /**
   * The authentication a session attribute holds, or {@code null}: a value this class did not
   * write (another version, a bug) is logged as a warning and counts as no login, not a 500.
   */
  static Authentication readStored(Object value) {
    try {
      return read(value);
    } catch (RuntimeException e) {
      LOG.warn("the stored login cannot be read back, so the request counts as not logged in: " + e);
      return null;
    }
  }

  /** The authentication {@code m} describes; {@code null} if {@code m} is not one. */
  static Authentication read(Object value) {
    if (!(value instanceof Map)) {
      return null;
    }
    Map<?, ?> m = (Map<?, ?>) value;
    Object name = m.get(NAME);
    Object type = m.get(TYPE);
    if (!(name instanceof String) || !(type instanceof String) || !(m.get(AUTHORITIES) instanceof List)) {
      return null;
    }
    List<GrantedAuthority> authorities = new ArrayList<>();
    for (Object a : (List<?>) m.get(AUTHORITIES)) {
      authorities.add(new SimpleGrantedAuthority(String.valueOf(a)));
    }
    if (m.get(FACTORS) instanceof Map) {
      for (Map.Entry<?, ?> f : ((Map<?, ?>) m.get(FACTORS)).entrySet()) {
        authorities.add(FactorGrantedAuthority.withAuthority(String.valueOf(f.getKey()))
            .issuedAt(Instant.parse(String.valueOf(f.getValue()))).build());
      }
    }
    Object principal = Boolean.TRUE.equals(m.get(USER))
        ? User.withUsername((String) name).password("").authorities(authorities).build()
        : name;
    switch ((String) type) {
      case PASSWORD:
        return UsernamePasswordAuthenticationToken.authenticated(principal, null, authorities);
      case REMEMBER_ME:
        return new RememberMeAuthenticationToken(REMEMBER_ME_KEY, principal, authorities);
      case OAuth2Values.OIDC:
      case OAuth2Values.OAUTH2:
        return OAUTH2 ? OAuth2Values.read((String) type, m, authorities) : null;
      default:
        return new RestoredAuthentication(principal, (String) name, (String) type, authorities);
    }
  }
}
