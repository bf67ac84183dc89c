package dev.sessionless.redis.internal;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/** The Jedis client of {@code RedisRevocations}: one server, or a Redis Cluster. */
public final class Connections {
  private Connections() {}

  /**
   * Checks the builder's choice: exactly one of {@code uri} and {@code clusterNodes} (non-empty),
   * every address {@code redis://} or {@code rediss://}.
   *
   * @throws IllegalStateException if not
   */
  public static void check(URI uri, List<URI> clusterNodes) {
    if ((uri == null) == (clusterNodes == null)) {
      throw new IllegalStateException(uri == null
          ? "uri (e.g. redis://127.0.0.1:6379) or clusterNodes is required"
          : "set uri (one server) or clusterNodes (a Redis Cluster), not both");
    }
    if (clusterNodes != null && clusterNodes.isEmpty()) {
      throw new IllegalStateException("clusterNodes needs at least one address");
    }
    for (URI u : uri == null ? clusterNodes : List.of(uri)) {
      String scheme = String.valueOf(u.getScheme());
      if (!scheme.equals("redis") && !scheme.equals("rediss")) {
        throw new IllegalStateException("uri must be redis:// or rediss://, got " + scheme + "://");
      }
    }
  }

  /**
   * A client for the server at {@code uri}, or, when it is null, for the cluster that {@code
   * clusterNodes} belong to (the first one's credentials and scheme for all). The cluster client
   * gives up on a command after 3 attempts or 2 seconds: a logout waits no longer than that for
   * a cluster that is failing over (the store keeps what it could not write and writes it at a
   * later poll).
   */
  public static UnifiedJedis connect(URI uri, List<URI> clusterNodes) {
    if (uri != null) {
      return RedisClient.create(uri);
    }
    Set<HostAndPort> nodes = new LinkedHashSet<>();
    for (URI u : clusterNodes) {
      nodes.add(JedisURIHelper.getHostAndPort(u));
    }
    URI first = clusterNodes.get(0);
    DefaultJedisClientConfig config = DefaultJedisClientConfig.builder()
        .user(JedisURIHelper.getUser(first)).password(JedisURIHelper.getPassword(first))
        .ssl(JedisURIHelper.isRedisSSLScheme(first)).build();
    return RedisClusterClient.builder().nodes(nodes).clientConfig(config).maxAttempts(3)
        .maxTotalRetriesDuration(Duration.ofSeconds(2)).build();
  }
}
