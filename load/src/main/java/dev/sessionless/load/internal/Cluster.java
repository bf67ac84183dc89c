package dev.sessionless.load.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.load.LoadException;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.RedisServer;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;

/**
 * Nodes of embedded Jetty 12 on loopback running the {@link ShopServlet}, with the session kept
 * by the Sessionless filter (the nodes share one key set and nothing else), by each node's own
 * in-memory {@code HttpSession} store, or by Spring Session in a Redis that the cluster starts
 * on loopback and every node reaches through its own Lettuce connection; or nodes of Reactor
 * Netty running the same shop on WebFlux with Sessionless's {@code WebSession} ({@link
 * WebFluxNode}).
 *
 * <p>Faults: {@link #stopNode(int)} takes a node out of the balancer's rotation and stops it
 * (its memory is gone), {@link #restartNode(int)} starts a fresh one on the same port, and
 * {@link #rotateKeys(boolean)} switches the Sessionless nodes to a new signing key.
 *
 * <p>Every node answers {@code GET} {@value #HEALTH_PATH} with 200 without touching a session (a
 * load balancer's health check, {@link Haproxy}) and counts the shop requests it served ({@link
 * #requestsServed}).
 */
public final class Cluster implements AutoCloseable {
  /** How the nodes keep sessions. */
  public enum Kind {
    /** The Sessionless filter: the session is a signed cookie, any node serves any request. */
    SESSIONLESS,
    /** Jetty's in-memory {@code HttpSession}: each node knows only its own sessions. */
    HTTP_SESSION,
    /**
     * {@link #HTTP_SESSION} plus an opaque cookie as long as a Sessionless token, renewed on every
     * response ({@code PaddingCookieHandler}): the ceiling for any session carried in a cookie.
     */
    HTTP_SESSION_PADDED,
    /** Spring Session's {@code SessionRepositoryFilter} over a {@code RedisSessionRepository}. */
    SPRING_SESSION_REDIS,
    /**
     * WebFlux on Reactor Netty with Sessionless's token-backed {@code WebSession}: the session is a
     * signed (or encrypted) cookie, any node serves any request.
     */
    SESSIONLESS_WEBFLUX;

    /** Whether the session is a token made with the cluster's keys, which {@link #rotateKeys} rotates. */
    public boolean tokens() {
      return this == SESSIONLESS || this == SESSIONLESS_WEBFLUX;
    }
  }

  private final Kind kind;
  private final int headerCache;
  /** {@link Kind#HTTP_SESSION_PADDED}: the opaque cookie's value length. */
  private final int padding;
  private final List<Node> nodes = new ArrayList<>();
  private final AtomicIntegerArray down;
  /** Shop requests each node (by index, restarts included) has served. */
  private final AtomicLongArray served;
  private final AtomicInteger rotations = new AtomicInteger();
  private final RedisServer redis;
  /** The Sessionless nodes' token compression. */
  private final dev.sessionless.core.Compression compression;
  private final Algorithm algorithm;
  private volatile KeySet keys;
  /** CPU time each node's shop spends on a request as its own work ({@link #appCpu}). */
  private volatile long appCpuNanos;
  private final KeySource keySource = () -> keys;

  /** A running node: its port, and how to kill it (as a dead process: memory and connections gone). */
  private record Node(int port, Runnable kill) {}

  private Cluster(Kind kind, int count, RedisServer redis, int headerCache, Algorithm algorithm,
      dev.sessionless.core.Compression compression, int padding) {
    this.kind = kind;
    this.padding = padding;
    this.headerCache = headerCache;
    this.compression = compression;
    this.algorithm = algorithm;
    this.keys = KeySet.of(TokenKey.generate("load-0", algorithm));
    this.down = new AtomicIntegerArray(count);
    this.served = new AtomicLongArray(count);
    this.redis = redis;
  }

  /**
   * The padded baseline's cookie value length, chosen so that its cookies carry as many bytes per
   * request and reply as the Sessionless shop's in steady state: there, a {@code Set-Cookie} is
   * 681 characters on average over a journey and the {@code Cookie} header 649; the padded
   * system sends its {@code JSESSIONID} cookie (51 characters) beside a {@code PAD} cookie, and 619
   * characters of value make the same 1,330 characters per exchange.
   */
  public static final int DEFAULT_PADDING = 619;

