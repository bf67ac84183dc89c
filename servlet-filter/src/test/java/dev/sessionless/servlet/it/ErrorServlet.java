package dev.sessionless.servlet.it;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The error page: shows the status and the session it sees. */
public final class ErrorServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/plain;charset=UTF-8");
    res.getWriter().println("errorPage=" + req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE));
    AppServlet.describe(req, res.getWriter());
  }
}
