package dev.sessionless.servlet.it;

import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Login, logout and "log out everywhere" as an application writes them: {@code /login?user=},
 * {@code /me}, {@code /logout}, {@code /everywhere?user=}. Every reply names the node.
 */
final class RevocationServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final String node;

  RevocationServlet(String node) {
    this.node = node;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/plain;charset=UTF-8");
    PrintWriter w = res.getWriter();
    w.println("node=" + node);
    switch (String.valueOf(req.getPathInfo())) {
      case "/login": {
        String user = req.getParameter("user");
        SessionlessFilter.loggedIn(req, user);
        req.getSession().setAttribute("user", user);
        break;
      }
      case "/logout": {
        HttpSession s = req.getSession(false);
        if (s != null) {
          s.invalidate();
        }
        break;
      }
      case "/everywhere":
        SessionlessFilter.logOutEverywhere(req, req.getParameter("user"));
        break;
      case "/me":
        break;
      default:
        res.sendError(404);
        return;
    }
    HttpSession s = req.getSession(false);
    w.println("user=" + (s == null ? "none" : s.getAttribute("user")));
    w.println("session=" + (s == null ? "none" : s.getId()));
    w.println("rejection=" + req.getAttribute(SessionlessFilter.REJECTION_ATTRIBUTE));
    // After getSession: the attribute is there once the session has been looked at.
    w.println("authTimeAttribute=" + req.getAttribute(SessionlessFilter.AUTH_TIME_ATTRIBUTE));
    w.println("authTime=" + SessionlessFilter.authTime(req).map(String::valueOf).orElse("none"));
  }
}
