package dev.sessionless.grpc;

import jakarta.servlet.Filter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real Jetty 12 (ee10) on a free loopback port serving servlets at paths, behind filters on
 * every request: the edge of the tests, and the services' JWKS endpoints.
 */
final class LoopbackHttp implements AutoCloseable {
  private final Server server = new Server();
  private final URI root;

  /** Serves {@code servlets} (path to servlet) behind {@code filters}, in order. */
  LoopbackHttp(Map<String, HttpServlet> servlets, Filter... filters) throws Exception {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    for (Filter f : filters) {
      context.addFilter(new FilterHolder(f), "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    new LinkedHashMap<>(servlets).forEach((path, servlet) -> context.addServlet(new ServletHolder(servlet), path));
    server.setHandler(context);
    server.start();
    root = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
  }

  /** {@code path} on this server. */
  URI at(String path) {
    return root.resolve(path);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