  /**
   * Starts {@code count} {@link Kind#HTTP_SESSION_PADDED} nodes whose cookie value is {@code
   * padding} characters long (at least 1).
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when a node does not start
   */
  public static Cluster startPadded(int count, int headerCache, int padding) {
    if (padding < 1) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "padding must be at least 1, got " + padding);
    }
    return new Cluster(Kind.HTTP_SESSION_PADDED, count, null, headerCache, Algorithm.HS256,
        dev.sessionless.core.Compression.NONE, padding).startNodes(count);
  }

  /**
   * Starts {@code count} nodes; for {@link Kind#SPRING_SESSION_REDIS} first a {@code redis-server}
   * found on the {@code PATH}.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when a node (or Redis) does not start
   */
  public static Cluster start(Kind kind, int count) {
    return start(kind, count, null, 0);
  }

  /**
   * Starts {@code count} nodes; {@code redisServer} is the {@code redis-server} executable for
   * {@link Kind#SPRING_SESSION_REDIS} ({@code null}: see {@link Host#redisExecutable}). {@code headerCache}
   * is each node's Jetty header cache ({@code HttpConfiguration.setHeaderCacheSize}; 0 turns it
   * off). Jetty keeps, per connection, the values of headers such as {@code Cookie} that it
   * expects to repeat, up to that many characters in all; a session cookie that changes on every
   * write is re-inserted each time and, once the cache is full, the whole cache is cleared: about
   * 10 µs a request with a ~750-character cookie here. Off by default, for every system alike.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when a node or Redis does not
   *     start, or {@code redis-server} is missing (the message says how to install it)
   */
  public static Cluster start(Kind kind, int count, Path redisServer, int headerCache) {
    return start(kind, count, redisServer, headerCache, Algorithm.HS256, dev.sessionless.core.Compression.NONE);
  }

  /**
   * {@link #start(Kind, int, Path, int)}, with the Sessionless nodes' tokens made with {@code
   * algorithm} ({@code HS256} signed, or {@code DIR_A256GCM} encrypted) and compressed as
   * {@code compression} (for a signed token, a compressed JWS, which the nodes then accept).
   */
  public static Cluster start(Kind kind, int count, Path redisServer, int headerCache, Algorithm algorithm,
      dev.sessionless.core.Compression compression) {
    RedisServer redis = null;
    if (kind == Kind.SPRING_SESSION_REDIS) {
      Path exe = Host.redisExecutable(redisServer)
          .orElseThrow(() -> new LoadException(LoadException.Reason.SYSTEM_FAILED, Host.redisMissing(redisServer)));
      try {
        redis = RedisServer.start(exe);
      } catch (IllegalStateException e) {
        throw new LoadException(LoadException.Reason.SYSTEM_FAILED, e.getMessage(), e);
      }
    }
    if (kind == Kind.HTTP_SESSION_PADDED) {
      return startPadded(count, headerCache, DEFAULT_PADDING);
    }
    return new Cluster(kind, count, redis, headerCache, algorithm, compression, 0).startNodes(count);
  }

  /** Starts {@code count} nodes; on a failure stops what started (and Redis) and rethrows. */
  private Cluster startNodes(int count) {
    try {
      for (int i = 0; i < count; i++) {
        nodes.add(startNode(i, 0));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    return this;
  }

  /** The path every node answers with 200, not touching a session: for a balancer's health check. */
  public static final String HEALTH_PATH = "/health";

  /**
   * The shop's per-request hook on node {@code index}: counts the request as served by that node
   * and gives the CPU time to spend on it ({@link #appCpu}).
   */
  private LongSupplier perRequest(int index) {
    return () -> {
      served.incrementAndGet(index);
      return appCpuNanos;
    };
  }

  private Node startNode(int index, int port) {
    if (kind == Kind.SESSIONLESS_WEBFLUX) {
      WebFluxNode node = WebFluxNode.start(port, keySource, algorithm, compression, perRequest(index));
      return new Node(node.port(), node::kill);
    }
    Server server = new Server();
    server.setStopTimeout(0); // a kill, not a graceful shutdown: requests in flight fail
    LettuceConnectionFactory connections = null;
    try {
      HttpConfiguration http = new HttpConfiguration();
      http.setHeaderCacheSize(headerCache);
      ServerConnector connector = new KillableConnector(server, new HttpConnectionFactory(http));
      connector.setHost("127.0.0.1");
      connector.setPort(port);
      server.addConnector(connector);
      ServletContextHandler context = kind == Kind.HTTP_SESSION || kind == Kind.HTTP_SESSION_PADDED
          ? new ServletContextHandler("/", ServletContextHandler.SESSIONS)
          : new ServletContextHandler("/");
      if (kind == Kind.SESSIONLESS) {
        SessionlessFilter filter = SessionlessFilter.builder()
            .keys(keySource).issuer("https://shop.example").audience("shop")
            .algorithm(algorithm).compression(compression).build();
        context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      } else if (kind == Kind.SPRING_SESSION_REDIS) {
        connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
        connections.afterPropertiesSet();
        connections.start();
        // ready before it takes traffic, as a readiness probe would have it: the first
        // connection costs seconds (Lettuce and Netty start up), which no request should pay
        try (RedisConnection probe = connections.getConnection()) {
          probe.ping();
        }
        context.addFilter(new FilterHolder(springSession(connections)), "/*", EnumSet.of(DispatcherType.REQUEST));
      }
      context.addServlet(new ServletHolder(new ShopServlet(perRequest(index))), "/shop/*");
      context.addServlet(new ServletHolder(new HealthServlet()), HEALTH_PATH);
      server.setHandler(kind == Kind.HTTP_SESSION_PADDED ? new PaddingCookieHandler(padding, context) : context);
      server.start();
      LettuceConnectionFactory redisConnections = connections;
      return new Node(connector.getLocalPort(), () -> stopQuietly(server, redisConnections));
    } catch (Exception e) {
      stopQuietly(server, connections);
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not start a " + kind + " node: " + e, e);
    }
  }

  /**
   * The filter as Spring Boot configures it by default ({@code RedisSessionRepository}, keys as
   * strings, attributes by JDK serialization, saved when the request ends).
   */
  private static SessionRepositoryFilter<?> springSession(LettuceConnectionFactory connections) {
    RedisTemplate<String, Object> template = new RedisTemplate<>();
    template.setKeySerializer(RedisSerializer.string());
    template.setHashKeySerializer(RedisSerializer.string());
    template.setConnectionFactory(connections);
    template.setBeanClassLoader(Cluster.class.getClassLoader());
    template.afterPropertiesSet();
    RedisSessionRepository repository = new RedisSessionRepository(template);
    repository.setDefaultMaxInactiveInterval(Duration.ofMinutes(30));
    return new SessionRepositoryFilter<>(repository);
  }

  /**
   * Makes every node's shop spend {@code perRequest} of its thread's CPU time on each request
   * from now on, standing for an application's own work ({@link ShopServlet#spend}); zero, the
   * default, is a shop that does next to nothing.
   *
   * @return this cluster
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} when the time is negative,
   *     {@link LoadException.Reason#SYSTEM_FAILED} when this JVM cannot measure a thread's CPU time
   */
  public Cluster appCpu(Duration perRequest) {
    if (perRequest.isNegative()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "the application's CPU time per request must not be"
          + " negative, got " + perRequest);
    }
    if (!perRequest.isZero() && !ShopServlet.canSpend()) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "this JVM cannot measure a thread's CPU time,"
          + " which --app-cpu needs: run without it");
    }
    appCpuNanos = perRequest.toNanos();
    return this;
  }

  /** The kind of session store. */
  public Kind kind() {
    return kind;
  }

  /** The nodes' base URIs, in start order; a restarted node keeps its URI. */
  public List<URI> nodes() {
    List<URI> uris = new ArrayList<>();
    for (Node n : snapshot()) {
      uris.add(URI.create("http://127.0.0.1:" + n.port()));
    }
    return uris;
  }

  /** The shop requests node {@code index} has served since the cluster started (its restarts included). */
  public long requestsServed(int index) {
    return served.get(index);
  }

  /** Whether node {@code index} is in the balancer's rotation (started and not stopped). */
  public boolean isUp(int index) {
    return down.get(index) == 0;
  }

  /**
   * Kills node {@code index}: the balancer takes it out of rotation at once (its health check is
   * faster than anything here), then the server stops, losing whatever it held in memory;
   * requests in flight on it fail.
   */
  public void stopNode(int index) {
    down.set(index, 1);
    snapshot().get(index).kill().run();
  }

  /**
   * Starts a fresh node (empty memory) on the port of stopped node {@code index} and puts it back
   * into rotation.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when it does not start
   */
  public void restartNode(int index) {
    Node fresh = startNode(index, snapshot().get(index).port());
    synchronized (nodes) {
      nodes.set(index, fresh);
    }
    down.set(index, 0);
  }

  /**
   * Rotates the Sessionless nodes' signing key: a new key signs from now on. With
   * {@code keepOld} the old key stays for verification (retired, expiring in an hour), as a
   * rotation should; without it the old key is dropped at once, which rejects every token it
   * signed (a broken rotation, for checking that the run notices). Other kinds have no key: a
   * no-op.
   */
  public void rotateKeys(boolean keepOld) {
    if (!kind.tokens()) {
      return;
    }
    Instant now = Instant.now();
    TokenKey old = keys.signingKey(algorithm, now).orElseThrow();
    TokenKey fresh = TokenKey.generate("load-" + rotations.incrementAndGet(), algorithm)
        .withLifecycle(now, now, null, null);
    keys = keepOld
        ? KeySet.of(old.withLifecycle(null, null, now, now.plus(Duration.ofHours(1))), fresh)
        : KeySet.of(fresh);
  }

  private List<Node> snapshot() {
    synchronized (nodes) {
      return List.copyOf(nodes);
    }
  }

  private static void stopQuietly(Server server, LettuceConnectionFactory redis) {
    try {
      server.stop();
    } catch (Exception e) {
      // stopping is best effort: the JVM ends the run anyway
    }
    for (Connector c : server.getConnectors()) {
      if (c instanceof KillableConnector k) {
        k.closeAccepted(); // as a dead process's sockets: no request waits on this node
      }
    }
    if (redis != null) {
      redis.destroy();
    }
  }

  /** Stops every node and, for Spring Session, the Redis server. */
  @Override
  public void close() {
    snapshot().forEach(n -> n.kill().run());
    if (redis != null) {
      redis.close();
    }
  }
}
