package dev.sessionless.propagation;

import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A real Jetty 12 (ee10) serving one servlet at /jwks.json on a free loopback port. */
final class LoopbackJetty implements AutoCloseable {
  private final Server server = new Server();
  final URI uri;

  LoopbackJetty(HttpServlet servlet) throws Exception {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(servlet), "/jwks.json");
    server.setHandler(context);
    server.start();
    uri = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/jwks.json");
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
