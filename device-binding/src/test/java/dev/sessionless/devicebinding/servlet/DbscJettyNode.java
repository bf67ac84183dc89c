package dev.sessionless.devicebinding.servlet;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.devicebinding.DeviceBindingBuilder;
import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.servlet.it.Container;
import dev.sessionless.servlet.it.JettyServers;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * One application node on real embedded Jetty over loopback: {@code SessionlessFilter}, then
 * {@link DeviceBindingFilter}, then the application: {@code POST /login?user=..} logs in and
 * offers registration; every other path answers {@code 200} with the user and whether the
 * session is bound, and counts the requests that reached it. Nodes built on the same keys share
 * nothing else. Public for the WebFlux tests, which pair it with a WebFlux node.
 */
public final class DbscJettyNode implements LoopbackNode {
  static final String ISSUER = "https://shop.example";
  private final Container server;
  final String base;
  /** Requests that reached the application (not refused by the filter). */
  final AtomicInteger reached = new AtomicInteger();

  /** A node on these keys and clock, the DBSC filter configured by {@code config}. */
  public DbscJettyNode(KeySource sessionKeys, KeySource dbscKeys, Clock clock, Consumer<DeviceBindingBuilder<?>> config)
      throws Exception {
    // readme-servlet:start
    SessionlessFilter sessions = SessionlessFilter.builder().keys(sessionKeys).algorithm(Algorithm.HS256)
        .issuer(ISSUER).audience("shop").cookieName("SESSIONLESS").clock(clock).build();
    DeviceBindingFilterBuilder b = DeviceBindingFilter.builder().keys(dbscKeys).issuer(ISSUER).clock(clock);
    config.accept(b);                                   // each test's settings: policy, lifetimes, routes
    DeviceBindingFilter dbsc = b.build();
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    // SessionlessFilter first (the DBSC session's id lives in its session), then DBSC, then the rest.
    context.addFilter(new FilterHolder(sessions), "/*", EnumSet.allOf(DispatcherType.class));
    context.addFilter(new FilterHolder(dbsc), "/*", EnumSet.of(DispatcherType.REQUEST));
    // readme-servlet:end
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        reached.incrementAndGet();
        if (req.getRequestURI().equals("/login") && req.getMethod().equals("POST")) {
          // readme-login:start
          SessionlessFilter.loggedIn(req, req.getParameter("user"));
          req.getSession().setAttribute("user", req.getParameter("user"));
          DeviceBindingFilter.offerRegistration(req, res);   // Secure-Session-Registration on this response
          // readme-login:end
          res.getWriter().write("logged in");
          return;
        }
        Object user = req.getSession(false) == null ? null : req.getSession(false).getAttribute("user");
        res.setContentType("text/plain");
        res.getWriter().write("user=" + user + " bound=" + DeviceBindingFilter.isBound(req));
      }
    }), "/*");
    server = JettyServers.start(context, "ee10");
    base = "http://127.0.0.1:" + server.port();
  }

  @Override
  public String base() {
    return base;
  }

  @Override
  public int reached() {
    return reached.get();
  }

  @Override
  public void close() {
    server.close();
  }
}
