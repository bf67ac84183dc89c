/**
 * {@link dev.sessionless.redis.RedisRevocations}: revoked sessions and subjects logged out
 * everywhere, kept in Redis and copied into each node's memory.
 *
 * <p>Null-free: no method here accepts or returns {@code null} unless its documentation says so.
 */
package dev.sessionless.redis;
