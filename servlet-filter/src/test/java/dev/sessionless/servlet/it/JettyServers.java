package dev.sessionless.servlet.it;

import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;

/**
 * The Jetty 12 server around a servlet context (ee10 or ee11: only the context's package
 * differs): loopback, port 0, large headers, {@code X-Forwarded-*} trusted.
 */
public final class JettyServers {
  private JettyServers() {}

  /** Starts a server with {@code context} as its handler. */
  public static Container start(Handler context, String flavour) {
    try {
      Server server = new Server();
      HttpConfiguration http = new HttpConfiguration();
      http.setRequestHeaderSize(Container.HEADER_SIZE);
      http.setResponseHeaderSize(Container.HEADER_SIZE);
      http.addCustomizer(new ForwardedRequestCustomizer());
      ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      server.addConnector(connector);
      server.setHandler(context);
      server.start();
      int port = connector.getLocalPort();
      String name = "jetty-" + Jetty.VERSION + "-" + flavour;
      return new Container() {
        @Override
        public int port() {
          return port;
        }

        @Override
        public String name() {
          return name;
        }

        @Override
        public void stop() {
          try {
            server.stop();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (Exception e) {
      throw new IllegalStateException("Jetty did not start", e);
    }
  }
}
