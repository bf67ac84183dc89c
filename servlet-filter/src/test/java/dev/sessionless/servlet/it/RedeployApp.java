package dev.sessionless.servlet.it;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The servlet of the webapp that {@link RedeployLeakTest} deploys: its class file is copied into
 * that webapp's {@code WEB-INF/classes}, so the webapp's class loader, not the test's, loads it.
 * {@code .../write} adds one to the session's counter, {@code .../read} only reads it, and
 * {@code /loaders} tells which loaders hold the filter and its libraries. Every reply names the
 * worker thread that served it.
 *
 * <p>With the init parameter {@code park=true} (the test's negative control) it leaves itself in
 * a {@code ThreadLocal} of every worker thread it runs on, the classic webapp leak.
 */
public final class RedeployApp extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ThreadLocal<Object> PARKED = new ThreadLocal<>();
  private static final String[] LIBRARIES = {
    "dev.sessionless.servlet.SessionlessFilter", "dev.sessionless.core.TokenCodec",
    "dev.sessionless.keyring.Keyring", "tools.jackson.databind.ObjectMapper",
    "com.github.benmanes.caffeine.cache.Caffeine", "org.bouncycastle.crypto.CryptoServicesRegistrar"
  };
  private transient boolean park;

  /** Created by the container from {@code web.xml}. */
  public RedeployApp() {}

  @Override
  public void init() {
    park = Boolean.parseBoolean(getInitParameter("park"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String path = String.valueOf(req.getPathInfo());
    StringBuilder body = new StringBuilder();
    if (path.equals("/loaders")) {
      ClassLoader mine = RedeployApp.class.getClassLoader();
      body.append("webapp=").append(mine.getClass().getName()).append('@')
          .append(System.identityHashCode(mine)).append('\n');
      for (String name : LIBRARIES) {
        try {
          ClassLoader l = Class.forName(name, false, mine).getClassLoader();
          body.append(name).append('=').append(l == mine ? "webapp" : String.valueOf(l)).append('\n');
        } catch (ClassNotFoundException e) {
          body.append(name).append("=absent\n");
        }
      }
    } else if (path.endsWith("/write")) {
      HttpSession session = req.getSession();
      Integer n = (Integer) session.getAttribute("n");
      int next = n == null ? 1 : n + 1;
      session.setAttribute("n", next);
      body.append("n=").append(next);
    } else if (path.endsWith("/read")) {
      HttpSession session = req.getSession(false);
      body.append("n=").append(session == null ? "none" : session.getAttribute("n"));
    } else {
      res.sendError(404);
      return;
    }
    body.append(" thread=").append(Thread.currentThread().getName());
    if (park) {
      PARKED.set(this);
    }
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    res.setContentType("text/plain;charset=UTF-8");
    res.setContentLength(bytes.length);
    res.getOutputStream().write(bytes);
  }
}
