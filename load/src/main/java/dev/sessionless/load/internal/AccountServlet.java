package dev.sessionless.load.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The shop's account routes for the {@code revocation-lag} profile, beside {@link ShopServlet}:
 * {@code /account/login?user=…} puts the user in a new session, {@code /account/me} answers
 * {@code 200 user=…} while the session holds a user and {@code 401} when it holds none (no token,
 * or a token the filter refused: a revoked one starts a fresh, empty session), and {@code
 * /account/logout} ends the session with {@code invalidate()}, which the Sessionless filter turns
 * into a revocation in its store. An ordinary servlet on {@code HttpSession}: what a revoked token
 * gets here is what the filter gives any application.
 */
public final class AccountServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  /** The session attribute holding the logged-in user. */
  static final String USER = "user";

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String action = req.getPathInfo() == null ? "" : req.getPathInfo();
    res.setContentType(Shop.CONTENT_TYPE);
    switch (action) {
      case "/login" -> {
        String user = req.getParameter("user");
        if (user == null || user.isEmpty() || user.length() > 64) {
          res.sendError(HttpServletResponse.SC_BAD_REQUEST, "user must be 1 to 64 characters");
          return;
        }
        req.getSession().setAttribute(USER, user);
        res.getWriter().print("user=" + user);
      }
      case "/me" -> {
        HttpSession session = req.getSession(false);
        Object user = session == null ? null : session.getAttribute(USER);
        if (user == null) {
          res.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
          res.getWriter().print("no session");
        } else {
          res.getWriter().print("user=" + user);
        }
      }
      case "/logout" -> {
        HttpSession session = req.getSession(false);
        if (session != null) {
          session.invalidate(); // the filter revokes the token's session id in the store
        }
        res.getWriter().print("logged out");
      }
      default -> res.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
  }
}
