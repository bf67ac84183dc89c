package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.keyring.PublishedRevocations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;

/** Makes the {@link RevocationSource} the {@code sessionless.revocation.*} properties describe. */
final class RevocationFactory {
  private static final Log LOG = LogFactory.getLog(RevocationFactory.class);
  private static final String REDIS = "dev.sessionless.redis.RedisRevocations";

  private RevocationFactory() {}

  /**
   * The application's one {@link RevocationSource} bean (or the {@code @Primary} one among
   * several), or null when it has none. Several without a primary fail loudly: quietly checking
   * none of them would turn revocation off.
   *
   * @throws IllegalStateException naming the beans, when there are several and none is primary
   */
  public static RevocationSource single(ObjectProvider<RevocationSource> beans) {
    try {
      return beans.getIfAvailable();
    } catch (NoUniqueBeanDefinitionException e) {
      throw new IllegalStateException("Sessionless found " + e.getNumberOfBeansFound() + " RevocationSource beans "
          + e.getBeanNamesFound() + " and would not know which one revokes sessions: mark that one @Primary,"
          + " or keep only one", e);
    }
  }

  /**
   * The source of {@code sessionless.revocation.type}, started (a Redis store has read the whole
   * list, a published list has been read once).
   *
   * @param keys the session keys: a published list is verified with them unless {@code
   *     sessionless.revocation.published.keys-file} names others
   * @param issuer the session issuer, the list's by default
   * @param audience the session audience, the list's by default
   * @throws IllegalStateException naming the property to set when the configuration is
   *     incomplete or contradicts itself (a Redis URL and cluster nodes both), or when type REDIS lacks {@code sessionless-redis} on the class path
   */
  public static RevocationSource build(RevocationProperties p, KeySource keys, String issuer,
      String audience) {
    switch (p.getType()) {
      case MEMORY:
        LOG.info("Sessionless revocations are kept in this instance's memory (sessionless.revocation.type=memory):"
            + " a logout holds on this instance only; use redis or published for several instances");
        return RevocationStore.inMemory(Clock.systemUTC());
      case REDIS:
        boolean cluster = !p.getRedis().getCluster().getNodes().isEmpty();
        if (p.getRedis().getUrl() != null && cluster) {
          throw new IllegalStateException("sessionless.revocation.redis.url and sessionless.revocation.redis.cluster.nodes"
              + " are both set: Redis is either one server (url) or a Redis Cluster (cluster.nodes); remove one");
        }
        if (p.getRedis().getUrl() == null && !cluster) {
          throw new IllegalStateException("sessionless.revocation.type=redis needs sessionless.revocation.redis.url,"
              + " e.g. redis://127.0.0.1:6379, or for a Redis Cluster sessionless.revocation.redis.cluster.nodes,"
              + " e.g. 10.0.0.1:6379,10.0.0.2:6379");
        }
        if (!ClassUtils.isPresent(REDIS, RevocationFactory.class.getClassLoader())) {
          throw new IllegalStateException("sessionless.revocation.type=redis needs dev.sessionless:sessionless-redis"
              + " on the class path: add that dependency");
        }
        return RedisRevocationFactory.build(p.getRedis());
      case PUBLISHED:
        return published(p.getPublished(), keys, issuer, audience);
      default:
        throw new IllegalStateException("sessionless.revocation.type is none: no revocation source to build");
    }
  }

  private static RevocationSource published(RevocationProperties.Published p, KeySource keys, String issuer,
      String audience) {
    if ((p.getFile() == null) == (p.getUrl() == null)) {
      throw new IllegalStateException("sessionless.revocation.type=published needs exactly one of"
          + " sessionless.revocation.published.file and sessionless.revocation.published.url");
    }
    KeySource verify = keys;
    if (p.getKeysFile() != null) {
      try {
        verify = KeySet.fromJwks(Files.readString(p.getKeysFile()));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read sessionless.revocation.published.keys-file " + p.getKeysFile(), e);
      }
    }
    PublishedRevocations.Builder b = PublishedRevocations.builder().keys(verify)
        .issuer(p.getIssuer() != null ? p.getIssuer() : issuer)
        .audience(p.getAudience() != null ? p.getAudience() : audience)
        .pollInterval(p.getPollInterval())
        .onStale(PublishedRevocations.OnStale.valueOf(p.getOnStale().name()));
    if (p.getFile() != null) {
      b.file(p.getFile());
    } else {
      b.url(p.getUrl());
    }
    LOG.info("Sessionless reads revocations from a published list: it is read-only here, so a logout clears"
        + " the cookie but cannot revoke the session; the publisher's list does that");
    return b.build();
  }
}
