package dev.sessionless.spring.boot.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.UUID;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.DefaultCsrfToken;

/**
 * Keeps the CSRF token in the token session as a string: verifiable on any node without server
 * state, because the session that holds it is signed (or encrypted) and travels with the
 * request. Uses Spring Security's usual header ({@code X-CSRF-TOKEN}) and parameter ({@code
 * _csrf}); Spring Security's request handler still masks the token per response (BREACH).
 *
 * <p>A token saved after the response is committed is skipped (logged at DEBUG): the session's
 * cookie is already sent.
 *
 * <p>Thread-safe.
 */
public final class SessionlessCsrfTokenRepository implements CsrfTokenRepository {
  /** The session attribute holding the token value. */
  public static final String ATTRIBUTE = "sessionless.security.csrf";
  private static final String HEADER = "X-CSRF-TOKEN";
  private static final String PARAMETER = "_csrf";
  private static final Log LOG = LogFactory.getLog(SessionlessCsrfTokenRepository.class);

  /** A repository keeping the token under {@link #ATTRIBUTE}. */
  public SessionlessCsrfTokenRepository() {}

  /** A new random token (not yet saved). */
  @Override
  public CsrfToken generateToken(HttpServletRequest request) {
    return new DefaultCsrfToken(HEADER, PARAMETER, UUID.randomUUID().toString());
  }

  /** Stores the token's value in the token session, or removes it when {@code token} is null. */
  @Override
  public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
    if (response != null && response.isCommitted()) {
      // The session's token already went out: a change now could not reach the browser.
      LOG.debug("the response is committed: the CSRF token is not saved");
      return;
    }
    if (token == null) {
      HttpSession session = request.getSession(false);
      if (session != null) {
        session.removeAttribute(ATTRIBUTE);
      }
      return;
    }
    request.getSession().setAttribute(ATTRIBUTE, token.getToken());
  }

  /** The token of the request's token session, or {@code null}. */
  @Override
  public CsrfToken loadToken(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object value = session == null ? null : session.getAttribute(ATTRIBUTE);
    return value instanceof String ? new DefaultCsrfToken(HEADER, PARAMETER, (String) value) : null;
  }
}
