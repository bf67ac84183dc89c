package dev.sessionless.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import dev.sessionless.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * The store on the oldest Redis it supports: the {@code redis-server} 6.2 binary the build brings
 * (what a machine without {@code redis-server} on its {@code PATH} runs every Redis test on). It
 * runs here whatever the {@code PATH} holds, so CI, whose {@code PATH} has Debian's newer
 * {@code redis-server} for the other tests, exercises both. Every command the store sends is
 * sent: the write script ({@code ZADD}, {@code HSET}, {@code HINCRBY}, {@code TIME} after
 * {@code redis.replicate_commands()}, {@code ZRANGEBYSCORE}, {@code EXPIREAT}, {@code PUBLISH}),
 * the read script, {@code EVALSHA} and {@code SUBSCRIBE}.
 */
class EmbeddedRedisTest {
  final FakeClock clock = new FakeClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

  @Test
  void theStoreWorksOnTheRedisSixTwoTheBuildBrings() throws Exception {
    try (RedisServer redis = RedisServer.startEmbedded();
        RedisClient raw = RedisClient.create(redis.uri())) {
      Matcher version = Pattern.compile("redis_version:(\\S+)").matcher(raw.info("server"));
      assertTrue(version.find());
      assertTrue(version.group(1).startsWith("6.2."), "the build's binary is Redis 6.2, got " + version.group(1));

      RedisRevocations.Builder a = RedisRevocations.builder().uri(redis.uri()).clock(clock);
      try (RedisRevocations writer = a.build();
          RedisRevocations reader = RedisRevocations.builder().uri(redis.uri()).clock(clock).build()) {
        RevocationStoreContract.arrives(() -> reader.syncCount() >= 2, Duration.ofSeconds(30)); // subscribed
        Instant until = clock.instant().plusSeconds(1800);
        writer.revokeSession("s-6.2", until);
        writer.revokeSubject("erin", clock.instant(), until);
        RevocationStoreContract.arrives(() -> reader.isRevoked("s-6.2") && reader.notBefore("erin").isPresent(),
            Duration.ofSeconds(30)); // pushed by PUBLISH from the script
        assertEquals(until.getEpochSecond() + 1,
            RevocationStoreContract.expiresAt(raw, "{sessionless:revocation:}expiry"), "EXPIREAT from the script");

        try (RedisRevocations late = RedisRevocations.builder().uri(redis.uri()).clock(clock).subscribe(false).build()) {
          assertTrue(late.isRevoked("s-6.2"), "read back by the read script");
          assertEquals(clock.instant(), late.notBefore("erin").orElseThrow());
        }
      }
    }
  }
}
