package dev.sessionless.load.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.load.LoadException;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Nodes of embedded Jetty 12 on loopback running the {@link ShopServlet}, with the session kept
 * either by the Sessionless filter (the nodes share one key set and nothing else) or by each
 * node's own in-memory {@code HttpSession} store. A Spring Session + Redis kind would be one more
 * {@link Kind} whose nodes share a Redis on loopback; it is not built yet.
 */
public final class Cluster implements AutoCloseable {
  /** How the nodes keep sessions. */
  public enum Kind {
    /** The Sessionless filter: the session is a signed cookie, any node serves any request. */
    SESSIONLESS,
    /** Jetty's in-memory {@code HttpSession}: each node knows only its own sessions. */
    HTTP_SESSION
  }

  private final Kind kind;
  private final List<Server> servers = new ArrayList<>();
  private final List<URI> nodes = new ArrayList<>();

  private Cluster(Kind kind) {
    this.kind = kind;
  }

  /**
   * Starts {@code count} nodes.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when a node does not start
   */
  public static Cluster start(Kind kind, int count) {
    Cluster cluster = new Cluster(kind);
    KeySet keys = KeySet.of(TokenKey.generate("load", Algorithm.HS256));
    try {
      for (int i = 0; i < count; i++) {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = kind == Kind.HTTP_SESSION
            ? new ServletContextHandler("/", ServletContextHandler.SESSIONS)
            : new ServletContextHandler("/");
        if (kind == Kind.SESSIONLESS) {
          SessionlessFilter filter = SessionlessFilter.builder()
              .keys(keys).issuer("https://shop.example").audience("shop").build();
          context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        context.addServlet(new ServletHolder(new ShopServlet()), "/shop/*");
        server.setHandler(context);
        cluster.servers.add(server);
        server.start();
        cluster.nodes.add(URI.create("http://127.0.0.1:" + connector.getLocalPort()));
      }
    } catch (Exception e) {
      cluster.close();
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not start a " + kind + " node: " + e, e);
    }
    return cluster;
  }

  /** The kind of session store. */
  public Kind kind() {
    return kind;
  }

  /** The nodes' base URIs, in start order. */
  public List<URI> nodes() {
    return List.copyOf(nodes);
  }

  /** Stops every node. */
  @Override
  public void close() {
    for (Server s : servers) {
      try {
        s.stop();
      } catch (Exception e) {
        // stopping is best effort: the JVM ends the run anyway
      }
    }
  }
}
