/**
 * Sessionless on Redis: a {@link dev.sessionless.core.RevocationStore} shared by every node.
 *
 * <p>Exports exactly one package, {@code dev.sessionless.redis}; everything under {@code
 * dev.sessionless.redis.internal} is implementation detail.
 */
module dev.sessionless.redis {
  requires transitive dev.sessionless.core;
  requires redis.clients.jedis;

  exports dev.sessionless.redis;
}
