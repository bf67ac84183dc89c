package dev.sessionless.load.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.load.LoadException;
import dev.sessionless.redis.RedisRevocations;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.RedisServer;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;

/**
 * The {@code revocation-lag} profile's system: Sessionless on embedded Jetty nodes, each with
 * its own {@link RedisRevocations} store (as a deployment has one per JVM) against one {@code
 * redis-server} that this class starts on loopback (the one on the {@code PATH}, else the binary
 * the tool's jar carries, through test-support's {@link RedisServer}, which persists nothing).
 * The nodes reach Redis through a {@link CuttableLink}, so the network to Redis can fail while
 * Redis keeps its data; {@link #restartRedis} stops the process and starts a fresh one on the
 * same port (its data lost). Each node serves the shop ({@link ShopServlet}) and the account
 * routes ({@link AccountServlet}).
 */
public final class RevocationNodes implements AutoCloseable {
  /** How each node's store is set up. */
  public record StoreSettings(boolean subscribe, Duration pollInterval, Duration staleBound,
      RedisRevocations.OnStale onStale, String keyPrefix) {}

  private final StoreSettings settings;
  private final KeySet keys = KeySet.of(TokenKey.generate("lag-0", Algorithm.HS256));
  private final KeySource keySource = () -> keys;
  private final List<Node> nodes = new ArrayList<>();
  private final AtomicIntegerArray down;
  private final CuttableLink link;
  private volatile RedisServer redis;

  private record Node(int port, Server server, RedisRevocations store) {}

  private RevocationNodes(StoreSettings settings, int count, RedisServer redis, CuttableLink link) {
    this.settings = settings;
    this.down = new AtomicIntegerArray(count);
    this.redis = redis;
    this.link = link;
  }

  /**
   * Starts a {@code redis-server} and {@code count} nodes whose stores are set up as {@code
   * settings} says.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} if Redis or a node does not
   *     start (the message says how to install Redis when it is missing)
   */
  public static RevocationNodes start(StoreSettings settings, int count) {
    RedisServer redis;
    try {
      redis = RedisServer.start();
    } catch (IllegalStateException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, e.getMessage(), e);
    }
    RevocationNodes n = new RevocationNodes(settings, count, redis, CuttableLink.start(redis.port()));
    try {
      for (int i = 0; i < count; i++) {
        n.nodes.add(n.startNode(0));
      }
    } catch (RuntimeException e) {
      n.close();
      throw e;
    }
    return n;
  }

  private Node startNode(int port) {
    RedisRevocations store;
    try {
      RedisRevocations.Builder b = RedisRevocations.builder().uri(link.uri()).keyPrefix(settings.keyPrefix())
          .pollInterval(settings.pollInterval()).subscribe(settings.subscribe()).onStale(settings.onStale());
      if (settings.staleBound() != null) {
        b.staleBound(settings.staleBound());
      }
      store = b.build();
    } catch (RuntimeException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "the node's revocation store could not read Redis"
          + " at start (" + e.getClass().getSimpleName() + "): it does not start until Redis answers", e);
    }
    Server server = new Server();
    server.setStopTimeout(0);
    try {
      HttpConfiguration http = new HttpConfiguration();
      http.setHeaderCacheSize(0);
      KillableConnector connector = new KillableConnector(server, new HttpConnectionFactory(http));
      connector.setHost("127.0.0.1");
      connector.setPort(port);
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler("/");
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keySource).issuer("https://shop.example").audience("shop").algorithm(Algorithm.HS256)
          .revocation(store).build();
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new ShopServlet()), "/shop/*");
      context.addServlet(new ServletHolder(new AccountServlet()), "/account/*");
      server.setHandler(context);
      server.start();
      return new Node(connector.getLocalPort(), server, store);
    } catch (Exception e) {
      stop(new Node(port, server, store));
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not start a revocation-lag node: " + e, e);
    }
  }

  /** The nodes' base URIs, in start order; a restarted node keeps its URI. */
  public List<URI> nodes() {
    return snapshot().stream().map(n -> URI.create("http://127.0.0.1:" + n.port())).toList();
  }

  /** Whether node {@code index} is in the balancer's rotation. */
  public boolean isUp(int index) {
    return down.get(index) == 0;
  }

  /** Node {@code index}'s store, for its state ({@code isStale}, {@code syncCount}). */
  public RedisRevocations store(int index) {
    return snapshot().get(index).store();
  }

  /** Takes node {@code index} out of rotation and stops it, with its store. */
  public void stopNode(int index) {
    down.set(index, 1);
    stop(snapshot().get(index));
  }

  /**
   * Tries to start a fresh node {@code index} on its old port; on success puts it back into
   * rotation.
   *
   * @return whether it started (its store reads every live revocation at start, so it does not
   *     while Redis cannot be read)
   */
  public boolean tryRestartNode(int index) {
    try {
      Node fresh = startNode(snapshot().get(index).port());
      synchronized (nodes) {
        nodes.set(index, fresh);
      }
      down.set(index, 0);
      return true;
    } catch (LoadException e) {
      return false;
    }
  }

  /** Cuts the network between the nodes and Redis (Redis keeps running, with its data). */
  public void cutRedis() {
    link.cut();
  }

  /** Restores the network to Redis. */
  public void restoreRedis() {
    link.restore();
  }

  /** Stops {@code redis-server} (its data is gone: nothing is persisted). */
  public void stopRedis() {
    redis.close();
  }

  /**
   * Starts a fresh, empty {@code redis-server} on the port of the one {@link #stopRedis} stopped.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} if it does not start
   */
  public void startRedis() {
    try {
      redis = RedisServer.start(redis.port());
    } catch (IllegalStateException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, e.getMessage(), e);
    }
  }

  /** The {@code redis-server} binary in use. */
  public String redisExecutable() {
    return redis.executable().toString();
  }

  private List<Node> snapshot() {
    synchronized (nodes) {
      return List.copyOf(nodes);
    }
  }

  private static void stop(Node n) {
    try {
      n.server().stop();
    } catch (Exception e) {
      // best effort: the run ends anyway
    }
    for (Connector c : n.server().getConnectors()) {
      if (c instanceof KillableConnector k) {
        k.closeAccepted();
      }
    }
    if (n.store() != null) {
      n.store().close();
    }
  }

  /** Stops every node, the link and Redis. */
  @Override
  public void close() {
    for (int i = 0; i < snapshot().size(); i++) {
      if (isUp(i)) {
        stop(snapshot().get(i));
      }
    }
    link.close();
    redis.close();
  }
}
