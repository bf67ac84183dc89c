package dev.sessionless.spring.boot.security;

import java.util.Collection;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;

/**
 * An authenticated user restored from a token session, when the login that made it was neither
 * a password login (form, HTTP Basic) nor remember-me: it keeps the name, the authorities and
 * the original authentication's class name ({@link #getType()}), never credentials or details.
 *
 * <p>Immutable and thread-safe.
 */
public final class RestoredAuthentication extends AbstractAuthenticationToken {
  private static final long serialVersionUID = 1L;

  private final Object principal;
  private final String name;
  private final String type;

  RestoredAuthentication(Object principal, String name, String type,
      Collection<? extends GrantedAuthority> authorities) {
    super(authorities);
    this.principal = principal;
    this.name = name;
    this.type = type;
    super.setAuthenticated(true);
  }

  /** The class name of the authentication the login made. */
  public String getType() {
    return type;
  }

  /** The user's name, or the {@code UserDetails} made from it. */
  @Override
  public Object getPrincipal() {
    return principal;
  }

  /** Always {@code null}: credentials never travel in a token session. */
  @Override
  public Object getCredentials() {
    return null;
  }

  /** The user's name. */
  @Override
  public String getName() {
    return name;
  }

  /** Refuses to mark this authentication trusted again once untrusted. */
  @Override
  public void setAuthenticated(boolean authenticated) {
    if (authenticated) {
      throw new IllegalArgumentException("a restored authentication cannot be marked authenticated again");
    }
    super.setAuthenticated(false);
  }
}
