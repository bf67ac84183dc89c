package dev.sessionless.gateway;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenFilter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A downstream service on a real Jetty (ee10) on loopback: {@code /api/*} behind the servlet
 * {@link InternalTokenFilter} (installed once the gateway's JWKS URL is known), {@code
 * /public/*} open. Both answer what arrived: the service's name, the verified token's audience,
 * subject, key id and state, the {@code Cookie} and {@code traceparent} headers, and whether an
 * {@code Authorization} header came at all. The last {@code Authorization} header is kept for
 * replaying it elsewhere.
 */
final class LoopbackService implements AutoCloseable {
  private final Server server = new Server();
  private final AtomicReference<Filter> verifying = new AtomicReference<>();
  final AtomicReference<String> lastAuthorization = new AtomicReference<>();
  final String name;
  final URI root;

  LoopbackService(String name) throws Exception {
    this.name = name;
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addFilter(new FilterHolder((Filter) (req, res, chain) -> {
      lastAuthorization.set(((HttpServletRequest) req).getHeader("Authorization"));
      chain.doFilter(req, res);
    }), "/*", EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    context.addFilter(new FilterHolder(new Filter() {
      @Override
      public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
          throws IOException, ServletException {
        Filter f = verifying.get();
        if (f == null) {
          ((HttpServletResponse) res).sendError(503);
          return;
        }
        f.doFilter(req, res, chain);
      }
    }), "/api/*", EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(new Echo()), "/*");
    server.setHandler(context);
    server.start();
    root = URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  /** Installs the receiving filter: from now on {@code /api/*} needs a token it accepts. */
  void verifyWith(InternalTokenFilter filter) {
    verifying.set(filter);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  /** Answers {@code key=value} lines, sorted. */
  private final class Echo extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      Map<String, String> seen = new TreeMap<>();
      seen.put("service", name);
      seen.put("path", req.getRequestURI());
      seen.put("cookie", String.valueOf(req.getHeader("Cookie")));
      seen.put("traceparent", String.valueOf(req.getHeader("traceparent")));
      seen.put("authorization", req.getHeader("Authorization") == null ? "absent" : "present");
      CallContext.current().flatMap(CallContext::token).ifPresent((InternalToken t) -> {
        seen.put("aud", t.audience());
        seen.put("sub", t.subject().orElse("-"));
        seen.put("sid", t.sessionId());
        seen.put("kid", t.token().keyId());
        seen.put("actors", String.valueOf(t.actors()));
        Map<String, String> state = new TreeMap<>();
        t.stateNames().forEach(n -> state.put(n, t.token().get(n, String.class).orElse("?")));
        seen.put("state", state.toString());
      });
      resp.setContentType("text/plain;charset=UTF-8");
      StringBuilder out = new StringBuilder();
      seen.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
      resp.getWriter().write(out.toString());
    }
  }
}
