package dev.sessionless.spring.boot;

import dev.sessionless.redis.RedisRevocations;
import java.net.URI;
import java.util.List;

/** The Redis store; loaded only when {@code sessionless-redis} is on the class path. */
final class RedisRevocationFactory {
  private static final String NODES = "sessionless.revocation.redis.cluster.nodes";

  private RedisRevocationFactory() {}

  /** The store on the server of {@code url}, or on the cluster of {@code cluster.nodes}; RevocationFactory checked that one is set. */
  static RedisRevocations build(RevocationProperties.Redis p) {
    RedisRevocations.Builder b = RedisRevocations.builder();
    if (p.getUrl() != null) {
      b.uri(p.getUrl());
    } else {
      b.clusterNodes(clusterNodes(p.getCluster().getNodes()));
    }
    return b.keyPrefix(p.getKeyPrefix())
        .pollInterval(p.getPollInterval()).staleBound(p.getStaleBound())
        .onStale(RedisRevocations.OnStale.valueOf(p.getOnStale().name())).build();
  }

  /**
   * The nodes as the store's URIs: {@code host:port} (Spring Boot's own {@code
   * spring.data.redis.cluster.nodes} form) becomes {@code redis://host:port}; a {@code redis://}
   * or {@code rediss://} URI is kept.
   *
   * @throws IllegalStateException naming the entry (without its credentials) when it is neither
   */
  static String[] clusterNodes(List<String> nodes) {
    String[] uris = new String[nodes.size()];
    for (int i = 0; i < uris.length; i++) {
      String node = nodes.get(i) == null ? "" : nodes.get(i).trim();
      String uri = node.contains("://") ? node : "redis://" + node;
      URI parsed;
      try {
        parsed = new URI(uri);
      } catch (java.net.URISyntaxException e) {
        parsed = null;
      }
      if (parsed == null || !("redis".equals(parsed.getScheme()) || "rediss".equals(parsed.getScheme()))
          || parsed.getHost() == null || parsed.getPort() <= 0) {
        // What follows the last '@' only: a password in the entry stays out of the message and the logs.
        throw new IllegalStateException(NODES + "[" + i + "] is '" + node.substring(node.lastIndexOf('@') + 1)
            + "': each node is host:port (e.g. 10.0.0.1:6379), or redis://host:port or rediss://user:password@host:port");
      }
      uris[i] = uri;
    }
    return uris;
  }
}
