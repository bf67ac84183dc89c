package dev.sessionless.servlet.it;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Servlet 6.1 ways of committing a response after a session change ({@code value} is stored as
 * attribute {@code a}). Only loaded in 6.1 containers.
 */
public final class Servlet61Servlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    req.getSession().setAttribute("a", req.getParameter("value"));
    switch (req.getPathInfo()) {
      case "/redirect":
        switch (req.getParameter("overload")) {
          case "status-and-clear":
            res.sendRedirect("/s/read", 303, true);
            break;
          case "status":
            res.sendRedirect("/s/read", 307);
            break;
          default:
            res.setContentType("text/plain;charset=UTF-8");
            res.getWriter().print("kept");
            res.sendRedirect("/s/read", false);
            break;
        }
        return;
      case "/bytebuffer": {
        res.setBufferSize(1024);
        byte[] chunk = new byte[1024];
        Arrays.fill(chunk, (byte) 'b');
        int kb = Integer.parseInt(req.getParameter("kb"));
        for (int i = 0; i < kb; i++) {
          res.getOutputStream().write(ByteBuffer.wrap(chunk));
        }
        req.getSession().setAttribute("late", "lost");
        return;
      }
      default:
        res.sendError(404);
    }
  }
}
