package dev.sessionless.spring.boot;

import dev.sessionless.redis.RedisRevocations;

/** The Redis store; loaded only when {@code sessionless-redis} is on the class path. */
final class RedisRevocationFactory {
  private RedisRevocationFactory() {}

  static RedisRevocations build(RevocationProperties.Redis p) {
    return RedisRevocations.builder().uri(p.getUrl()).keyPrefix(p.getKeyPrefix())
        .pollInterval(p.getPollInterval()).staleBound(p.getStaleBound())
        .onStale(RedisRevocations.OnStale.valueOf(p.getOnStale().name())).build();
  }
}
