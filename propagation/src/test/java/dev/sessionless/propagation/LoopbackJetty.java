package dev.sessionless.propagation;

import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A real Jetty 12 (ee10) on a free loopback port. */
final class LoopbackJetty implements LoopbackContainer {
  private final Server server = new Server();
  /** The JWKS URL for the one-servlet form, else the root. */
  final URI uri;
  final URI root;

  /** Serves one servlet at /jwks.json. */
  LoopbackJetty(HttpServlet servlet) throws Exception {
    this(context -> context.addServlet(new ServletHolder(servlet), "/jwks.json"), "/jwks.json");
  }

  /** Serves what {@code setup} adds to the context. */
  LoopbackJetty(Consumer<ServletContextHandler> setup) throws Exception {
    this(setup, "/");
  }

  private LoopbackJetty(Consumer<ServletContextHandler> setup, String path) throws Exception {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    setup.accept(context);
    server.setHandler(context);
    server.start();
    root = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    uri = root.resolve(path.substring(1));
  }

  @Override
  public URI root() {
    return root;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
