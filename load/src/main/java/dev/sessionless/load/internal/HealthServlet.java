package dev.sessionless.load.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A Jetty node's health check ({@link Cluster#HEALTH_PATH}): 200 {@code ok}, without touching a
 * session, so a balancer checking every 200 ms creates no session in any store (Spring Session's
 * Redis included).
 */
final class HealthServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/plain;charset=utf-8");
    res.getWriter().print("ok");
  }
}
