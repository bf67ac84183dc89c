package dev.sessionless.spring.boot.security;

import dev.sessionless.propagation.InternalToken;
import java.util.List;
import java.util.Objects;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A request authenticated by a verified internal token ({@code sessionless-propagation}'s
 * {@link InternalToken}), for that request only: it is never saved in a session.
 *
 * <ul>
 *   <li>principal and name: the token's subject (the user the edge authenticated); a token
 *       without one (an anonymous browser session at the edge) has a {@code null} principal and
 *       an empty name;
 *   <li>authorities: {@link #AUTHORITY} ({@code ROLE_INTERNAL}, so {@code hasRole("INTERNAL")}),
 *       nothing from the edge's own roles: the token does not carry them;
 *   <li>details: the {@link InternalToken} (issuer, actors, state values); credentials: none, the
 *       token text is never kept.
 * </ul>
 *
 * <p>Immutable and thread-safe; its {@link #toString()} shows no token, id or value.
 */
public final class InternalTokenAuthentication extends AbstractAuthenticationToken {
  /** The one authority every internal-token request has. */
  public static final String AUTHORITY = "ROLE_INTERNAL";
  private static final long serialVersionUID = 1L;

  private final transient InternalToken token;
  private final String subject;

  /**
   * The authentication of a verified token.
   *
   * @param token verified by the service's {@code InternalTokenVerifier}
   */
  public InternalTokenAuthentication(InternalToken token) {
    super(List.of(new SimpleGrantedAuthority(AUTHORITY)));
    this.token = Objects.requireNonNull(token, "token");
    this.subject = token.subject().orElse(null);
    super.setDetails(token);
    super.setAuthenticated(true);
  }

  /** The verified internal token. */
  public InternalToken getToken() {
    return token;
  }

  /** The token's subject, or {@code null} when it has none. */
  @Override
  public Object getPrincipal() {
    return subject;
  }

  /** Always {@code null}: the token text is not kept. */
  @Override
  public Object getCredentials() {
    return null;
  }

  /** The token's subject, or the empty string when it has none. */
  @Override
  public String getName() {
    return subject == null ? "" : subject;
  }

  /** Refuses to mark this authentication trusted again once untrusted. */
  @Override
  public void setAuthenticated(boolean authenticated) {
    if (authenticated) {
      throw new IllegalArgumentException("an internal-token authentication cannot be marked authenticated again");
    }
    super.setAuthenticated(false);
  }

  /** The issuer and authority only. */
  @Override
  public String toString() {
    return "InternalTokenAuthentication[iss=" + token.issuer() + ", " + AUTHORITY + "]";
  }
}
