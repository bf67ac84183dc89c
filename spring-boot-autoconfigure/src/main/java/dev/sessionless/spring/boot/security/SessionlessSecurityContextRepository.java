package dev.sessionless.spring.boot.security;

import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.DeferredSecurityContext;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.context.HttpRequestResponseHolder;
import org.springframework.security.web.context.SecurityContextRepository;

/**
 * Keeps the authenticated user in the token session as plain values — name, authorities with
 * their factor times, the kind of login — and restores an {@link Authentication} from them on
 * every request. Password logins (form, HTTP Basic) come back as a {@code
 * UsernamePasswordAuthenticationToken} (with a {@code UserDetails} principal when the login had
 * one), remember-me logins as a {@code RememberMeAuthenticationToken}, and anything else as a
 * {@link RestoredAuthentication}. Credentials and details are never stored.
 *
 * <p>Security: the values are only as trustworthy as the token session, which is signed (or
 * encrypted) and checked on every request; an anonymous authentication is never saved.
 *
 * <p>Thread-safe.
 */
public final class SessionlessSecurityContextRepository implements SecurityContextRepository {
  private static final Log LOG = LogFactory.getLog(SessionlessSecurityContextRepository.class);
  /** The session attribute holding the authentication's values. */
  public static final String ATTRIBUTE = "sessionless.security.authentication";

  private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();
  private final SecurityContextHolderStrategy strategy = SecurityContextHolder.getContextHolderStrategy();

  /** A repository keeping the authentication under {@link #ATTRIBUTE}. */
  public SessionlessSecurityContextRepository() {}

  /**
   * The security context of the request's token session, or an empty one.
   *
   * @deprecated Spring Security calls {@link #loadDeferredContext} instead.
   */
  @Deprecated
  @Override
  public SecurityContext loadContext(HttpRequestResponseHolder holder) {
    return load(holder.getRequest());
  }

  /** The security context of the request's token session, read when first asked for. */
  @Override
  public DeferredSecurityContext loadDeferredContext(HttpServletRequest request) {
    return new DeferredSecurityContext() {
      private SecurityContext context;

      @Override
      public SecurityContext get() {
        if (context == null) {
          context = load(request);
        }
        return context;
      }

      @Override
      public boolean isGenerated() {
        return authentication(request) == null;
      }
    };
  }

  private SecurityContext load(HttpServletRequest request) {
    SecurityContext context = strategy.createEmptyContext();
    Authentication auth = authentication(request);
    if (auth != null) {
      context.setAuthentication(auth);
    }
    return context;
  }

  private static Authentication authentication(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    if (session == null) {
      return null;
    }
    return AuthenticationValues.readStored(session.getAttribute(ATTRIBUTE));
  }

  /**
   * Stores the context's authentication in the token session (creating it), or removes it when
   * there is none or it is anonymous. Storing what is already there changes nothing, so the
   * token is not rewritten. Storing a user where there was none or another one is a login: it
   * goes through {@link SessionlessFilter#loggedIn}, so the token carries the user's name as its
   * subject and the login time ({@code auth_time}), which "log out everywhere" checks.
   *
   * @throws IllegalStateException if the request did not pass through the Sessionless filter
   */
  @Override
  public void saveContext(SecurityContext context, HttpServletRequest request, HttpServletResponse response) {
    if (response != null && response.isCommitted()) {
      // The token went out with the response: a change now could not reach the browser.
      LOG.debug("the response is committed: the security context is not saved (as Spring Security's own"
          + " repositories do)");
      return;
    }
    Authentication auth = context == null ? null : context.getAuthentication();
    if (auth == null || trust.isAnonymous(auth)) {
      HttpSession session = request.getSession(false);
      if (session != null && session.getAttribute(ATTRIBUTE) != null) {
        session.removeAttribute(ATTRIBUTE);
      }
      return;
    }
    Map<String, Object> values = AuthenticationValues.write(auth);
    HttpSession session = request.getSession();
    Object stored = session.getAttribute(ATTRIBUTE);
    if (!Objects.equals(stored, values)) {
      if (AuthenticationValues.isLogin(stored, auth)) {
        // A login (no user before, or another one): the token gets the subject and auth_time
        // that "log out everywhere" checks, and a new session id against fixation.
        SessionlessFilter.loggedIn(request, auth.getName());
        session = request.getSession();
      }
      session.setAttribute(ATTRIBUTE, values);
    }
  }

  /** Whether the request's token session holds an authentication. */
  @Override
  public boolean containsContext(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    return session != null && session.getAttribute(ATTRIBUTE) != null;
  }
}
